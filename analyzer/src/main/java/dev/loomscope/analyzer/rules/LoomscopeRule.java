package dev.loomscope.analyzer.rules;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RunnableFuture;
import org.openjdk.jmc.common.item.IItemCollection;
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
 * loomscope's own automated-analysis rules, written against JMC's rule API ({@link IRule}) and
 * registered with its service loader: {@code loomscope rules} runs them beside JMC's, and they
 * load in JDK Mission Control itself when loomscope.jar is on its class path. A rule whose event
 * type is absent from the recording answers "not applicable" with the reason.
 */
abstract class LoomscopeRule implements IRule {
    static final String TOPIC = "virtual_threads";

    private final String id;
    private final String name;
    private final String eventType;

    LoomscopeRule(String id, String name, String eventType) {
        this.id = id;
        this.name = name;
        this.eventType = eventType;
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

    /** None that JMC should check for us: a type enabled but without events is a finding ("none happened"), which we judge. */
    @Override
    public Map<String, EventAvailability> getRequiredEvents() {
        return Map.of();
    }

    @Override
    public Collection<TypedPreference<?>> getConfigurationAttributes() {
        return List.of();
    }

    @Override
    public Collection<TypedResult<?>> getResults() {
        return List.of();
    }

    @Override
    public RunnableFuture<IResult> createEvaluation(IItemCollection items, IPreferenceValueProvider preferences, IResultValueProvider dependencies) {
        return new FutureTask<>(() -> {
            if (!RuleSupport.recorded(items, eventType)) {
                return RulesToolkit.getNotApplicableResult(this, preferences, notApplicable());
            }
            return evaluate(items, ResultBuilder.createFor(this, preferences));
        });
    }

    /** Why the rule cannot judge this recording (its event type was not recorded). */
    abstract String notApplicable();

    /** Judges a recording that has the rule's event type enabled. */
    abstract IResult evaluate(IItemCollection items, ResultBuilder result);

    static IResult ok(ResultBuilder result, String summary) {
        return result.setSeverity(Severity.OK).setSummary(summary).build();
    }
}
