package io.quarkiverse.pacer.benchmarks.tracing;

import java.util.Collection;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.inject.Singleton;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;

/**
 * The benchmark's span exporter (Quarkus uses CDI exporters by default): counts what it receives and drops it, so a
 * traced run pays for creating, recording and batching every span, not for a network or a collector.
 */
@Singleton
public class CountingSpanExporter implements SpanExporter {

    private final AtomicLong exported = new AtomicLong();

    @Override
    public CompletableResultCode export(Collection<SpanData> spans) {
        exported.addAndGet(spans.size());
        return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode flush() {
        return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
        return CompletableResultCode.ofSuccess();
    }

    public long exported() {
        return exported.get();
    }
}
