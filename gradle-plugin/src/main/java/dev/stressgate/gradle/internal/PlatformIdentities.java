package dev.stressgate.gradle.internal;

import java.io.File;
import java.util.List;
import org.gradle.api.Action;
import org.gradle.api.Task;
import org.gradle.api.tasks.testing.Test;

/**
 * JUnit Platform identities under Gradle, recorded as under Maven: when a Test task runs the JUnit
 * Platform in its test JVM, the stress gate's listener jar (the one the Maven side puts on each
 * Surefire fork, passed as {@code -PstressGate.junitPlatformListener=<jar>}) is added to the task's
 * test runtime classpath, and the system property {@code stressGate.log} points it at
 * {@code <manifest>.platform/<task path with ':' as '_'>/}. The platform's launcher service-loads
 * the listener, which writes one JSON-lines log per test JVM: each test's unique ID, legacy
 * reporting name and class. The orchestrator names identities from those, as under Maven.
 *
 * <p>The platform runs in the test JVM when the task uses Gradle's JUnit Platform framework
 * ({@code useJUnitPlatform()}, Gradle 4.6+; detected by reflection, Gradle 4.4 has no such class),
 * or when the JUnit 4 framework runs {@code @RunWith(JUnitPlatform.class)} classes (the platform
 * launcher is on the test runtime classpath). Any other task (JUnit 4, TestNG) is left alone.
 *
 * <p>Done at execution (doFirst), when the classpath is resolved anyway: configuration stays lazy,
 * and the task's inputs as Gradle snapshots them for UP-TO-DATE are unchanged.
 */
final class PlatformIdentities {

    /** The listener jar's path. */
    static final String PROPERTY = "stressGate.junitPlatformListener";
    /** The system property the listener reads (a directory: one file per test JVM). */
    static final String LOG_PROPERTY = "stressGate.log";

    private PlatformIdentities() {
    }

    /**
     * Adds the listener to each task that runs the platform. Register this before the fork-spec
     * export: doFirst actions run last-registered first, so the direct executor's fork spec is
     * taken before the listener is added and its repetitions never write here.
     */
    static void recordOnExecution(List<Test> tests, final File listenerJar, final File dir) {
        for (Test test : tests) {
            test.doFirst(new Action<Task>() {
                @Override
                public void execute(Task task) {
                    Test t = (Test) task;
                    if (!runsPlatform(t)) {
                        return;
                    }
                    t.setClasspath(t.getClasspath().plus(t.getProject().files(listenerJar)));
                    t.systemProperty(LOG_PROPERTY, dirFor(dir, t.getPath()).getAbsolutePath());
                }
            });
        }
    }

    /** The log folder of one task: ':app:test' → 'app_test' (the orchestrator names it the same way). */
    static File dirFor(File dir, String taskPath) {
        String name = taskPath.startsWith(":") ? taskPath.substring(1) : taskPath;
        return new File(dir, name.replace(':', '_'));
    }

    /** Gradle's JUnit Platform framework, or the platform launcher on the classpath (JUnit 4's JUnitPlatform runner). */
    static boolean runsPlatform(Test test) {
        if ("junit-platform".equals(GradleCompat.testFrameworkName(test))) {
            return true;
        }
        for (File f : test.getClasspath().getFiles()) {
            String name = f.getName();
            if (name.startsWith("junit-platform-launcher") && name.endsWith(".jar")) {
                return true;
            }
        }
        return false;
    }
}
