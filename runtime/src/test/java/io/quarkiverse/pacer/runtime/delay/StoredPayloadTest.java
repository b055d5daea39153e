package io.quarkiverse.pacer.runtime.delay;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** The payload part of a stored message, with and without a trace context, and as stored before tracing existed. */
class StoredPayloadTest {

    private static final String CONTEXT = "0af7651916cd43dd8448eb211c80319cb7ad6b716920333101";

    @Test
    void withoutContextNothingChanges() {
        PayloadCodec.Encoded encoded = new PayloadCodec.Encoded("{\"id\":42}", PayloadCodec.TEXT);
        assertThat(StoredPayload.value(encoded, null)).isEqualTo("{\"id\":42}");
        assertThat(StoredPayload.encoding(encoded, null)).isEqualTo("t");
        assertThat(StoredPayload.read("{\"id\":42}", "t")).isEqualTo(new StoredPayload("{\"id\":42}", "t", null));
    }

    @Test
    void contextGoesInFrontWithItsLength() {
        PayloadCodec.Encoded encoded = new PayloadCodec.Encoded("12:ab", PayloadCodec.TEXT);
        String value = StoredPayload.value(encoded, CONTEXT);
        assertThat(value).isEqualTo("50:" + CONTEXT + "12:ab");
        assertThat(value.length() - encoded.value().length()).isEqualTo(53); // less than a traceparent header (55)
        assertThat(StoredPayload.encoding(encoded, CONTEXT)).isEqualTo("T");
        assertThat(StoredPayload.read(value, "T")).isEqualTo(new StoredPayload("12:ab", "t", CONTEXT));
    }

    @Test
    void bytesKeepTheirEncoding() {
        PayloadCodec.Encoded encoded = new PayloadCodec.Encoded("AQID", PayloadCodec.BYTES);
        StoredPayload read = StoredPayload.read(StoredPayload.value(encoded, CONTEXT),
                StoredPayload.encoding(encoded, CONTEXT));
        assertThat(read.encoding()).isEqualTo("b");
        assertThat(read.bytes()).containsExactly(1, 2, 3);
        assertThat(StoredPayload.read("aGk=", "b").bytes()).isEqualTo("hi".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aPrefixCutInsideTheContextHasNoPayload() {
        assertThat(StoredPayload.read("50:" + CONTEXT.substring(0, 10), "T")).isEqualTo(new StoredPayload("", "t", null));
    }
}
