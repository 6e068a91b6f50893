package dev.loomscope.workloads.jmh;

import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The plan the seed experiments' benchmarks (echo, Game of Life, rendezvous) run by: 3 forks, the fewest from which
 * {@code loomscope jmh} judges a difference, each 3 warm-up and 5 measured iterations of 2 s, on one state the
 * benchmark's threads share. A benchmark extends it and says its mode and unit; JMH reads the plan from here.
 */
@State(Scope.Benchmark)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(3)
public abstract class SeedBenchmark {}
