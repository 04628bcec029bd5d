package dev.stressgate.gradle.internal;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.gradle.api.GradleException;
import org.gradle.api.logging.Logger;
import org.gradle.api.tasks.testing.Test;

/**
 * The quarantine's skipped tests, written by the orchestrator before the first pass
 * ({@code -PstressGate.skip=<file>}, a JSON array of {@code {module, suite, name}}), kept out of
 * every Test task whose identity module matches: the project path for a task named {@code test},
 * the task path for any other (the orchestrator's identity rule).
 */
final class QuarantineSkips {

    /** Path of the skip list. */
    static final String PROPERTY = "stressGate.skip";

    private final List<String[]> tests;

    private QuarantineSkips(List<String[]> tests) {
        this.tests = tests;
    }

    static QuarantineSkips read(File file) {
        Object json;
        try {
            json = Json.parse(Files8.read(file));
        } catch (IOException e) {
            throw new GradleException("stress gate: cannot read the skip list " + file + ": " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new GradleException("stress gate: invalid skip list " + file + ": " + e.getMessage(), e);
        }
        if (!(json instanceof List)) {
            throw new GradleException("stress gate: invalid skip list " + file + ": expected an array");
        }
        List<String[]> tests = new ArrayList<String[]>();
        for (Object o : (List<?>) json) {
            Map<?, ?> t = o instanceof Map ? (Map<?, ?>) o : null;
            if (t == null || !(t.get("module") instanceof String) || !(t.get("suite") instanceof String)
                    || !(t.get("name") instanceof String)) {
                throw new GradleException("stress gate: invalid skip list " + file
                        + ": expected objects with string module, suite and name");
            }
            tests.add(new String[] {(String) t.get("module"), (String) t.get("suite"), (String) t.get("name")});
        }
        return new QuarantineSkips(tests);
    }

    /** Excludes the skipped tests from the tasks; says once when this Gradle cannot. */
    void apply(List<Test> tasks, Logger logger) {
        int unsupported = 0;
        for (Test task : tasks) {
            String module = "test".equals(task.getName()) ? task.getProject().getPath() : task.getPath();
            for (String[] t : tests) {
                if (t[0].equals(module) && !GradleCompat.excludeTest(task.getFilter(), t[1], t[2])) {
                    unsupported++;
                }
            }
        }
        if (unsupported > 0) {
            logger.warn("stress gate: this Gradle cannot exclude single tests (Gradle 5.0+ can): "
                    + unsupported + " quarantined test(s) marked skip run anyway, and the gate ignores their results.");
        }
    }
}
