package io.quarkiverse.pacer.runtime.redis;

import java.nio.charset.StandardCharsets;

/**
 * The Redis Cluster hash slot of a key: CRC16 (XMODEM) of the key, or of its hash tag (the text between the first
 * {@code {} and the next {@code }}, when not empty), modulo {@value #SLOTS}. Pacer's keys of one call share a hash tag,
 * so the first key routes the whole call.
 */
final class ClusterSlots {

    static final int SLOTS = 16384;

    private static final int[] TABLE = new int[256];

    static {
        for (int i = 0; i < 256; i++) {
            int crc = i << 8;
            for (int bit = 0; bit < 8; bit++) {
                crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
            }
            TABLE[i] = crc & 0xFFFF;
        }
    }

    private ClusterSlots() {
    }

    /** The slot of {@code key}. */
    static int slot(String key) {
        byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
        int start = 0;
        int end = bytes.length;
        int open = indexOf(bytes, (byte) '{', 0);
        if (open >= 0) {
            int close = indexOf(bytes, (byte) '}', open + 1);
            if (close > open + 1) {
                start = open + 1;
                end = close;
            }
        }
        int crc = 0;
        for (int i = start; i < end; i++) {
            crc = ((crc << 8) ^ TABLE[((crc >>> 8) ^ bytes[i]) & 0xFF]) & 0xFFFF;
        }
        return crc & (SLOTS - 1);
    }

    private static int indexOf(byte[] bytes, byte wanted, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == wanted) {
                return i;
            }
        }
        return -1;
    }
}
