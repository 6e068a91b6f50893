import dev.loomscope.workloads.jmh.ContextSwitchProfiler;
import org.openjdk.jmh.profile.ProfilerException;

/**
 * The name {@code -prof ctxsw} resolves to: JMH looks a profiler up by its built-in short names, then the canonical
 * names of the service-loaded ones, then as a class name. This class is the {@link ContextSwitchProfiler} under the
 * short name.
 */
public class ctxsw extends ContextSwitchProfiler {
    public ctxsw() throws ProfilerException {
        super();
    }

    public ctxsw(String options) throws ProfilerException {
        super(options);
    }
}
