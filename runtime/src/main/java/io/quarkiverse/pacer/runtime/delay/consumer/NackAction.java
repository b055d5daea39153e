package io.quarkiverse.pacer.runtime.delay.consumer;

/** What {@code delayed-nack.lua} does with a message this instance gives back. */
enum NackAction {
    /** The handler failed: retry with backoff, or dead-letter after the last attempt. */
    RETRY("retry"),
    /** Dead-letter now without counting an attempt (an undecodable payload). */
    DEAD("dead"),
    /** Give the message back unhandled, due at once, without counting an attempt (shutdown). */
    RELEASE("release");

    /** The argument the script reads. */
    final String argument;

    NackAction(String argument) {
        this.argument = argument;
    }
}
