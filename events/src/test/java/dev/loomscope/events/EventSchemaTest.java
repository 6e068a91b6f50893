package dev.loomscope.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import jdk.jfr.Event;
import jdk.jfr.EventType;
import jdk.jfr.ValueDescriptor;
import org.junit.jupiter.api.Test;

class EventSchemaTest {
    /**
     * The fields JFR itself writes for the class (its own reading of the declaration), without the ones every event
     * has.
     */
    private static List<String> jfrFields(Class<? extends Event> event) {
        return EventType.getEventType(event).getFields().stream()
                .map(ValueDescriptor::getName)
                .filter(n -> !List.of("startTime", "duration", "eventThread", "stackTrace")
                        .contains(n))
                .toList();
    }

    @Test
    void theSchemaIsWhatJfrWritesForEveryEvent() throws ReflectiveOperationException {
        for (Class<? extends Event> event : EventSchema.EVENTS) {
            assertThat(EventSchema.name(event))
                    .startsWith("loomscope.")
                    .isEqualTo(EventType.getEventType(event).getName());
            // readers take the constant (no annotation read, the class not even loaded): it is what @Name says
            assertThat(event.getField("NAME").get(null))
                    .as(event.getName() + ".NAME")
                    .isEqualTo(EventSchema.name(event));
            assertThat(EventSchema.fields(event).stream()
                            .map(EventSchema.Field::name)
                            .toList())
                    .as(event.getName())
                    .containsExactlyInAnyOrderElementsOf(jfrFields(event));
        }
        EventSchema.Field allocated = EventSchema.field(ContextSwitchesEvent.class, "allocatedBytes");
        assertThat(allocated.unit()).isEqualTo("bytes");
        assertThat(allocated.type()).isEqualTo(long.class);
        assertThat(EventSchema.field(SchedulerStallEvent.class, "waited").unit())
                .isEqualTo("milliseconds");
        assertThatThrownBy(() -> EventSchema.field(WorkloadRunEvent.class, "nosuch"))
                .hasMessageContaining("loomscope.WorkloadRun declares no field nosuch");
        assertThat(EventSchema.fieldName(WorkloadRunEvent.class, "units")).isEqualTo("units");
        assertThatThrownBy(() -> EventSchema.fieldName(WorkloadRunEvent.class, "NAME"))
                .hasMessageContaining("loomscope.WorkloadRun declares no field NAME");
    }

    @Test
    void everyEventIsInLoomscopesCategoryWithoutAStackTraceAsJfrReadsItsClass() {
        for (Class<? extends Event> event : EventSchema.EVENTS) {
            EventType type = EventType.getEventType(event);
            assertThat(type.getCategoryNames()).as(type.getName()).containsExactly("loomscope");
            assertThat(type.getSettingDescriptors().stream()
                            .filter(s -> s.getName().equals("stackTrace"))
                            .map(s -> s.getDefaultValue()))
                    .as(type.getName())
                    .containsExactly("false");
        }
    }

    @Test
    void aWorkloadRunRequiresWhatEveryReaderNeedsAndTheRestIsOptional() {
        assertThat(EventSchema.required(WorkloadRunEvent.class))
                .containsExactly("workload", "threadKind", "runIndex", "warmup", "units");
        assertThat(EventSchema.field(WorkloadRunEvent.class, "allocatedBytes").optional())
                .isTrue();
    }

    @Test
    void aResultsRowHasTheEventsFieldsAndQuotesWhatNeedsIt() {
        WorkloadRunEvent e = new WorkloadRunEvent();
        e.workload = "echo";
        e.threadKind = "virtual";
        e.runIndex = 2;
        e.units = 1000;
        e.unit = "request";
        e.params = "requests=1000, note=\"a, b\"";
        List<String> columns = RunResults.columns();
        assertThat(columns.subList(0, 4)).containsExactly("startEpochNanos", "nanos", "workload", "threadKind");
        assertThat(columns).hasSize(EventSchema.fields(WorkloadRunEvent.class).size() + 2);
        List<String> row = RunResults.split(RunResults.row(e, 17, 42));
        assertThat(row).hasSameSizeAs(columns);
        assertThat(row.get(columns.indexOf("params"))).isEqualTo(e.params);
        assertThat(row.get(columns.indexOf("nanos"))).isEqualTo("42");
        assertThat(row.get(columns.indexOf("p50LatencyMs"))).isEqualTo("NaN");
        assertThat(row.get(columns.indexOf("voluntaryContextSwitches"))).isEqualTo("-1");
        assertThat(RunResults.split("a,\"b")).as("a quote left open").isNull();
    }
}
