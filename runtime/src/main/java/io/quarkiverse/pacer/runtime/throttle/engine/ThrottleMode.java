package io.quarkiverse.pacer.runtime.throttle.engine;

/**
 * What one call of the throttling script does (its first {@code ARGV}, see throttle-prelude.lua).
 */
public enum ThrottleMode {
    /** Takes permits when every policy admits the call. */
    ACQUIRE("0"),
    /** Tells whether a call would be admitted, taking nothing. */
    PEEK("1"),
    /** Ends the leases a call holds on its {@code CONCURRENCY} policies. */
    RELEASE("2"),
    /** Deletes the state of every policy for a key. */
    RESET("3"),
    /** Extends the leases a running call holds. */
    RENEW("4");

    /** The script's code of this mode. */
    final String arg;

    ThrottleMode(String arg) {
        this.arg = arg;
    }
}
