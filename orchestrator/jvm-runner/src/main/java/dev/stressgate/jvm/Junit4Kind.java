package dev.stressgate.jvm;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.internal.runners.ErrorReportingRunner;
import org.junit.runner.Description;
import org.junit.runner.Request;
import org.junit.runner.Runner;
import org.junit.runner.manipulation.Filter;
import org.junit.runner.manipulation.NoTestsRemainException;
import org.junit.runner.notification.Failure;
import org.junit.runner.notification.RunListener;
import org.junit.runner.notification.RunNotifier;

/**
 * The JUnit 4 runner kind: the selected tests of each class through JUnit 4's Request API with a
 * filter keeping those methods (a Parameterized invocation is its method name with the index,
 * {@code adds[2]}, as in the JUnit XML), run with a notifier as Gradle's JUnit 4 executor and
 * Surefire's JUnit 4 provider run a class (no JUnitCore). The selections of one class (one test,
 * or the new invocations of one method) run in one run of its runner, as the build ran them: its
 * {@code @BeforeClass} runs once for all.
 */
final class Junit4Kind {
    private Junit4Kind() {}

    /** Loads and checks every selection now (an unrunnable one is recorded at once); the Runnable runs the others. */
    static Runnable prepare(dev.stressgate.jvm.Request request, Recorder recorder) {
        Map<String, Object> classes = new HashMap<>();
        Map<String, Set<String>> names = new LinkedHashMap<>();
        Map<String, Runner> runners = new HashMap<>();
        List<Consumer<RunNotifier>> runs = new ArrayList<>();
        for (String[] t : request.tests) {
            String selector = dev.stressgate.jvm.Request.selector(t);
            Object loaded = classes.computeIfAbsent(t[0], Junit4Kind::load);
            if (loaded instanceof Throwable) {
                recorder.unrunnable(selector, "class cannot be loaded: " + loaded);
                continue;
            }
            Runner runner = runners.computeIfAbsent(t[0], k -> Request.aClass((Class<?>) loaded).getRunner());
            if (runner instanceof ErrorReportingRunner) {
                // The class's runner could not be built (a @Parameters method threw, no runnable
                // method): in CI its tests fail as initializationError, so the selection fails here.
                runs.add(notifier -> initializationFailed(runner, t[0], t[1], recorder));
                continue;
            }
            if (!hasTest(runner.getDescription(), t[0], t[1])) {
                // Checked before running: a filter that keeps nothing makes JUnit report an error of its own instead.
                recorder.unrunnable(selector, "JUnit 4 found no such test in its class (runner " + runner.getClass().getName() + ")");
                continue;
            }
            Set<String> kept = names.get(t[0]);
            if (kept == null) {
                kept = new HashSet<>();
                names.put(t[0], kept);
                String className = t[0];
                Set<String> all = kept;
                runs.add(notifier -> {
                    try {
                        new Selected(className, all).apply(runner);
                    } catch (NoTestsRemainException cannot) {
                        throw new IllegalStateException("the filter kept nothing of tests its description has", cannot);
                    }
                    runner.run(notifier);
                });
            }
            kept.add(t[1]);
        }
        return () -> {
            RunNotifier notifier = new RunNotifier();
            notifier.addListener(new Listener(recorder));
            for (Consumer<RunNotifier> run : runs) run.accept(notifier);
        };
    }

    /** The class, loaded without initialising it, or why it cannot be. */
    private static Object load(String className) {
        try {
            return Class.forName(className, false, Junit4Kind.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return e;
        }
    }

    private static boolean hasTest(Description d, String className, String name) {
        if (d.isTest()) return className.equals(d.getClassName()) && name.equals(d.getMethodName());
        for (Description child : d.getChildren()) if (hasTest(child, className, name)) return true;
        return false;
    }

    /** Runs a runner that only reports its class's initialisation error, recorded as the selection's failure. */
    private static void initializationFailed(Runner runner, String className, String name, Recorder recorder) {
        Throwable[] error = {null};
        RunNotifier notifier = new RunNotifier();
        notifier.addListener(new RunListener() {
            @Override
            public void testFailure(Failure f) {
                if (error[0] == null) error[0] = f.getException();
            }
        });
        long start = System.nanoTime();
        recorder.started(className, name, null);
        runner.run(notifier);
        recorder.finished(className, name, null, "FAILURE", (System.nanoTime() - start) / 1_000_000L, error[0]);
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
            for (String name : names) if (hasTest(d, className, name)) return true;
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
