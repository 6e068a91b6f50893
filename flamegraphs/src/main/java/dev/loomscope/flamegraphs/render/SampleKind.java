package dev.loomscope.flamegraphs.render;

import java.util.Locale;

/** Which samples a flame graph shows, and the agent option that records them. */
public enum SampleKind {
    CPU("profile=cpu (or JFR's jdk.ExecutionSample or jdk.CPUTimeSample)"),
    WALL("profile=wall"),
    ALLOC("profile=alloc"),
    LOCK("profile=lock");

    private final String agentOption;

    SampleKind(String agentOption) {
        this.agentOption = agentOption;
    }

    public String agentOption() {
        return agentOption;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
