package io.quarkiverse.pacer.throttle;

// @formatter:off
/**
 * How a {@link Throttled} policy counts permits. Every algorithm is decided by one atomic Lua script in Redis, with
 * time taken from the Redis server ({@code TIME}), so all instances of an application share one limit exactly.
 * <p>
 * Example:
 *
 * <pre>{@code
 * @Throttled(limit = 100, window = "1m", algorithm = Algorithm.SLIDING_WINDOW)
 * public List<Hit> search(String q) {
 *     return index.search(q);
 * }
 * }</pre>
 *
 * <table>
 * <caption>Algorithms at a glance</caption>
 * <tr>
 * <th>Algorithm</th>
 * <th>Accuracy</th>
 * <th>State per key</th>
 * </tr>
 * <tr>
 * <td>{@link #FIXED_WINDOW}</td>
 * <td>exact per calendar window; up to 2 &times; limit across a boundary</td>
 * <td>O(1)</td>
 * </tr>
 * <tr>
 * <td>{@link #SLIDING_WINDOW}</td>
 * <td>exact within one aligned window; weighted estimate across the boundary</td>
 * <td>O(1)</td>
 * </tr>
 * <tr>
 * <td>{@link #SLIDING_LOG}</td>
 * <td>exact over every rolling window</td>
 * <td>O(limit)</td>
 * </tr>
 * <tr>
 * <td>{@link #TOKEN_BUCKET}</td>
 * <td>exact: bursts of {@code burst}, long-run rate {@code limit/window}</td>
 * <td>O(1)</td>
 * </tr>
 * <tr>
 * <td>{@link #LEAKY_BUCKET}</td>
 * <td>exact GCRA, microsecond granularity</td>
 * <td>O(1)</td>
 * </tr>
 * <tr>
 * <td>{@link #CONCURRENCY}</td>
 * <td>exact number of calls in flight</td>
 * <td>O(limit)</td>
 * </tr>
 * </table>
 */
// @formatter:on
public enum Algorithm {

    /**
     * At most {@code limit} permits per window aligned to the epoch ({@code [k·window, (k+1)·window)}). Simplest and
     * cheapest; a client can get up to {@code 2·limit} permits in a short interval straddling a window boundary.
     */
    FIXED_WINDOW,

    /**
     * Weighted two-window counter: the estimate is {@code current + previous · (1 − elapsed/window)}. Within one
     * aligned window never more than {@code limit} permits are admitted; over an arbitrary rolling window the
     * estimate assumes the previous window's permits were spread evenly, so a burst at the end of the previous window
     * can let a rolling window see up to (just under) {@code 2·limit} permits in the worst case. O(1) state.
     */
    SLIDING_WINDOW,

    /**
     * Exact rolling window: one sorted-set entry per admitted permit, so at most {@code limit} permits in any interval
     * of length {@code window}. Memory grows with the limit (O(limit) per key): prefer it for small limits.
     */
    SLIDING_LOG,

    /**
     * The default. A bucket of {@code burst} tokens (default {@code limit}), refilled continuously at
     * {@code limit} tokens per {@code window}; a call takes {@code cost} tokens. Allows bursts up to the capacity and
     * a long-run rate of {@code limit/window}. O(1) state.
     */
    TOKEN_BUCKET,

    /**
     * The Generic Cell Rate Algorithm (GCRA, the algorithm of redis-cell's {@code CL.THROTTLE}): a leaky bucket kept as
     * one "theoretical arrival time" per key. Permits are spaced {@code window/limit} apart (rounded up to whole
     * microseconds), with a tolerance of {@code burst} permits. One key, O(1) state.
     */
    LEAKY_BUCKET,

    /**
     * At most {@code limit} calls in flight at once across all instances. Each admitted call holds a lease that is
     * released when the call completes; {@code window} is the lease timeout after which a lease held by a crashed
     * instance expires by itself. O(limit) state per key.
     */
    CONCURRENCY
}
