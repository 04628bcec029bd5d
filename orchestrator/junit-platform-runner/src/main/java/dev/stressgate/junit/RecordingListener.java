package dev.stressgate.junit;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Records every test the JUnit Platform runs, one JSON line per event, flushed as written: its
 * unique ID, legacy reporting name, class, display name, status and duration. A test that started
 * and never finished was running when its JVM died. Registered through META-INF/services, it is
 * active only when the system property {@code stressGate.log} names a directory (the first pass:
 * one file per Surefire/Failsafe fork, whose first line is the fork's own configuration, so that a
 * stress repetition can start a JVM the same way). The stress runner registers it on its file.
 */
public final class RecordingListener implements TestExecutionListener {
    private final File file;
    private final boolean describeFork;
    private OutputStream out;
    private TestPlan plan;
    private final Map<String, Long> started = new ConcurrentHashMap<>();

    /** The service-loaded instance: records only when {@code stressGate.log} is set. */
    public RecordingListener() {
        String dir = System.getProperty("stressGate.log");
        this.file = dir == null || dir.isEmpty()
            ? null
            : new File(dir, "fork-" + ManagementFactory.getRuntimeMXBean().getName().replaceAll("[^A-Za-z0-9.-]", "_") + "-" + System.nanoTime() + ".jsonl");
        this.describeFork = true;
    }

    /** The stress runner's instance: records the tests of one repetition to {@code file}. */
    public RecordingListener(File file) {
        this.file = file;
        this.describeFork = false;
    }

    @Override
    public void testPlanExecutionStarted(TestPlan testPlan) {
        if (file == null) return;
        plan = testPlan;
        try {
            File parent = file.getParentFile();
            if (parent != null) parent.mkdirs();
            out = new FileOutputStream(file, true);
            if (describeFork) write(forkLine(testPlan));
        } catch (IOException e) {
            System.err.println("stress-gate: cannot record test results to " + file + ": " + e);
            out = null;
        }
    }

    @Override
    public void testPlanExecutionFinished(TestPlan testPlan) {
        if (out == null) return;
        try {
            out.close();
        } catch (IOException ignored) {
            // Every line was flushed as written.
        }
        out = null;
    }

    @Override
    public void executionStarted(TestIdentifier id) {
        if (out == null || !id.isTest()) return;
        started.put(id.getUniqueId(), System.nanoTime());
        write(testLine("started", id, null, 0));
    }

    @Override
    public void executionSkipped(TestIdentifier id, String reason) {
        if (out == null || !id.isTest()) return;
        write(testLine("finished", id, "SKIPPED", 0));
    }

    @Override
    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
        if (out == null || !id.isTest()) return;
        Long start = started.remove(id.getUniqueId());
        long ms = start == null ? 0 : (System.nanoTime() - start) / 1_000_000L;
        String status;
        switch (result.getStatus()) {
            case SUCCESSFUL: status = "SUCCESS"; break;
            case ABORTED: status = "SKIPPED"; break; // an assumption failed: Surefire says skipped too
            default: status = "FAILURE";
        }
        write(testLine("finished", id, status, ms));
    }

    private String testLine(String event, TestIdentifier id, String status, long ms) {
        StringBuilder b = new StringBuilder("{\"event\":").append(Json.str(event))
            .append(",\"uniqueId\":").append(Json.str(id.getUniqueId()))
            .append(",\"legacyName\":").append(Json.str(id.getLegacyReportingName()))
            .append(",\"className\":").append(Json.str(className(id)))
            .append(",\"displayName\":").append(Json.str(id.getDisplayName()));
        if (status != null) b.append(",\"result\":").append(Json.str(status)).append(",\"durationMs\":").append(ms);
        return b.append('}').toString();
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
        Map<String, String> props = new TreeMap<>();
        for (String name : System.getProperties().stringPropertyNames()) props.put(name, System.getProperty(name));
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
            // Unknown: the stress pass relies on the test classpath alone.
        }
        return "{\"event\":\"fork\""
            + ",\"javaHome\":" + Json.str(System.getProperty("java.home"))
            + ",\"userDir\":" + Json.str(System.getProperty("user.dir"))
            + ",\"basedir\":" + Json.str(System.getProperty("basedir"))
            + ",\"testClassPath\":" + Json.str(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")))
            + ",\"launcherJar\":" + Json.str(launcherJar)
            + ",\"inputArguments\":" + Json.list(ManagementFactory.getRuntimeMXBean().getInputArguments())
            + ",\"systemProperties\":" + Json.map(props)
            + ",\"environment\":" + Json.map(new TreeMap<>(System.getenv()))
            + ",\"configurationParameters\":" + Json.map(config)
            + "}";
    }

    private synchronized void write(String line) {
        if (out == null) return;
        try {
            out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException e) {
            System.err.println("stress-gate: cannot record test results to " + file + ": " + e);
        }
    }
}
