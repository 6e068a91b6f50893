package dev.loomscope.probes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class MachineCpuTest {
    @Test
    void aChildThatEndedAndWasWaitedForCountsAsAHelperNotAsOtherWork() throws Exception {
        MachineCpu.Ticks before = MachineCpu.read();
        Assumptions.assumeTrue(before != null, "Linux's /proc is needed");
        // a child burning about half a second of CPU, as ab does for an echo run, then reaped
        Process child = new ProcessBuilder("sh", "-c", "i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done").start();
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        MachineCpu.Ticks after = MachineCpu.read();
        // its CPU is counted among the helpers' (cutime, cstime of this process), so "others" does not hold it
        assertThat(after.helpers() - before.helpers()).isGreaterThanOrEqualTo(10);
    }
}
