/**
 * Read and repair views of a queue over its shards: depth by state, waiting messages and dead letters (list,
 * replay, purge).
 */
package io.quarkiverse.pacer.runtime.delay.inspection;
