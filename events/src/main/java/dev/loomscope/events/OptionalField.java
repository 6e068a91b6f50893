package dev.loomscope.events;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A field readers must not require: recordings and results files of an earlier loomscope, or of a platform that does
 * not measure it, lack it or carry its "unknown" value. The reducers, the results file's reader and the Parquet export
 * read its absence as unknown.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
public @interface OptionalField {
    /**
     * What a reader takes the field's absence for. (An element named value also spares the host JVM an exception: JFR
     * asks every annotation of an event's fields for one as it registers the event, and a JVM recording exceptions
     * would record that one in the user's recording.)
     */
    String value() default "unknown";
}
