package dev.stressgate.gradle.internal;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gradle.api.Action;
import org.gradle.api.Task;
import org.gradle.api.tasks.testing.Test;

/**
 * The direct executor's input: when a Test task executes, its resolved fork settings (java
 * executable, every JVM argument Gradle would pass, including system properties, heap, agents and
 * argument providers, the test runtime classpath, working directory, environment, framework) are
 * written to {@code <dir>/<task path with ':' as '_'>.json}. Written at execution (doFirst), when
 * the classpath is resolved anyway and argument providers can be asked, so configuration stays lazy.
 */
final class ForkSpecs {

    private ForkSpecs() {
    }

    /** Adds the export to each task; a task that does not execute (UP-TO-DATE) writes nothing. */
    static void exportOnExecution(List<Test> tests, final File dir) {
        for (Test test : tests) {
            test.doFirst(new Action<Task>() {
                @Override
                public void execute(Task task) {
                    write((Test) task, dir);
                }
            });
        }
    }

    /** The file of one task: ':app:test' → 'app_test.json' (the orchestrator names it the same way). */
    static File fileFor(File dir, String taskPath) {
        String name = taskPath.startsWith(":") ? taskPath.substring(1) : taskPath;
        return new File(dir, name.replace(':', '_') + ".json");
    }

    private static void write(Test test, File dir) {
        Map<String, Object> spec = new LinkedHashMap<String, Object>();
        spec.put("path", test.getPath());
        spec.put("framework", GradleCompat.testFrameworkName(test));
        spec.put("executable", GradleCompat.javaExecutable(test));
        spec.put("jvmArgs", new ArrayList<String>(test.getAllJvmArgs()));
        List<String> classpath = new ArrayList<String>();
        for (File f : test.getClasspath().getFiles()) {
            classpath.add(f.getAbsolutePath());
        }
        spec.put("classpath", classpath);
        spec.put("workingDir", test.getWorkingDir().getAbsolutePath());
        Map<String, Object> env = new LinkedHashMap<String, Object>();
        for (Map.Entry<String, Object> e : test.getEnvironment().entrySet()) {
            env.put(e.getKey(), e.getValue() == null ? null : e.getValue().toString());
        }
        spec.put("environment", env);
        try {
            dir.mkdirs();
            Files8.write(fileFor(dir, test.getPath()), Json.write(spec) + "\n", false);
        } catch (IOException e) {
            // No spec means the orchestrator uses the Gradle executor for this task: never fail the build.
            System.err.println("stress gate: cannot write fork settings of " + test.getPath() + ": " + e.getMessage());
        }
    }
}
