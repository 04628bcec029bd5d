package dev.stressgate.jvm;

import java.util.ArrayList;
import java.util.List;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The JUnit Platform runner kind: exactly the tests whose unique IDs the request selects (so a new
 * invocation {@code [3]} does not rerun {@code [1]} and {@code [2]}; Jupiter, vintage, parameterized,
 * dynamic and nested tests alike), with the fork's configuration parameters. Each unique ID is
 * discovered before any test runs, then run as a plan of its own, in the request's order.
 */
final class PlatformKind {
    private PlatformKind() {}

    /** Loads and checks every selection now (an unrunnable one is recorded at once); the Runnable runs the others in order. */
    static Runnable prepare(Request request, Recorder recorder) {
        Launcher launcher = LauncherFactory.create();
        PlatformEngines engines = new PlatformEngines();
        List<Runnable> runs = new ArrayList<>();
        for (String uniqueId : request.uniqueIds) {
            PlatformSelection selection = new PlatformSelection(uniqueId);
            LauncherDiscoveryRequest discovery;
            TestPlan plan;
            try {
                discovery = LauncherDiscoveryRequestBuilder.request()
                    .selectors(DiscoverySelectors.selectUniqueId(uniqueId))
                    .configurationParameters(request.config)
                    .build();
                plan = launcher.discover(discovery);
            } catch (RuntimeException e) {
                recorder.unrunnable(uniqueId, discoveryFailed(e, uniqueId, engines));
                continue;
            }
            if (!selection.inPlan(plan)) {
                recorder.unrunnable(uniqueId, engines.noSuchTest(uniqueId));
                continue;
            }
            runs.add(() -> {
                RecordingListener listener = new RecordingListener(recorder);
                PlatformSelection.Seen seen = selection.new Seen();
                try {
                    launcher.execute(plan, listener, seen);
                } catch (NoSuchMethodError | UnsupportedOperationException e) {
                    // A platform before 1.4 cannot execute a discovered plan: discover again as it runs.
                    launcher.execute(discovery, listener, seen);
                }
                if (!seen.ran()) recorder.unrunnable(uniqueId, engines.noSuchTest(uniqueId));
            });
        }
        return () -> {
            for (Runnable run : runs) run.run();
        };
    }

    /**
     * Why discovery threw. Since platform 1.13 an engine that cannot resolve a selected unique ID
     * reports a critical discovery issue, which {@code discover} throws: that is "no such test".
     * Anything else (a malformed unique ID, an engine failing) is said as it is, without the ID.
     */
    private static String discoveryFailed(RuntimeException e, String uniqueId, PlatformEngines engines) {
        String message = String.valueOf(e.getMessage());
        if (e.getClass().getName().endsWith(".DiscoveryIssueException") && message.contains("could not be resolved")) return engines.noSuchTest(uniqueId);
        e.printStackTrace();
        return "the JUnit Platform could not discover it: " + String.valueOf(e).replace(uniqueId, "the unique ID");
    }
}
