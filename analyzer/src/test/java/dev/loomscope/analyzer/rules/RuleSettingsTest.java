package dev.loomscope.analyzer.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loomscope.analyzer.reduce.SummaryReducer;
import java.util.List;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.openjdk.jmc.common.unit.IQuantity;
import org.openjdk.jmc.common.unit.UnitLookup;
import org.openjdk.jmc.common.util.IPreferenceValueProvider;
import org.openjdk.jmc.flightrecorder.rules.Severity;

/** The rules' thresholds: declared once as JMC preferences, set by {@code --set}, applied by the judgements. */
class RuleSettingsTest {
    static final IPreferenceValueProvider DEFAULTS = IPreferenceValueProvider.DEFAULT_VALUES;

    @Test
    void everyLoomscopeThresholdIsASettingWithItsDefault() {
        assertThat(RuleSettings.thresholds())
                .extracting(t -> t.getIdentifier())
                .containsExactlyInAnyOrder(
                        "pinning.share", "pinning.longest", "starvation.share", "start-cost.notable");
        assertThat(RuleSettings.all())
                .containsKeys("pinning.longest", "gc.pauseratio.warning.limit"); // JMC's rules' too
        assertThat(RuleSettings.format(PinningRule.LONGEST, PinningRule.LONGEST.getDefaultValue()))
                .isEqualTo("20 ms");
    }

    @Test
    void aSettingChangesTheVerdict() {
        // one pin of 32.9 ms in a 6 s recording: under the pinned share, over the longest pin
        assertThat(PinningRule.verdict(1, 32.9, 32.9, 6000, null, DEFAULTS).severity())
                .isEqualTo(Severity.WARNING);
        RuleSettings longer = RuleSettings.parse(List.of("pinning.longest=50ms"));
        assertThat(PinningRule.verdict(1, 32.9, 32.9, 6000, null, longer).severity())
                .isEqualTo(Severity.INFO);
        RuleSettings share = RuleSettings.parse(List.of("pinning.longest=50ms", "pinning.share=0.5%"));
        assertThat(PinningRule.verdict(1, 32.9, 32.9, 6000, null, share).severity())
                .isEqualTo(Severity.WARNING);
        // the share is of the carriers' time, as watch --pinned-share reads it: 32.9 ms of 2 carriers x 6 s is 0.27%,
        // under 0.5%
        var two = new SummaryReducer.Carriers(2, "test");
        assertThat(PinningRule.verdict(1, 32.9, 32.9, 6000, two, share).severity())
                .isEqualTo(Severity.INFO);
        assertThat(PinningRule.verdict(1, 32.9, 32.9, 6000, two, share).summary())
                .contains("0.27% of 2 carriers' time over the recording (0.01 carriers pinned on average)");

        // 4 of 5 samples starved: a warning from 25%, information above 90%
        assertThat(CarrierStarvationRule.verdict(5, 4, 95, DEFAULTS).severity()).isEqualTo(Severity.WARNING);
        assertThat(CarrierStarvationRule.verdict(5, 4, 95, RuleSettings.parse(List.of("starvation.share=90 %")))
                        .severity())
                .isEqualTo(Severity.INFO);

        // 199 starts a second cost about 0.14% without a profiler: ok at 1%, information at 0.1%, a warning at 0.05%
        assertThat(ThreadStartCostRule.verdict(810, 6, 199, "jfr", DEFAULTS).severity())
                .isEqualTo(Severity.OK);
        assertThat(ThreadStartCostRule.verdict(810, 6, 199, "jfr", DEFAULTS).summary())
                .contains("under 1% of its throughput");
        assertThat(ThreadStartCostRule.verdict(
                                810, 6, 199, "jfr", RuleSettings.parse(List.of("start-cost.notable=0.1%")))
                        .severity())
                .isEqualTo(Severity.INFO);
        assertThat(ThreadStartCostRule.verdict(
                                810, 6, 199, "jfr", RuleSettings.parse(List.of("start-cost.notable=0.05%")))
                        .severity())
                .isEqualTo(Severity.WARNING);
    }

    @Test
    void valuesTakeTheirUnits() {
        RuleSettings s = RuleSettings.parse(List.of("pinning.longest=2 s", "other.processes.info.limit=3"));
        assertThat(((IQuantity) s.value(PinningRule.LONGEST)).doubleValueIn(UnitLookup.MILLISECOND))
                .isEqualTo(2000);
        assertThat(s.set()).containsExactlyInAnyOrder("pinning.longest", "other.processes.info.limit");
        assertThat(((IQuantity) s.value(PinningRule.SHARE)).doubleValueIn(UnitLookup.PERCENT))
                .isEqualTo(1); // the default
    }

    @Test
    void badSettingsSayWhatIsWrong() {
        assertThatThrownBy(() -> RuleSettings.parse(List.of("nope=1")))
                .hasMessageStartingWith("--set nope=1: no rule has the setting nope")
                .hasMessageContaining("pinning.longest");
        assertThatThrownBy(() -> RuleSettings.parse(List.of("pinning.share=5")))
                .hasMessage("--set pinning.share=5: give the unit (e.g. pinning.share=1%)");
        assertThatThrownBy(() -> RuleSettings.parse(List.of("pinning.longest=-5ms")))
                .hasMessage("--set pinning.longest=-5ms: must not be negative");
        assertThatThrownBy(() -> RuleSettings.parse(List.of("pinning.longest=abc")))
                .hasMessageStartingWith("--set pinning.longest=abc: not a value of")
                .hasMessageEndingWith("its default is 20 ms)");
        assertThatThrownBy(() -> RuleSettings.parse(List.of("pinning.longest")))
                .hasMessageStartingWith("--set pinning.longest: expected NAME=VALUE");
    }

    @Test
    void aJmcRuleThatReturnsItsMessageKeyIsShownItsText() {
        // JMC 9.1's PID-1 rule returns the key PID1Rule_TEXT_OK where it means its text
        Assertions.assertThat(RulesRunner.translated("PID1Rule_TEXT_OK")).isEqualTo("No Process runs with PID 1.");
        Assertions.assertThat(RulesRunner.translated("No_SUCH_KEY")).isEqualTo("No_SUCH_KEY");
        Assertions.assertThat(RulesRunner.translated("A text, with words.")).isEqualTo("A text, with words.");
    }
}
