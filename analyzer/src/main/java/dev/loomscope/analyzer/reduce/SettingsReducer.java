package dev.loomscope.analyzer.reduce;

import dev.loomscope.options.Durations;
import dev.loomscope.recording.JdkEvents;
import dev.loomscope.recording.JdkFields;
import dev.loomscope.recording.JfrEvent;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The event types the recording's settings enabled (jdk.ActiveSetting, "enabled" = "true"): a type enabled without
 * events means none happened, not that none were recorded.
 */
public final class SettingsReducer implements Reducer {
    private final Set<String> enabled = new TreeSet<>();
    private final Map<String, String> thresholds = new HashMap<>();

    @Override
    public Set<String> eventTypes() {
        return Set.of(JdkEvents.ACTIVE_SETTING);
    }

    @Override
    public void add(JfrEvent e) {
        if ("enabled".equals(e.string(JdkFields.NAME)) && "true".equals(e.string(JdkFields.VALUE))) {
            String type = e.eventTypeName("id");
            if (type != null) {
                enabled.add(type);
            }
        } else if ("threshold".equals(e.string(JdkFields.NAME))) {
            String type = e.eventTypeName("id");
            if (type != null && e.string(JdkFields.VALUE) != null) {
                thresholds.put(type, e.string(JdkFields.VALUE)); // the last setting given wins, as in JFR
            }
        }
    }

    /** Marks {@code type} enabled (facts made from an export, which lists them). */
    public void enable(String type) {
        enabled.add(type);
    }

    /** The types the recording's settings enabled. */
    public Set<String> enabledTypes() {
        return enabled;
    }

    /**
     * The threshold the recording's settings gave {@code type} ("20 ms", "0 ns"): events shorter were not recorded;
     * null when the recording does not say.
     */
    public Duration threshold(String type) {
        String v = thresholds.get(type);
        if (v == null) {
            return null;
        }
        return Durations.valid(v.strip()) ? Durations.parse(v.strip()) : null;
    }

    /** Whether a setting of the recording enabled {@code type}. */
    public boolean enabled(String type) {
        return enabled.contains(type);
    }
}
