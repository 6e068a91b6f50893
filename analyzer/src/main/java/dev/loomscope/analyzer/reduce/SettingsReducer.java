package dev.loomscope.analyzer.reduce;

import dev.loomscope.recording.JfrEvent;
import java.util.Set;
import java.util.TreeSet;

/**
 * The event types the recording's settings enabled (jdk.ActiveSetting, "enabled" = "true"): a type
 * enabled without events means none happened, not that none were recorded.
 */
public final class SettingsReducer implements Reducer {
    private final Set<String> enabled = new TreeSet<>();

    @Override
    public Set<String> eventTypes() {
        return Set.of("jdk.ActiveSetting");
    }

    @Override
    public void add(JfrEvent e) {
        if ("enabled".equals(e.string("name")) && "true".equals(e.string("value"))) {
            String type = e.eventTypeName("id");
            if (type != null) {
                enabled.add(type);
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

    /** Whether a setting of the recording enabled {@code type}. */
    public boolean enabled(String type) {
        return enabled.contains(type);
    }
}
