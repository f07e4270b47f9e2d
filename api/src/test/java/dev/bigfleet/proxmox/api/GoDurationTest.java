package dev.bigfleet.proxmox.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

/** Duration flags keep the Go syntax operators already use with the reference provider. */
class GoDurationTest {

    @ParameterizedTest
    @CsvSource({
        "500ms, 500",
        "90s, 90000",
        "2m, 120000",
        "1h30m, 5400000",
        "1.5s, 1500",
        "0, 0",
        "-2s, -2000",
        "1m30s500ms, 90500",
    })
    void parsesGoSyntax(String text, long millis) {
        assertThat(GoDuration.parse(text)).isEqualTo(Duration.ofMillis(millis));
    }

    @Test
    void parsesSmallUnitsIncludingBothMicroSigns() {
        assertThat(GoDuration.parse("250us")).isEqualTo(Duration.ofNanos(250_000));
        assertThat(GoDuration.parse("250\u00b5s")).isEqualTo(Duration.ofNanos(250_000));
        assertThat(GoDuration.parse("250\u03bcs")).isEqualTo(Duration.ofNanos(250_000));
        assertThat(GoDuration.parse("7ns")).isEqualTo(Duration.ofNanos(7));
    }

    @Test
    void fractionsAreExactNotRoundedThroughDouble() {
        // 1.001h * 3.6e12 in double arithmetic lands a nanosecond short.
        assertThat(GoDuration.parse("1.001h")).isEqualTo(Duration.ofMillis(3_603_600));
        assertThat(GoDuration.parse("0.1s")).isEqualTo(Duration.ofMillis(100));
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"5", "abc", "1x", "-", "+", ".s", "1.5", "s", "1h 30m", "1hh"})
    void rejectsWhatGoRejects(String text) {
        assertThatThrownBy(() -> GoDuration.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("duration");
    }

    @Test
    void rejectsDurationsBeyondGoRangeInsteadOfClamping() {
        // Go's limit is about 2562047h; a silent clamp would turn a typo into "forever".
        assertThatThrownBy(() -> GoDuration.parse("3000000h"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("3000000h");
    }

    @ParameterizedTest
    @CsvSource({
        "480000, 8m0s",
        "2000, 2s",
        "5400000, 1h30m0s",
        "3600000, 1h0m0s",
        "500, 500ms",
        "1500, 1.5s",
        "0, 0s",
        "-1500, -1.5s",
    })
    void formatsLikeGo(long millis, String expected) {
        assertThat(GoDuration.format(Duration.ofMillis(millis))).isEqualTo(expected);
    }

    @Test
    void formatsSubMillisecondFractionsLikeGo() {
        assertThat(GoDuration.format(Duration.ofNanos(1_500_000))).isEqualTo("1.5ms");
        assertThat(GoDuration.format(Duration.ofNanos(2_500))).isEqualTo("2.5\u00b5s");
        assertThat(GoDuration.format(Duration.ofNanos(42))).isEqualTo("42ns");
        assertThat(GoDuration.format(Duration.ofNanos(61_000_000_001L))).isEqualTo("1m1.000000001s");
    }

    @ParameterizedTest
    @ValueSource(strings = {"8m0s", "1h30m0s", "1.5s", "500ms", "1.5ms", "2.5\u00b5s", "42ns", "-3m7.25s"})
    void formattedValuesParseBack(String text) {
        assertThat(GoDuration.format(GoDuration.parse(text))).isEqualTo(text);
    }
}
