package dev.distlock.core.internal.time;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DurationFormatTests {

    @Test
    void durationsReadAsWritten() {
        assertThat(DurationFormat.format(Duration.ofMillis(100))).isEqualTo("100ms");
        assertThat(DurationFormat.format(Duration.ofSeconds(3))).isEqualTo("3s");
        assertThat(DurationFormat.format(Duration.ofMillis(12_500))).isEqualTo("12.5s");
        assertThat(DurationFormat.format(Duration.ofMinutes(5))).isEqualTo("5m");
        assertThat(DurationFormat.format(Duration.ofDays(1))).isEqualTo("1d");
        assertThat(DurationFormat.format(Duration.ofNanos(250_000))).isEqualTo("250us");
        assertThat(DurationFormat.format(Duration.ZERO)).isEqualTo("0ms");
    }
}
