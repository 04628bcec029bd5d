package dev.stressgate.jvm;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import dev.stressgate.jvm.fork.JvmJson;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Records every test the JUnit Platform runs (see {@link Recorder} for the lines): its unique ID,
 * legacy reporting name, class, display name, status, duration and, in the stress pass, its
 * failure. A test that started and never finished was running when its JVM died. Registered
 * through META-INF/services, it is active only when the system property {@code stressGate.log}
 * names a directory (the first pass: one file per Surefire/Failsafe fork or Gradle test JVM,
 * whose first line is the JVM's own configuration, so that a stress repetition can start a JVM
 * the same way). The stress runner's platform kind registers it on its own recorder.
 */
public final class RecordingListener implements TestExecutionListener {
    private final File file;
    private final boolean firstPass;
    private Recorder recorder;
    private TestPlan plan;
    private final Map<String, Long> started = new ConcurrentHashMap<>();

    /** The service-loaded instance: records only when {@code stressGate.log} is set. */
    public RecordingListener() {
        String dir = System.getProperty("stressGate.log");
        this.file = dir == null || dir.isEmpty()
            ? null
            : new File(dir, "fork-" + ManagementFactory.getRuntimeMXBean().getName().replaceAll("[^A-Za-z0-9.-]", "_") + "-" + System.nanoTime() + ".jsonl");
        this.firstPass = true;
    }

    /** The stress runner's instance: records one repetition's tests, with their failures. */
    RecordingListener(Recorder recorder) {
        this.file = null;
        this.firstPass = false;
        this.recorder = recorder;
    }

    @Override
    public void testPlanExecutionStarted(TestPlan testPlan) {
        plan = testPlan;
        if (!firstPass || file == null) return;
        try {
            recorder = new Recorder(file);
            recorder.write(forkLine(testPlan));
        } catch (IOException e) {
            System.err.println("stress-gate: cannot record test results to " + file + ": " + e);
            recorder = null;
        }
    }

    @Override
    public void testPlanExecutionFinished(TestPlan testPlan) {
        if (firstPass && recorder != null) {
            recorder.close();
            recorder = null;
        }
    }

    @Override
    public void executionStarted(TestIdentifier id) {
        if (recorder == null || !id.isTest()) return;
        started.put(id.getUniqueId(), System.nanoTime());
        recorder.started(className(id), id.getLegacyReportingName(), ids(id));
    }

    @Override
    public void executionSkipped(TestIdentifier id, String reason) {
        if (recorder == null || !id.isTest()) return;
        recorder.finished(className(id), id.getLegacyReportingName(), ids(id), "SKIPPED", 0, null);
    }

    @Override
    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
        if (recorder == null || !id.isTest()) return;
        Long start = started.remove(id.getUniqueId());
        long ms = start == null ? 0 : (System.nanoTime() - start) / 1_000_000L;
        String status;
        switch (result.getStatus()) {
            case SUCCESSFUL: status = "SUCCESS"; break;
            case ABORTED: status = "SKIPPED"; break; // an assumption failed: Surefire says skipped too
            default: status = "FAILURE";
        }
        Throwable failure = status.equals("FAILURE") && !firstPass ? result.getThrowable().orElse(null) : null;
        recorder.finished(className(id), id.getLegacyReportingName(), ids(id), status, ms, failure);
    }

    private static String[] ids(TestIdentifier id) {
        return new String[] {id.getUniqueId(), id.getLegacyReportingName(), id.getDisplayName()};
    }

    /** The class a test belongs to: its method's class, else the nearest enclosing class source. */
    private String className(TestIdentifier id) {
        TestIdentifier current = id;
        while (current != null) {
            Optional<TestSource> source = current.getSource();
            if (source.isPresent() && source.get() instanceof MethodSource) return ((MethodSource) source.get()).getClassName();
            if (source.isPresent() && source.get() instanceof ClassSource) return ((ClassSource) source.get()).getClassName();
            current = plan == null ? null : plan.getParent(current).orElse(null);
        }
        return "";
    }

    private static String forkLine(TestPlan testPlan) {
        Map<String, String> config = new TreeMap<>();
        try {
            for (String key : testPlan.getConfigurationParameters().keySet()) {
                testPlan.getConfigurationParameters().get(key).ifPresent(v -> config.put(key, v));
            }
        } catch (LinkageError | UnsupportedOperationException e) {
            // Platform before 1.9 has no keySet(): the defaults apply in the stress pass.
        }
        String launcherJar = "";
        try {
            launcherJar = new File(LauncherFactory.class.getProtectionDomain().getCodeSource().getLocation().toURI()).getPath();
        } catch (Exception | LinkageError e) {
            // Unknown: the stress pass relies on the class paths alone.
        }
        return JvmJson.forkLine("", JvmJson.sorted(System.getProperties()), ManagementFactory.getRuntimeMXBean().getInputArguments(), launcherJar, config);
    }
}
