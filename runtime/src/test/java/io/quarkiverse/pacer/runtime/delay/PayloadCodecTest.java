package io.quarkiverse.pacer.runtime.delay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;

class PayloadCodecTest {

    record OrderRef(String id, int lines) {
    }

    /** No properties: Jackson cannot serialize it. */
    static class Opaque {
    }

    private final ObjectMapper mapper = new ObjectMapper();
    private final PayloadCodec codec = new PayloadCodec(mapper);

    @Test
    void stringIsStoredAsIs() {
        assertThat(codec.encode("{\"not\":\"parsed\"}")).isEqualTo(new PayloadCodec.Encoded("{\"not\":\"parsed\"}",
                PayloadCodec.TEXT));
    }

    @Test
    void bytesAreStoredAsBase64() {
        assertThat(codec.encode(new byte[] { 0, 1, (byte) 0xff }))
                .isEqualTo(new PayloadCodec.Encoded("AAH/", PayloadCodec.BYTES));
    }

    @Test
    void objectIsStoredAsJson() {
        assertThat(codec.encode(new OrderRef("o-1", 3)))
                .isEqualTo(new PayloadCodec.Encoded("{\"id\":\"o-1\",\"lines\":3}", PayloadCodec.TEXT));
    }

    @Test
    void nullPayloadIsRejected() {
        assertThatThrownBy(() -> codec.encode(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Delayed message payload must not be null");
    }

    @Test
    void unserializablePayloadIsRejectedWithoutJacksonsAdvice() {
        assertThatThrownBy(() -> codec.encode(new Opaque())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Delayed message payload of type " + Opaque.class.getName()
                        + " cannot be serialized to JSON: ")
                .hasMessageEndingWith("; schedule a type with JSON properties (public fields, getters or a record),"
                        + " or a String or byte[]")
                .hasMessageNotContaining("to avoid exception");
    }

    @Test
    void jsonRoundTrip() throws Exception {
        JavaType type = mapper.getTypeFactory().constructFromCanonical(OrderRef.class.getName());
        PayloadCodec.Encoded encoded = codec.encode(new OrderRef("o-2", 5));
        assertThat(codec.decode(encoded.value(), encoded.encoding(), PayloadKind.JSON, type))
                .isEqualTo(new OrderRef("o-2", 5));
    }

    @Test
    void jsonConsumerReadsJsonScheduledAsBytes() throws Exception {
        JavaType type = mapper.getTypeFactory().constructFromCanonical("java.util.Map<java.lang.String,java.lang.Integer>");
        PayloadCodec.Encoded encoded = codec.encode("{\"a\":1}".getBytes(StandardCharsets.UTF_8));
        assertThat(codec.decode(encoded.value(), encoded.encoding(), PayloadKind.JSON, type)).isEqualTo(Map.of("a", 1));
    }

    @Test
    void genericJsonTypeIsDecoded() throws Exception {
        JavaType type = mapper.getTypeFactory()
                .constructFromCanonical("java.util.List<" + OrderRef.class.getName() + ">");
        PayloadCodec.Encoded encoded = codec.encode(List.of(new OrderRef("a", 1), new OrderRef("b", 2)));
        assertThat(codec.decode(encoded.value(), encoded.encoding(), PayloadKind.JSON, type))
                .isEqualTo(List.of(new OrderRef("a", 1), new OrderRef("b", 2)));
    }

    @Test
    void jsonThatDoesNotFitTheTypeFails() {
        JavaType type = mapper.getTypeFactory().constructFromCanonical(OrderRef.class.getName());
        assertThatThrownBy(() -> codec.decode("[1,2]", PayloadCodec.TEXT, PayloadKind.JSON, type))
                .isInstanceOf(Exception.class);
    }

    @Test
    void stringConsumerReadsTextAndBytes() throws Exception {
        assertThat(codec.decode("héllo", PayloadCodec.TEXT, PayloadKind.STRING, null)).isEqualTo("héllo");
        PayloadCodec.Encoded bytes = codec.encode("héllo".getBytes(StandardCharsets.UTF_8));
        assertThat(codec.decode(bytes.value(), bytes.encoding(), PayloadKind.STRING, null)).isEqualTo("héllo");
    }

    @Test
    void bytesConsumerReadsBytesAndText() throws Exception {
        PayloadCodec.Encoded bytes = codec.encode(new byte[] { 7, 8, 9 });
        assertThat((byte[]) codec.decode(bytes.value(), bytes.encoding(), PayloadKind.BYTES, null))
                .containsExactly(7, 8, 9);
        assertThat((byte[]) codec.decode("héllo", PayloadCodec.TEXT, PayloadKind.BYTES, null))
                .isEqualTo("héllo".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void forwardingChannelGetsThePayloadAsStored() throws Exception {
        assertThat(codec.decode("{\"id\":\"x\"}", PayloadCodec.TEXT, PayloadKind.AS_STORED, null))
                .isEqualTo("{\"id\":\"x\"}");
        PayloadCodec.Encoded bytes = codec.encode(new byte[] { 1, 2 });
        assertThat((byte[]) codec.decode(bytes.value(), bytes.encoding(), PayloadKind.AS_STORED, null))
                .containsExactly(1, 2);
    }

    @Test
    void bytesOfAStoredPayload() {
        assertThat(PayloadCodec.bytes("AAH/", PayloadCodec.BYTES)).containsExactly(0, 1, 0xff);
        assertThat(PayloadCodec.bytes("abc", PayloadCodec.TEXT)).isEqualTo("abc".getBytes(StandardCharsets.UTF_8));
    }
}
