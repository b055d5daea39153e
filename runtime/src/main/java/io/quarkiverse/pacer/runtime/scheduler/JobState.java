package io.quarkiverse.pacer.runtime.scheduler;

import io.vertx.redis.client.Response;

/**
 * One job's state as scheduler-read.lua returned it; {@code null} fields are absent in Redis.
 *
 * @param now Redis time of the read, epoch millis
 * @param next scheduled fire time of the next tick
 * @param spec the schedule {@code next} was computed with
 * @param paused paused on every instance
 * @param last scheduled fire time of the last tick claimed
 * @param run of the runs in flight on any instance, the one whose lease ends first
 */
record JobState(long now, Long next, String spec, boolean paused, Long last, RunLease run) {

    static JobState of(Response reply) {
        return new JobState(reply.get(0).toLong(), number(reply.get(1)), text(reply.get(2)),
                "1".equals(text(reply.get(3))), number(reply.get(4)), run(reply.get(5), reply.get(6)));
    }

    /** The run of a script's reply (its member and lease deadline, as {@code ZRANGE ... WITHSCORES} gives them). */
    static RunLease run(Response member, Response deadline) {
        String text = text(member);
        return text == null ? null : new RunLease(text, (long) Double.parseDouble(text(deadline)));
    }

    private static String text(Response value) {
        String text = value == null ? null : value.toString();
        return text == null || text.isEmpty() ? null : text;
    }

    private static Long number(Response value) {
        String text = text(value);
        return text == null ? null : Long.valueOf(text);
    }
}
