package dev.stressgate.gradle.internal;

import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.gradle.api.GradleException;
import org.gradle.api.Project;
import org.gradle.api.Task;
import org.gradle.api.specs.Spec;
import org.gradle.api.tasks.testing.Test;

/**
 * Creates the stress pass: for planned task {@code id}, Test tasks {@code stressGate<Id>Rep<k>}
 * beside the original, each running the candidates with {@code repetitions >= k} in one fresh JVM,
 * and {@code stressGateStress} on the root project depending on all of them.
 */
final class RepetitionTasks {

    /** The root project's task the orchestrator runs for the stress pass. */
    static final String STRESS_TASK = "stressGateStress";

    private RepetitionTasks() {
    }

    // Tasks are created eagerly with tasks.create: Gradle 4.4 has no tasks.register, and the plan
    // only exists when the orchestrator asks for the stress pass, so laziness buys nothing here.
    static List<Test> create(Project root, StressPlan plan) {
        List<Test> all = new ArrayList<Test>();
        for (StressPlan.PlannedTask planned : plan.tasks) {
            Task found = root.getTasks().findByPath(planned.path);
            if (found == null) {
                throw new GradleException("stress gate: the plan names task '" + planned.path
                        + "', which this build does not have");
            }
            if (!(found instanceof Test)) {
                throw new GradleException("stress gate: the plan names task '" + planned.path
                        + "', which is a " + found.getClass().getName().replace("_Decorated", "")
                        + ", not a Test task");
            }
            Test original = (Test) found;
            Test previous = null;
            for (int k = 1; k <= planned.maxRepetitions(); k++) {
                Test rep = createRepetition(original, planned, k, plan.resultsDir);
                if (previous != null) {
                    rep.mustRunAfter(previous);
                }
                previous = rep;
                all.add(rep);
            }
        }
        Task stress = root.getTasks().create(STRESS_TASK);
        stress.setGroup("verification");
        stress.setDescription("Runs the stress gate's repetitions of new tests (created from -P"
                + StressGateBuild.PLAN_PROPERTY + ").");
        stress.dependsOn(all.toArray());
        return all;
    }

    /** {@code com.shop.Outer$Inner} → {@code com/shop/Outer$Inner.class}, for the candidates of repetition k. */
    static Set<String> candidateClassFiles(StressPlan.PlannedTask planned, int k) {
        Set<String> patterns = new LinkedHashSet<String>();
        for (StressPlan.Candidate c : planned.candidates) {
            if (c.repetitions >= k) {
                patterns.add(c.suite.replace('.', '/') + ".class");
            }
        }
        return patterns;
    }

    private static Test createRepetition(Test original, StressPlan.PlannedTask planned, int k, File resultsDir) {
        String id = planned.id;
        String name = "stressGate" + Character.toUpperCase(id.charAt(0)) + id.substring(1) + "Rep" + k;
        Test rep = original.getProject().getTasks().create(name, Test.class);
        rep.setDescription("Stress gate: repetition " + k + " of the new tests of " + original.getPath() + ".");

        // Same compiled classes and classpath: the compile tasks are dependencies through these
        // file collections and are merely UP-TO-DATE, nothing is recompiled.
        rep.setTestClassesDirs(original.getTestClassesDirs());
        rep.setClasspath(original.getClasspath());
        // Only the candidates' class files are scanned (not the whole suite): the XML classname is
        // the class that ran the test (a subclass for an inherited method, Outer$Inner for a
        // nested class), so its own class file is the one to include. The original includes are
        // replaced (the candidates passed them in the first pass); its excludes stay.
        rep.setIncludes(candidateClassFiles(planned, k));
        rep.setExcludes(original.getExcludes());
        rep.setScanForTestClasses(original.isScanForTestClasses());
        GradleCompat.copyTestFramework(original, rep);

        // Same JVM, as far as the API is the same in 4.4 and 8.x.
        GradleCompat.copyJavaExecutable(original, rep);
        rep.setJvmArgs(original.getJvmArgs());
        GradleCompat.copyJvmArgumentProviders(original, rep);
        rep.setSystemProperties(original.getSystemProperties());
        rep.setEnvironment(original.getEnvironment());
        rep.setWorkingDir(original.getWorkingDir());
        rep.setMinHeapSize(original.getMinHeapSize());
        rep.setMaxHeapSize(original.getMaxHeapSize());
        rep.setDefaultCharacterEncoding(original.getDefaultCharacterEncoding());
        rep.setEnableAssertions(original.getEnableAssertions());
        rep.setBootstrapClasspath(original.getBootstrapClasspath());

        // One repetition = one Test task = one forked test JVM: a Test task never reuses a worker
        // of another task. One fork (no parallel forks) and the default forkEvery (0, never
        // restart within the task; left untouched because its setter's type changed in 8.x).
        rep.setMaxParallelForks(1);

        // Every repetition runs, failures are results (the orchestrator reads the XML), and a
        // missing candidate is detected by the orchestrator, not by Gradle.
        rep.setIgnoreFailures(true);
        rep.getOutputs().upToDateWhen(new Spec<Task>() {
            @Override
            public boolean isSatisfiedBy(Task task) {
                return false;
            }
        });
        rep.getFilter().setFailOnNoMatchingTests(false);
        int selected = 0;
        for (StressPlan.Candidate c : planned.candidates) {
            if (c.repetitions >= k) {
                GradleCompat.includeTest(rep.getFilter(), c.suite, c.name);
                selected++;
            }
        }
        if (selected == 0) {
            throw new IllegalStateException("repetition " + k + " of " + id + " selects no candidate");
        }

        File base = new File(new File(resultsDir, id), "rep-" + k);
        GradleCompat.disableReport(rep.getReports().getHtml());
        GradleCompat.setReportDestination(rep.getReports().getJunitXml(), base);
        GradleCompat.setBinaryResultsDir(rep, new File(new File(resultsDir, "binary"), id + "/rep-" + k));
        return rep;
    }
}
