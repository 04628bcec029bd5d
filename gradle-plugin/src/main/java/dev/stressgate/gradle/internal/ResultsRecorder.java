package dev.stressgate.gradle.internal;

import java.io.BufferedWriter;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.util.LinkedHashMap;
import java.util.Map;
import org.gradle.api.GradleException;
import org.gradle.api.tasks.testing.TestDescriptor;
import org.gradle.api.tasks.testing.TestListener;
import org.gradle.api.tasks.testing.TestResult;

/**
 * Appends one JSON line per started and per finished test to {@code <manifest>.results.jsonl}:
 * the identity as the test framework reported it, which the JUnit XML may lose (JUnit 5 display
 * names). A test that started and never finished was running when its JVM died (System.exit, an
 * OOM kill, a native crash): Gradle then writes no JUnit XML for its class. The file is truncated
 * when the build starts, so it describes exactly one Gradle invocation.
 */
final class ResultsRecorder {

    private static final long FLUSH_MS = 200;
    private final File file;
    private Writer writer;
    private long lastFlush;

    private ResultsRecorder(File file) {
        this.file = file;
    }

    static ResultsRecorder start(File file) {
        try {
            Files8.write(file, "", false);
        } catch (IOException e) {
            throw new GradleException("stress gate: cannot create " + file + ": " + e.getMessage(), e);
        }
        return new ResultsRecorder(file);
    }

    /**
     * A listener for one Test task; listeners of parallel tasks share this recorder's lock. Start
     * lines ({@code recordStarts}) are for repetitions, where a dying JVM is a finding: a suite of
     * 50,000 tests would write 50,000 more lines in its first pass for nothing.
     */
    TestListener forTask(final String taskPath, final boolean recordStarts) {
        return new TestListener() {
            @Override
            public void beforeSuite(TestDescriptor suite) {
            }

            @Override
            public void afterSuite(TestDescriptor suite, TestResult result) {
                if (suite.getParent() == null) {
                    flush(); // the task's tests are done: everything is on disk before the task ends
                }
            }

            @Override
            public void beforeTest(TestDescriptor test) {
                if (!recordStarts) {
                    return;
                }
                Map<String, Object> line = new LinkedHashMap<String, Object>();
                line.put("task", taskPath);
                line.put("event", "started");
                line.put("className", test.getClassName());
                line.put("name", test.getName());
                append(Json.write(line) + "\n");
            }

            @Override
            public void afterTest(TestDescriptor test, TestResult result) {
                Map<String, Object> line = new LinkedHashMap<String, Object>();
                line.put("task", taskPath);
                line.put("className", test.getClassName());
                line.put("name", test.getName());
                line.put("displayName", GradleCompat.displayName(test));
                line.put("result", result.getResultType().name());
                line.put("durationMs", Math.max(0L, result.getEndTime() - result.getStartTime()));
                // A repetition's failure, for the author to read why (the first pass needs none).
                if (recordStarts && result.getResultType() == TestResult.ResultType.FAILURE && result.getException() != null) {
                    line.put("failure", failure(result.getException()));
                }
                append(Json.write(line) + "\n");
            }
        };
    }

    /** The most characters of one stack trace written (the orchestrator keeps far less). */
    private static final int MAX_TRACE = 65536;

    /**
     * The failure's class, message and stack trace. Gradle carries an exception class the daemon
     * cannot load as a placeholder whose getExceptionClassName() (internal, so by reflection) is
     * the original class.
     */
    static Map<String, Object> failure(Throwable t) {
        Map<String, Object> f = new LinkedHashMap<String, Object>();
        String type = t.getClass().getName();
        try {
            Object original = t.getClass().getMethod("getExceptionClassName").invoke(t);
            if (original instanceof String) {
                type = (String) original;
            }
        } catch (ReflectiveOperationException | RuntimeException ignored) {
            // Not a placeholder: its own class is the type.
        }
        f.put("type", type);
        f.put("message", t.getMessage());
        StringWriter trace = new StringWriter();
        t.printStackTrace(new PrintWriter(trace));
        String text = trace.toString();
        f.put("trace", text.length() > MAX_TRACE ? text.substring(0, MAX_TRACE) : text);
        return f;
    }

    // One open, buffered writer for the whole build: a line per event with an open/close each cost
    // about a second per 50,000 tests. Flushed when a task's root suite ends and at least every
    // FLUSH_MS while lines arrive; the daemon outlives a test JVM that dies, so nothing is lost.
    private synchronized void append(String line) {
        try {
            if (writer == null) {
                writer = new BufferedWriter(new OutputStreamWriter(new FileOutputStream(file, true), "UTF-8"), 1 << 16);
            }
            writer.write(line);
            long now = System.currentTimeMillis();
            if (now - lastFlush >= FLUSH_MS) {
                writer.flush();
                lastFlush = now;
            }
        } catch (IOException e) {
            // A lost line must not fail the user's tests; the orchestrator falls back to the XML.
            System.err.println("stress gate: cannot append to " + file + ": " + e.getMessage());
        }
    }

    private synchronized void flush() {
        try {
            if (writer != null) {
                writer.flush();
                lastFlush = System.currentTimeMillis();
            }
        } catch (IOException e) {
            System.err.println("stress gate: cannot write " + file + ": " + e.getMessage());
        }
    }
}
