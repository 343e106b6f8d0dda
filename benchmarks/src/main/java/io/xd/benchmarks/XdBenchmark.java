package io.xd.benchmarks;

import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The run settings XD's JMH benchmarks share, which JMH takes from a benchmark's superclass: one state per thread,
 * three one-second warm-up iterations and five measured ones, in one fork whose heap is fixed and touched at start-up
 * (as XD's servers run, see {@code bin/lib/common.sh}), so that a run does not measure the heap growing. A benchmark
 * extends this class and states its own mode and unit; the command line overrides any of these (CI's gate runs
 * shorter passes, see {@code .ci/run}).
 */
@State(Scope.Thread)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = { "-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch" })
public abstract class XdBenchmark {

}
