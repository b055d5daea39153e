package io.quarkiverse.pacer.runtime.redis;

import java.nio.charset.StandardCharsets;
import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

import io.vertx.redis.client.Request;

/**
 * Script arguments (or keys) encoded to UTF-8 once, when made: a request built from them ({@link #appendTo}) takes the
 * bytes as they are, so a call that may be sent alone or in a batch ({@link Batchable}) is not encoded twice, and the
 * encoding happens on the caller's thread, not on the connection's. Reads as the list of its strings.
 */
public final class EncodedArgs extends AbstractList<String> implements RandomAccess {

    private final String[] values;
    private final byte[][] bytes;

    private EncodedArgs(String[] values) {
        this.values = values;
        this.bytes = new byte[values.length][];
        for (int i = 0; i < values.length; i++) {
            bytes[i] = values[i].getBytes(StandardCharsets.UTF_8);
        }
    }

    /** The arguments {@code values} (none {@code null}), encoded now. */
    public static EncodedArgs of(String... values) {
        return new EncodedArgs(values.clone());
    }

    /** {@code values} encoded now, or as they are when already encoded. */
    public static EncodedArgs of(List<String> values) {
        return values instanceof EncodedArgs encoded ? encoded : new EncodedArgs(values.toArray(new String[0]));
    }

    @Override
    public String get(int index) {
        return values[index];
    }

    @Override
    public int size() {
        return values.length;
    }

    /** Appends every argument to {@code request}, in order, as the encoded bytes. */
    public Request appendTo(Request request) {
        for (byte[] arg : bytes) {
            request.arg(arg);
        }
        return request;
    }

    /** Appends {@code args} to {@code request}: the encoded bytes when it is an {@link EncodedArgs}. */
    public static void append(Request request, List<String> args) {
        if (args instanceof EncodedArgs encoded) {
            encoded.appendTo(request);
            return;
        }
        for (int i = 0; i < args.size(); i++) {
            request.arg(args.get(i));
        }
    }
}
