package dev.stressgate.jvm;

import java.util.ArrayList;
import java.util.List;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The JUnit Platform runner kind: exactly the tests whose unique IDs the request selects (so a new
 * invocation {@code [3]} does not rerun {@code [1]} and {@code [2]}; Jupiter, vintage, parameterized,
 * dynamic and nested tests alike), with the fork's configuration parameters.
 */
final class PlatformKind {
    private PlatformKind() {}

    static Runnable prepare(Request request) throws Exception {
        List<DiscoverySelector> selectors = new ArrayList<>();
        for (String id : request.uniqueIds) selectors.add(DiscoverySelectors.selectUniqueId(id));
        LauncherDiscoveryRequest discovery = LauncherDiscoveryRequestBuilder.request()
            .selectors(selectors)
            .configurationParameters(request.config)
            .build();
        Launcher launcher = LauncherFactory.create();
        TestPlan plan = launcher.discover(discovery);
        Recorder recorder = new Recorder(request.out);
        return () -> {
            RecordingListener listener = new RecordingListener(recorder);
            try {
                launcher.execute(plan, listener);
            } catch (NoSuchMethodError | UnsupportedOperationException e) {
                // A platform before 1.4 cannot execute a discovered plan: discover again as it runs.
                launcher.execute(discovery, listener);
            }
            recorder.close();
        };
    }
}
