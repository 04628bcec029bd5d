package dev.stressgate.jvm;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The JUnit Platform runner kind: exactly the tests whose unique IDs the request selects (so a new
 * invocation {@code [3]} does not rerun {@code [1]} and {@code [2]}; Jupiter, vintage, parameterized,
 * dynamic and nested tests alike), with the fork's configuration parameters. The selections (one
 * test, or the new invocations of one method) are discovered together and run in one execution,
 * in the engine's order, as the build ran them: a class's {@code @BeforeAll} runs once for all.
 */
final class PlatformKind {
    private PlatformKind() {}

    /** Discovers and checks every selection now (an unrunnable one is recorded at once); the Runnable runs the others. */
    static Runnable prepare(Request request, Recorder recorder) {
        Launcher launcher = LauncherFactory.create();
        PlatformEngines engines = new PlatformEngines();
        List<PlatformSelection> selections = new ArrayList<>();
        for (String uniqueId : request.uniqueIds) selections.add(new PlatformSelection(uniqueId));
        Discovered all = discover(launcher, request, selections);
        if (all.failure != null) {
            // One selection the engines cannot resolve fails the whole discovery: find it, then discover the others together.
            List<PlatformSelection> resolvable = new ArrayList<>();
            for (PlatformSelection s : selections) {
                Discovered alone = discover(launcher, request, Collections.singletonList(s));
                if (alone.failure != null) recorder.unrunnable(s.uniqueId(), discoveryFailed(alone.failure, s.uniqueId(), engines));
                else resolvable.add(s);
            }
            selections = resolvable;
            all = selections.isEmpty() ? null : discover(launcher, request, selections);
            if (all != null && all.failure != null) {
                for (PlatformSelection s : selections) recorder.unrunnable(s.uniqueId(), discoveryFailed(all.failure, s.uniqueId(), engines));
                all = null;
            }
        }
        List<PlatformSelection> inPlan = new ArrayList<>();
        for (PlatformSelection s : selections) {
            if (all != null && s.inPlan(all.plan)) inPlan.add(s);
            else if (all != null) recorder.unrunnable(s.uniqueId(), engines.noSuchTest(s.uniqueId()));
        }
        if (inPlan.isEmpty()) return () -> { };
        Discovered run = all;
        return () -> {
            List<TestExecutionListener> listeners = new ArrayList<>();
            listeners.add(new RecordingListener(recorder));
            List<PlatformSelection.Seen> seen = new ArrayList<>();
            for (PlatformSelection s : inPlan) {
                PlatformSelection.Seen watch = s.new Seen();
                seen.add(watch);
                listeners.add(watch);
            }
            TestExecutionListener[] array = listeners.toArray(new TestExecutionListener[0]);
            try {
                launcher.execute(run.plan, array);
            } catch (NoSuchMethodError | UnsupportedOperationException e) {
                // A platform before 1.4 cannot execute a discovered plan: discover again as it runs.
                launcher.execute(run.discovery, array);
            }
            for (int i = 0; i < inPlan.size(); i++) {
                if (!seen.get(i).ran()) recorder.unrunnable(inPlan.get(i).uniqueId(), engines.noSuchTest(inPlan.get(i).uniqueId()));
            }
        };
    }

    /** A discovery of some selections: its plan, or what it threw. */
    private static final class Discovered {
        LauncherDiscoveryRequest discovery;
        TestPlan plan;
        RuntimeException failure;
    }

    private static Discovered discover(Launcher launcher, Request request, List<PlatformSelection> selections) {
        Discovered d = new Discovered();
        List<DiscoverySelector> selectors = new ArrayList<>();
        for (PlatformSelection s : selections) selectors.add(DiscoverySelectors.selectUniqueId(s.uniqueId()));
        try {
            d.discovery = LauncherDiscoveryRequestBuilder.request().selectors(selectors).configurationParameters(request.config).build();
            d.plan = launcher.discover(d.discovery);
        } catch (RuntimeException e) {
            d.failure = e;
        }
        return d;
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
