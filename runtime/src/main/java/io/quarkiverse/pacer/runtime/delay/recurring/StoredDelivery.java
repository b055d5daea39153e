package io.quarkiverse.pacer.runtime.delay.recurring;

import java.time.Duration;
import java.time.ZoneId;
import java.util.Base64;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.quarkiverse.pacer.delay.RecurringDelivery;
import io.quarkiverse.pacer.runtime.delay.PayloadCodec;

/**
 * A recurring schedule's definition as stored in the definitions HASH: its spec ({@code FireTimes#spec()}, which the
 * scripts compare to tell a changed timing from an unchanged one), a newline, then a JSON object with the queue, the
 * timing, the overdue grace period (absent for the default) and the payload as {@link PayloadCodec} encoded it.
 *
 * @param spec the timing's spec, {@code every:<millis>} or {@code cron:<expression>@<zone>}
 * @param everyMillis the period, or {@code null} for a cron schedule
 * @param graceMillis the overdue grace period, or {@code null} for the default
 */
record StoredDelivery(String spec, String queue, String cron, String zone, Long everyMillis, Long graceMillis,
        PayloadCodec.Encoded payload) {

    /** Pacer's own, not the application's: the layout must not change with the application's Jackson settings. */
    private static final ObjectMapper JSON = new ObjectMapper();

    static StoredDelivery of(String spec, RecurringDelivery delivery, PayloadCodec.Encoded payload) {
        return new StoredDelivery(spec, delivery.queue(), delivery.cron(),
                delivery.zone() == null ? null : delivery.zone().getId(),
                delivery.every() == null ? null : delivery.every().toMillis(),
                delivery.overdueGracePeriod().map(Duration::toMillis).orElse(null), payload);
    }

    String text() {
        ObjectNode node = JSON.createObjectNode();
        node.put("queue", queue);
        if (cron != null) {
            node.put("cron", cron);
            node.put("zone", zone);
        } else {
            node.put("every", everyMillis);
        }
        if (graceMillis != null) {
            node.put("grace", graceMillis);
        }
        node.put("encoding", payload.encoding());
        node.put("payload", payload.value());
        try {
            return spec + "\n" + JSON.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @throws IllegalArgumentException when {@code text} is not a definition in this layout */
    static StoredDelivery parse(String text) {
        int newline = text.indexOf('\n');
        if (newline < 0) {
            throw new IllegalArgumentException("not a recurring schedule definition");
        }
        JsonNode node;
        try {
            node = JSON.readTree(text.substring(newline + 1));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a recurring schedule definition: " + e.getOriginalMessage(), e);
        }
        return new StoredDelivery(text.substring(0, newline), node.path("queue").asText(),
                node.hasNonNull("cron") ? node.get("cron").asText() : null,
                node.hasNonNull("zone") ? node.get("zone").asText() : null,
                node.hasNonNull("every") ? node.get("every").asLong() : null,
                node.hasNonNull("grace") ? node.get("grace").asLong() : null,
                new PayloadCodec.Encoded(node.path("payload").asText(), node.path("encoding").asText()));
    }

    /** The definition of schedule {@code id}, its payload as stored: text, or bytes. */
    RecurringDelivery toDelivery(String id) {
        RecurringDelivery.Timing timing = cron != null ? RecurringDelivery.cron(id, cron, ZoneId.of(zone))
                : RecurringDelivery.every(id, Duration.ofMillis(everyMillis));
        Object stored = PayloadCodec.BYTES.equals(payload.encoding()) ? Base64.getDecoder().decode(payload.value())
                : payload.value();
        return timing.deliver(queue, stored)
                .withOverdueGracePeriod(graceMillis == null ? null : Duration.ofMillis(graceMillis));
    }
}
