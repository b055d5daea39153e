package io.quarkiverse.pacer.runtime.delay.producer;

import java.security.SecureRandom;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The ids of messages scheduled without one: version-4 UUIDs whose 60 high random bits are drawn once per JVM from
 * {@link SecureRandom}, and whose 62 low bits are a counter passed through a bijection (so they spread over shards like
 * random bits). Unique within a JVM by construction, across JVMs unless two drew the same 60 bits; and cheap:
 * {@link UUID#randomUUID()} takes a lock and a SecureRandom draw per call, a sizeable share of a {@code schedule}'s CPU
 * with many producers.
 */
final class MessageIds {

    private static final long LOW_62 = (1L << 62) - 1;
    /** Version 4 in the high half, random elsewhere. */
    private static final long HIGH = (new SecureRandom().nextLong() & ~0xF000L) | 0x4000L;
    private static final AtomicLong COUNTER = new AtomicLong();

    private MessageIds() {
    }

    static String next() {
        return of(COUNTER.getAndIncrement());
    }

    /** The id of counter value {@code n}: distinct values give distinct ids (for {@code n} below 2^62). */
    static String of(long n) {
        return new UUID(HIGH, low(n)).toString();
    }

    /** A bijection of the 62-bit values (odd multipliers and xor-shifts), with the IETF variant bits on top. */
    static long low(long n) {
        long x = (n * 0x9E3779B97F4A7C15L) & LOW_62;
        x ^= x >>> 31;
        x = (x * 0xBF58476D1CE4E5B9L) & LOW_62;
        x ^= x >>> 29;
        return x | 0x8000_0000_0000_0000L;
    }
}
