package io.quarkiverse.pacer.benchmarks.throttle;

import io.quarkiverse.pacer.benchmarks.BaselineScripts;

/**
 * A physical-limit baseline: the minimal token-bucket script ({@code baseline/minimal-token-bucket.lua}) with its keys
 * and arguments for one limit setting; the subclasses send it (Lettuce standalone and cluster).
 */
abstract class MinimalTokenBucketPeer implements RateLimiterPeer {

    private String[][] keys = new String[0][];
    private String capacity;
    private String refillPerSecond;

    @Override
    public boolean isBaseline() {
        return true;
    }

    /** One bucket key per key name, each its own hash tag so keys spread over a cluster's slots. */
    @Override
    public void prepare(ThrottleLimits limits, String[] keyNames) {
        capacity = Long.toString(limits.limit());
        refillPerSecond = Double.toString(limits.limit() / (double) limits.window().toSeconds());
        keys = new String[keyNames.length][];
        for (int i = 0; i < keyNames.length; i++) {
            keys[i] = new String[] { "baseline:{" + limits.label() + ":" + keyNames[i] + "}" };
        }
    }

    String[] keys(int keyIndex) {
        return keys[keyIndex];
    }

    String capacity() {
        return capacity;
    }

    String refillPerSecond() {
        return refillPerSecond;
    }

    static String script() {
        return BaselineScripts.read("minimal-token-bucket");
    }
}
