package io.quarkiverse.pacer.runtime.throttle.engine;

/**
 * The throttle script fails on the state stored under a key even after Pacer deleted it: something else writes under
 * Pacer's keys. The call is neither admitted nor rejected by a fallback; the caller gets this error.
 */
public class CorruptedThrottleStateException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    CorruptedThrottleStateException(String message, Throwable cause) {
        super(message, cause);
    }
}
