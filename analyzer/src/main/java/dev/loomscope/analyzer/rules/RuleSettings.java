package dev.loomscope.analyzer.rules;

import dev.loomscope.options.Nearest;
import dev.loomscope.options.UsageException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.openjdk.jmc.common.unit.IPersister;
import org.openjdk.jmc.common.unit.IQuantity;
import org.openjdk.jmc.common.unit.QuantityConversionException;
import org.openjdk.jmc.common.unit.UnitLookup;
import org.openjdk.jmc.common.util.IPreferenceValueProvider;
import org.openjdk.jmc.common.util.TypedPreference;
import org.openjdk.jmc.flightrecorder.rules.IRule;
import org.openjdk.jmc.flightrecorder.rules.RuleRegistry;

/**
 * The rules' settings as {@code rules --set NAME=VALUE} gives them: every rule's configuration attributes (loomscope's
 * thresholds and JMC's rules' preferences), by identifier, with the values set and the defaults for the rest. The same
 * provider serves loomscope's rules and JMC's.
 */
public final class RuleSettings implements IPreferenceValueProvider {
    private final Map<String, Object> values;

    private RuleSettings(Map<String, Object> values) {
        this.values = values;
    }

    /** A setting and the rule that declares it (the first, where several share one). */
    public record Setting(TypedPreference<?> preference, String rule) {}

    /** Every rule's settings by identifier (loomscope's first), each once. */
    public static Map<String, Setting> all() {
        Map<String, Setting> out = new LinkedHashMap<>();
        List<IRule> rules = new ArrayList<>(LoomscopeRule.all());
        RuleRegistry.getRules().stream()
                .filter(r -> !(r instanceof LoomscopeRule))
                .forEach(rules::add);
        for (IRule rule : rules) {
            for (TypedPreference<?> p : rule.getConfigurationAttributes()) {
                out.putIfAbsent(p.getIdentifier(), new Setting(p, rule.getName()));
            }
        }
        return out;
    }

    /** loomscope's own thresholds, in rule order. */
    public static List<TypedPreference<IQuantity>> thresholds() {
        return LoomscopeRule.all().stream()
                .flatMap(r -> r.thresholds().stream())
                .toList();
    }

    /**
     * The settings {@code assignments} ({@code NAME=VALUE}) give; an unknown name or a value that does not parse is a
     * {@link UsageException} saying which.
     */
    public static RuleSettings parse(List<String> assignments) {
        if (assignments.isEmpty()) {
            return new RuleSettings(Map.of());
        }
        Map<String, Setting> known = all();
        Map<String, Object> values = new HashMap<>();
        for (String a : assignments) {
            int eq = a.indexOf('=');
            if (eq <= 0) {
                throw new UsageException("--set " + a + ": expected NAME=VALUE (e.g. pinning.longest=50ms)");
            }
            String name = a.substring(0, eq).trim();
            TypedPreference<?> p = known.containsKey(name) ? known.get(name).preference() : null;
            if (p == null) {
                throw new UsageException("--set " + a + ": no rule has the setting " + name
                        + Nearest.didYouMean(name, known.keySet()) + " (loomscope's: "
                        + String.join(
                                ", ",
                                thresholds().stream()
                                        .map(TypedPreference::getIdentifier)
                                        .toList()) + "; JMC's: rules --list-settings)");
            }
            values.put(name, value(p, a.substring(eq + 1).trim(), a));
        }
        return new RuleSettings(values);
    }

    private static final Pattern NUMBER_AND_UNIT =
            Pattern.compile("([-+]?[0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\\s*(\\S.*)?");

    private static Object value(TypedPreference<?> p, String text, String assignment) {
        IPersister<?> persister = p.getPersister();
        Matcher m = NUMBER_AND_UNIT.matcher(text);
        // "50ms" as "50 ms", the form JMC's parser reads
        String interactive = m.matches() && m.group(2) != null ? m.group(1) + " " + m.group(2) : text;
        if (m.matches()
                && m.group(2) == null
                && p.getDefaultValue() instanceof IQuantity q
                && q.getUnit().getContentType() != UnitLookup.NUMBER) {
            // JMC reads a bare number as a fraction of the unity (0.5 as 50 %): a threshold's unit is asked for instead
            throw new UsageException("--set " + assignment + ": give the unit (e.g. " + p.getIdentifier() + "="
                    + format(p, p.getDefaultValue()).replace(" ", "") + ")");
        }
        try {
            Object v = persister.parseInteractive(interactive);
            if (v instanceof IQuantity q && q.doubleValue() < 0) {
                throw new UsageException("--set " + assignment + ": must not be negative");
            }
            return v;
        } catch (UsageException e) {
            throw e;
        } catch (QuantityConversionException | RuntimeException e) {
            throw new UsageException("--set " + assignment + ": not a value of " + p.getIdentifier() + " ("
                    + e.getLocalizedMessage() + "; its default is " + format(p, p.getDefaultValue()) + ")");
        }
    }

    /** A setting's value as {@code --set} takes it. */
    @SuppressWarnings("unchecked")
    public static <T> String format(TypedPreference<T> p, Object value) {
        return p.getPersister().interactiveFormat((T) value);
    }

    /** The value {@code p} has: the one set, else its default. */
    public Object value(TypedPreference<?> p) {
        return values.containsKey(p.getIdentifier()) ? values.get(p.getIdentifier()) : p.getDefaultValue();
    }

    /** The identifiers set. */
    public Set<String> set() {
        return Collections.unmodifiableSet(values.keySet());
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T getPreferenceValue(TypedPreference<T> p) {
        return (T) value(p);
    }
}
