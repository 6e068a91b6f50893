package dev.loomscope.analyzer.rules;

import dev.loomscope.analyzer.reduce.RecordingFacts;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RunnableFuture;
import org.openjdk.jmc.common.item.IItemCollection;
import org.openjdk.jmc.common.unit.IQuantity;
import org.openjdk.jmc.common.unit.IUnit;
import org.openjdk.jmc.common.unit.LinearKindOfQuantity;
import org.openjdk.jmc.common.util.IPreferenceValueProvider;
import org.openjdk.jmc.common.util.TypedPreference;
import org.openjdk.jmc.flightrecorder.rules.IResult;
import org.openjdk.jmc.flightrecorder.rules.IResultValueProvider;
import org.openjdk.jmc.flightrecorder.rules.IRule;
import org.openjdk.jmc.flightrecorder.rules.ResultBuilder;
import org.openjdk.jmc.flightrecorder.rules.Severity;
import org.openjdk.jmc.flightrecorder.rules.TypedResult;
import org.openjdk.jmc.flightrecorder.rules.util.RulesToolkit;
import org.openjdk.jmc.flightrecorder.rules.util.RulesToolkit.EventAvailability;

/**
 * loomscope's own automated-analysis rules, written against JMC's rule API ({@link IRule}) and registered with its
 * service loader, so they load in JDK Mission Control itself when loomscope.jar is on its class path. {@code loomscope
 * rules} judges with the same rules on its own reader's pass ({@link #judge(RecordingFacts)}), which needs no more
 * memory for a large recording; both ways gather the same figures and hand them to one judgement. A rule whose event
 * type is absent from the recording answers "not applicable" with the reason.
 */
public abstract class LoomscopeRule implements IRule {
    static final String TOPIC = "virtual_threads";

    private final String id;
    private final String name;
    private final String eventType;
    private final String notApplicable;
    private final List<TypedPreference<IQuantity>> thresholds;

    /** A rule's judgement: severity and texts (explanation and solution null where there is nothing to do). */
    public record Verdict(Severity severity, String summary, String explanation, String solution) {
        static Verdict ok(String summary) {
            return new Verdict(Severity.OK, summary, null, null);
        }

        IResult result(ResultBuilder result) {
            result.setSeverity(severity).setSummary(summary);
            if (explanation != null) {
                result.setExplanation(explanation);
            }
            if (solution != null) {
                result.setSolution(solution);
            }
            return result.build();
        }
    }

    /**
     * @param notApplicable why the rule cannot judge a recording that lacks {@code eventType}
     * @param thresholds its thresholds, as JMC's rules declare theirs: JMC's UI and {@code rules --set NAME=VALUE}
     *     change them
     */
    LoomscopeRule(
            String id,
            String name,
            String eventType,
            String notApplicable,
            List<TypedPreference<IQuantity>> thresholds) {
        this.id = id;
        this.name = name;
        this.eventType = eventType;
        this.notApplicable = notApplicable;
        this.thresholds = thresholds;
    }

    @Override
    public String getId() {
        return id;
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public String getTopic() {
        return TOPIC;
    }

    /**
     * None that JMC should check for us: a type enabled but without events is a finding ("none happened"), which we
     * judge.
     */
    @Override
    public Map<String, EventAvailability> getRequiredEvents() {
        return Map.of();
    }

    List<TypedPreference<IQuantity>> thresholds() {
        return thresholds;
    }

    /** Why a rule cannot judge a recording without {@code type}, one of the JDK's events since 21. */
    static String notRecorded(String type) {
        return type
                + " was not recorded (a JDK before 21, or the event disabled in the recording settings): record with"
                + " the loomscope agent";
    }

    /** A threshold: its identifier (what {@code --set} names), name, description and default (its unit is its kind). */
    static TypedPreference<IQuantity> threshold(String id, String name, String description, IQuantity defaultValue) {
        return new TypedPreference<>(
                id,
                name,
                description,
                (LinearKindOfQuantity) defaultValue.getUnit().getContentType(),
                defaultValue);
    }

    /** A threshold's value in {@code unit}. */
    static double value(IPreferenceValueProvider settings, TypedPreference<IQuantity> threshold, IUnit unit) {
        return settings.getPreferenceValue(threshold).doubleValueIn(unit);
    }

    @Override
    public Collection<TypedPreference<?>> getConfigurationAttributes() {
        return List.copyOf(thresholds());
    }

    @Override
    public Collection<TypedResult<?>> getResults() {
        return List.of();
    }

    @Override
    public RunnableFuture<IResult> createEvaluation(
            IItemCollection items, IPreferenceValueProvider preferences, IResultValueProvider dependencies) {
        return new FutureTask<>(() -> {
            if (!RuleSupport.recorded(items, eventType)) {
                return RulesToolkit.getNotApplicableResult(this, preferences, notApplicable);
            }
            return judgeRecorded(items, preferences).result(ResultBuilder.createFor(this, preferences));
        });
    }

    /**
     * The verdict on a recording read by loomscope's reader, with {@code settings}' thresholds: not applicable (with
     * the reason) when its event type was not recorded.
     */
    public Verdict judge(RecordingFacts facts, IPreferenceValueProvider settings) {
        return facts.recorded(eventType)
                ? judgeRecorded(facts, settings)
                : new Verdict(Severity.NA, notApplicable, null, null);
    }

    /** {@link #judge(RecordingFacts, IPreferenceValueProvider)} with the default thresholds. */
    public Verdict judge(RecordingFacts facts) {
        return judge(facts, IPreferenceValueProvider.DEFAULT_VALUES);
    }

    /** Judges, from JMC's items, a recording that has the rule's event type enabled. */
    abstract Verdict judgeRecorded(IItemCollection items, IPreferenceValueProvider settings);

    /** Judges, from loomscope's reductions, a recording that has the rule's event type enabled. */
    abstract Verdict judgeRecorded(RecordingFacts facts, IPreferenceValueProvider settings);

    /**
     * loomscope's rules, registered with the service loader as JMC finds them; only these are made (JMC's own are not
     * loaded to list loomscope's: {@code rules --help} needs the thresholds).
     */
    public static List<LoomscopeRule> all() {
        return ServiceLoader.load(IRule.class, LoomscopeRule.class.getClassLoader()).stream()
                .filter(p -> LoomscopeRule.class.isAssignableFrom(p.type()))
                .map(p -> (LoomscopeRule) p.get())
                .toList();
    }
}
