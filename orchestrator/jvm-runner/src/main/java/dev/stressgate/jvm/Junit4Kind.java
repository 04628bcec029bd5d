package dev.stressgate.jvm;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.runner.Description;
import org.junit.runner.Request;
import org.junit.runner.Runner;
import org.junit.runner.manipulation.Filter;
import org.junit.runner.notification.Failure;
import org.junit.runner.notification.RunListener;
import org.junit.runner.notification.RunNotifier;

/**
 * The JUnit 4 runner kind: each selected class through JUnit 4's Request API with a filter keeping
 * the selected methods (a Parameterized invocation is its method name with the index, {@code
 * adds[2]}, as in the JUnit XML), run with a notifier as Gradle's JUnit 4 executor and Surefire's
 * JUnit 4 provider run a class (no JUnitCore).
 */
final class Junit4Kind {
    private Junit4Kind() {}

    static Runnable prepare(dev.stressgate.jvm.Request request) throws Exception {
        Map<String, Set<String>> byClass = new LinkedHashMap<>();
        for (String[] t : request.tests) byClass.computeIfAbsent(t[0], k -> new HashSet<>()).add(t[1]);
        List<Runner> runners = new ArrayList<>();
        for (Map.Entry<String, Set<String>> e : byClass.entrySet()) {
            Class<?> testClass;
            try {
                testClass = Class.forName(e.getKey(), false, Junit4Kind.class.getClassLoader());
            } catch (ClassNotFoundException | LinkageError notFound) {
                // The gate's trouble (the XML classname is not a loadable class): no result line,
                // so the orchestrator sees the test did not run, never a pass.
                System.err.println("stress-gate runner: cannot load " + e.getKey() + ": " + notFound);
                continue;
            }
            runners.add(Request.aClass(testClass).filterWith(new Selected(e.getKey(), e.getValue())).getRunner());
        }
        Recorder recorder = new Recorder(request.out);
        return () -> {
            RunNotifier notifier = new RunNotifier();
            notifier.addListener(new Listener(recorder));
            for (Runner r : runners) r.run(notifier);
            recorder.close();
        };
    }

    /** Keeps the selected methods of one class (and the suites that contain them). */
    private static final class Selected extends Filter {
        private final String className;
        private final Set<String> names;

        Selected(String className, Set<String> names) {
            this.className = className;
            this.names = names;
        }

        @Override
        public boolean shouldRun(Description d) {
            if (d.isTest()) return className.equals(d.getClassName()) && names.contains(d.getMethodName());
            for (Description child : d.getChildren()) if (shouldRun(child)) return true;
            return false;
        }

        @Override
        public String describe() {
            return "stress gate selection of " + className;
        }
    }

    private static final class Listener extends RunListener {
        private final Recorder recorder;
        private final Map<Description, Throwable> failed = new LinkedHashMap<>();
        private final Set<Description> assumed = new HashSet<>();
        private long startedAt;

        Listener(Recorder recorder) {
            this.recorder = recorder;
        }

        @Override
        public void testStarted(Description d) {
            startedAt = System.nanoTime();
            recorder.started(d.getClassName(), d.getMethodName(), null);
        }

        @Override
        public void testFailure(Failure f) {
            failed.put(f.getDescription(), f.getException());
        }

        @Override
        public void testAssumptionFailure(Failure f) {
            assumed.add(f.getDescription());
        }

        @Override
        public void testFinished(Description d) {
            Throwable failure = failed.get(d);
            String result = failed.containsKey(d) ? "FAILURE" : assumed.contains(d) ? "SKIPPED" : "SUCCESS";
            recorder.finished(d.getClassName(), d.getMethodName(), null, result, (System.nanoTime() - startedAt) / 1_000_000L, failure);
        }

        @Override
        public void testIgnored(Description d) {
            recorder.finished(d.getClassName(), d.getMethodName(), null, "SKIPPED", 0L, null);
        }
    }
}
