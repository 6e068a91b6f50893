package dev.loomscope.agent.options;

import java.util.function.Predicate;

/**
 * One agent option: its name, what it means, its unit, its default and what values it takes.
 *
 * @param list       the value is a list ({@code profile=cpu+wall}, or {@code profile=cpu,wall})
 * @param valid      accepts a well-formed value
 * @param expected   what a valid value looks like, for the warning
 */
public record OptionSpec(String name, String meaning, String unit, String defaultValue, boolean list,
        Predicate<String> valid, String expected) {}
