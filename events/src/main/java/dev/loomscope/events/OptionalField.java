package dev.loomscope.events;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A field readers must not require: recordings and results files of an earlier loomscope, or of a
 * platform that does not measure it, lack it or carry its "unknown" value. The reducers, the
 * results file's reader and the Parquet export read its absence as unknown.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
public @interface OptionalField {}
