package io.quarkiverse.pacer.runtime.redis;

import java.util.concurrent.CompletionStage;

/**
 * A loop of Pacer's that sleeps until a moment of Redis time with a timer that runs in real time: the PACER scheduler's
 * jobs and the recurring schedules' firer. When the test kit's clock ({@link ScriptClockShift}) moves Redis time under
 * it, the kit calls {@link #catchUp()}, and {@link #startOver()} when it puts the clock back; nothing calls them in an
 * application.
 */
public interface RedisTimeSleeper {

    /**
     * Wakes the loop to read Redis time again at once and to handle what is due at it, as it would have when its timer
     * fired at that time.
     *
     * @return completes once a read made after this call found nothing more due and what it made due has started: the
     *         PACER runs of the ticks claimed here are started, the recurring ticks fired here are stored in their delay
     *         queues
     */
    CompletionStage<Void> catchUp();

    /**
     * The clock went back: the next fire times computed on the moved clock lie ahead. Each schedule whose next fire time
     * is further ahead than one tick from Redis time now moves back to that tick (a paused recurring schedule stays as it
     * is), then the loop catches up.
     *
     * @return completes as {@link #catchUp()} does
     */
    CompletionStage<Void> startOver();
}
