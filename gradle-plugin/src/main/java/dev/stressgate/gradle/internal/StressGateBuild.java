package dev.stressgate.gradle.internal;

import dev.stressgate.gradle.StressNewTestsExtension;
import java.io.File;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.gradle.api.Action;
import org.gradle.api.Project;
import org.gradle.api.initialization.Settings;
import org.gradle.api.invocation.Gradle;
import org.gradle.api.tasks.testing.Test;

/** Wires the orchestrator's -P properties into the build once every project is evaluated. */
public final class StressGateBuild {

    /** Path of the manifest to write; also turns on the per-test results log. */
    public static final String MANIFEST_PROPERTY = "stressGate.manifest";
    /** Path of the stress plan; creates the repetition tasks and {@code stressGateStress}. */
    public static final String PLAN_PROPERTY = "stressGate.plan";

    private StressGateBuild() {
    }

    /** Called once by the plugin; reads the properties from the start parameter (never env vars: 4.4's daemon keeps its start-up environment). */
    public static void install(Settings settings, final StressNewTestsExtension extension) {
        Map<String, String> props = settings.getStartParameter().getProjectProperties();
        final String manifestPath = blankToNull(props.get(MANIFEST_PROPERTY));
        final String planPath = blankToNull(props.get(PLAN_PROPERTY));
        final String skipPath = blankToNull(props.get(QuarantineSkips.PROPERTY));
        final String listenerPath = blankToNull(props.get(PlatformIdentities.PROPERTY));
        if (manifestPath == null && planPath == null) {
            OrchestratorHint.register(settings, extension); // plain `gradle test`: a hint at most
            return;
        }
        settings.getGradle().projectsEvaluated(new Action<Gradle>() {
            @Override
            public void execute(Gradle gradle) {
                List<Test> tests = testTasks(gradle.getRootProject());
                ResultsRecorder recorder = null;
                if (manifestPath != null) {
                    File manifest = new File(manifestPath).getAbsoluteFile();
                    Manifest.write(manifest, gradle, extension, tests);
                    recorder = ResultsRecorder.start(resultsLogFor(manifest));
                    if (listenerPath != null) {
                        // Before the fork specs: see PlatformIdentities.recordOnExecution.
                        PlatformIdentities.recordOnExecution(tests, new File(listenerPath).getAbsoluteFile(), platformDirFor(manifest));
                    }
                    ForkSpecs.exportOnExecution(tests, forkSpecsDirFor(manifest));
                    for (Test test : tests) {
                        // The first pass needs no start lines: a JVM that dies there fails the build.
                        test.addTestListener(recorder.forTask(test.getPath(), false));
                    }
                }
                if (skipPath != null) {
                    QuarantineSkips.read(new File(skipPath).getAbsoluteFile()).apply(tests, gradle.getRootProject().getLogger());
                }
                if (planPath != null) {
                    StressPlan plan = StressPlan.read(new File(planPath).getAbsoluteFile());
                    List<Test> reps = RepetitionTasks.create(gradle.getRootProject(), plan);
                    if (recorder != null) {
                        for (Test rep : reps) {
                            rep.addTestListener(recorder.forTask(rep.getPath(), true));
                        }
                    }
                }
            }
        });
    }

    /** {@code /x/manifest.json} → {@code /x/manifest.results.jsonl}. */
    static File resultsLogFor(File manifest) {
        String name = manifest.getName();
        String base = name.endsWith(".json") ? name.substring(0, name.length() - 5) : name;
        return new File(manifest.getParentFile(), base + ".results.jsonl");
    }

    /** {@code /x/manifest.json} → {@code /x/manifest.forks/}: the direct executor's fork settings. */
    static File forkSpecsDirFor(File manifest) {
        String name = manifest.getName();
        String base = name.endsWith(".json") ? name.substring(0, name.length() - 5) : name;
        return new File(manifest.getParentFile(), base + ".forks");
    }

    /** {@code /x/manifest.json} → {@code /x/manifest.platform/}: JUnit Platform logs, a folder per task. */
    static File platformDirFor(File manifest) {
        String name = manifest.getName();
        String base = name.endsWith(".json") ? name.substring(0, name.length() - 5) : name;
        return new File(manifest.getParentFile(), base + ".platform");
    }

    /** Every Test task of every project, sorted by path. */
    static List<Test> testTasks(Project root) {
        List<Test> tests = new ArrayList<Test>();
        for (Project project : root.getAllprojects()) {
            tests.addAll(project.getTasks().withType(Test.class));
        }
        Collections.sort(tests, new Comparator<Test>() {
            @Override
            public int compare(Test a, Test b) {
                return a.getPath().compareTo(b.getPath());
            }
        });
        return tests;
    }

    private static String blankToNull(String s) {
        return s == null || s.trim().isEmpty() ? null : s.trim();
    }
}
