package dev.loomscope.analyzer.rules;

import dev.loomscope.recording.JdkEvents;
import java.util.function.ToLongFunction;
import org.openjdk.jmc.common.item.Aggregators;
import org.openjdk.jmc.common.item.Attribute;
import org.openjdk.jmc.common.item.IAccessorKey;
import org.openjdk.jmc.common.item.IAttribute;
import org.openjdk.jmc.common.item.IItem;
import org.openjdk.jmc.common.item.IItemCollection;
import org.openjdk.jmc.common.item.IItemIterable;
import org.openjdk.jmc.common.item.IMemberAccessor;
import org.openjdk.jmc.common.item.ItemFilters;
import org.openjdk.jmc.common.unit.IQuantity;
import org.openjdk.jmc.common.unit.UnitLookup;
import org.openjdk.jmc.common.util.LabeledIdentifier;
import org.openjdk.jmc.flightrecorder.JfrAttributes;
import org.openjdk.jmc.flightrecorder.jdk.JdkAttributes;

/** Small helpers over JMC's item API for loomscope's rules. */
final class RuleSupport {
    private RuleSupport() {}

    /** From the first event's start to the last event's end, in ms (0 when empty). */
    static double spanMs(IItemCollection items) {
        IQuantity first = items.getAggregate(Aggregators.min(JfrAttributes.START_TIME));
        IQuantity last = items.getAggregate(Aggregators.max(JfrAttributes.END_TIME));
        return first == null || last == null ? 0 : last.subtract(first).doubleValueIn(UnitLookup.MILLISECOND);
    }

    /**
     * A reader of a numeric field of the events in {@code it}, or null when they have none. JMC reads a field with a
     * unit, or an int, as a quantity, and a long without a unit as a raw number: both are read here.
     */
    static ToLongFunction<IItem> number(IItemIterable it, String field) {
        for (IAccessorKey<?> key : it.getType().getAccessorKeys().keySet()) {
            if (key.getIdentifier().equals(field)) {
                IMemberAccessor<?, IItem> accessor = it.getType().getAccessor(key);
                return item -> {
                    Object v = accessor.getMember(item);
                    return v instanceof IQuantity q ? q.longValue() : v instanceof Number n ? n.longValue() : 0;
                };
            }
        }
        return null;
    }

    /** An accessor for a text field of the events in {@code it}, or null when they have none. */
    static IMemberAccessor<String, IItem> text(IItemIterable it, String field) {
        IAttribute<String> attr = Attribute.attr(field, field, UnitLookup.PLAIN_TEXT);
        return attr.getAccessor(it.getType());
    }

    /**
     * Whether the recording has events of {@code type}, or says (in its jdk.ActiveSetting events) that the type was
     * enabled: then no events means none happened, not that none were recorded.
     */
    static boolean recorded(IItemCollection items, String type) {
        if (items.apply(ItemFilters.type(type)).hasItems()) {
            return true;
        }
        for (IItemIterable it : items.apply(ItemFilters.type(JdkEvents.ACTIVE_SETTING))) {
            IMemberAccessor<LabeledIdentifier, IItem> settingFor =
                    JdkAttributes.REC_SETTING_FOR.getAccessor(it.getType());
            IMemberAccessor<String, IItem> name = JdkAttributes.REC_SETTING_NAME.getAccessor(it.getType());
            IMemberAccessor<String, IItem> value = JdkAttributes.REC_SETTING_VALUE.getAccessor(it.getType());
            if (settingFor == null || name == null || value == null) {
                continue;
            }
            for (IItem item : it) {
                LabeledIdentifier id = settingFor.getMember(item);
                if (id != null
                        && type.equals(id.getInterfaceId())
                        && "enabled".equals(name.getMember(item))
                        && "true".equals(value.getMember(item))) {
                    return true;
                }
            }
        }
        return false;
    }
}
