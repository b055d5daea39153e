package io.quarkiverse.pacer.runtime.delay.producer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.UUID;

/**
 * Random (version 4) UUIDs for the ids Pacer generates, as unguessable as {@link UUID#randomUUID()} (an id is a handle
 * to its message: {@code cancel}, {@code deliverNow}), without its cost per id under many producers: one generator
 * behind one lock for the whole JVM, and a read of the OS's random source every other id. Here a few stripes, picked
 * by thread, each draw 4 KB at a time from a DRBG seeded by the OS. Made at run time (a bean's field), never in a
 * native image's heap.
 */
final class RandomIds {

    private static final int BUFFER_BYTES = 4096;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private final Stripe[] stripes;

    RandomIds() {
        int count = Integer.highestOneBit(Math.max(1, Runtime.getRuntime().availableProcessors()) * 2);
        stripes = new Stripe[count];
        for (int i = 0; i < count; i++) {
            stripes[i] = new Stripe();
        }
    }

    /** A new random id, formatted as {@link UUID#toString()}. */
    String next() {
        Stripe stripe = stripes[(int) Thread.currentThread().getId() & (stripes.length - 1)];
        long msb;
        long lsb;
        synchronized (stripe) {
            if (stripe.position == BUFFER_BYTES) {
                stripe.random.nextBytes(stripe.bytes);
                stripe.position = 0;
            }
            msb = (long) LONGS.get(stripe.bytes, stripe.position);
            lsb = (long) LONGS.get(stripe.bytes, stripe.position + 8);
            stripe.position += 16;
        }
        // Version 4 (random) and the IETF variant, as UUID.randomUUID() sets them.
        msb = (msb & ~0xF000L) | 0x4000L;
        lsb = (lsb & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
        return new UUID(msb, lsb).toString();
    }

    private static final class Stripe {
        final SecureRandom random = drbg();
        final byte[] bytes = new byte[BUFFER_BYTES];
        /** Drawn on first use, on the thread that needs it. */
        int position = BUFFER_BYTES;
    }

    private static SecureRandom drbg() {
        try {
            return SecureRandom.getInstance("DRBG");
        } catch (NoSuchAlgorithmException e) {
            return new SecureRandom();
        }
    }
}
