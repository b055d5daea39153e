package io.quarkiverse.pacer.runtime.delay.recurring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.ZoneId;

import org.junit.jupiter.api.Test;

import com.cronutils.model.CronType;

import io.quarkiverse.pacer.delay.RecurringDelivery;
import io.quarkiverse.pacer.runtime.delay.PayloadCodec;
import io.quarkus.scheduler.common.runtime.CronParser;

/** The stored layout of a recurring schedule: its spec first, for the scripts; read back as it was written. */
class StoredDeliveryTest {

    private final RecurringTimes times = new RecurringTimes(new CronParser(CronType.QUARTZ));

    @Test
    void cronDefinitionRoundTrips() {
        RecurringDelivery weekly = RecurringDelivery.cron("report-42", "0 0 8 ? * MON", ZoneId.of("Europe/Paris"))
                .deliver("weekly-report", "{\"customer\":42}").withOverdueGracePeriod(Duration.ofHours(6));
        String spec = times.cron(weekly.id(), weekly.cron(), weekly.zone()).spec();
        String text = StoredDelivery.of(spec, weekly, new PayloadCodec.Encoded("{\"customer\":42}", PayloadCodec.TEXT))
                .text();
        assertThat(text).startsWith("cron:0 0 8 ? * MON@Europe/Paris\n");
        StoredDelivery stored = StoredDelivery.parse(text);
        assertThat(stored.spec()).isEqualTo(spec);
        assertThat(times.of("report-42", stored).spec()).isEqualTo(spec);
        RecurringDelivery read = stored.toDelivery("report-42");
        assertThat(read.cron()).isEqualTo("0 0 8 ? * MON");
        assertThat(read.zone()).isEqualTo(ZoneId.of("Europe/Paris"));
        assertThat(read.queue()).isEqualTo("weekly-report");
        assertThat(read.payload()).isEqualTo("{\"customer\":42}");
        assertThat(read.overdueGracePeriod()).contains(Duration.ofHours(6));
        assertThat(read).isEqualTo(weekly).hasSameHashCodeAs(weekly);
    }

    @Test
    void everyDefinitionWithBytesRoundTrips() {
        RecurringDelivery ping = RecurringDelivery.every("ping", Duration.ofSeconds(5)).deliver("pings", new byte[] { 1, 2 });
        String text = StoredDelivery.of("every:5000", ping, new PayloadCodec.Encoded("AQI=", PayloadCodec.BYTES)).text();
        RecurringDelivery read = StoredDelivery.parse(text).toDelivery("ping");
        assertThat(read.every()).isEqualTo(Duration.ofSeconds(5));
        assertThat(read.cron()).isNull();
        assertThat((byte[]) read.payload()).containsExactly(1, 2);
        assertThat(read.overdueGracePeriod()).isEmpty();
        assertThat(read).isEqualTo(ping).hasSameHashCodeAs(ping);
    }

    @Test
    void badCronNamesTheExpressionAndTheSchedule() {
        assertThatThrownBy(() -> times.cron("report-42", "0 0 25 * * ?", ZoneId.of("UTC")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Invalid cron expression \"0 0 25 * * ?\" of recurring schedule report-42");
    }
}
