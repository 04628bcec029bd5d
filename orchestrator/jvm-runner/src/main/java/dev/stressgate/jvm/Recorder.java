package dev.stressgate.jvm;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import dev.stressgate.jvm.fork.Json;

/**
 * Writes what a repetition's tests did, one JSON line per event, each flushed to the file before
 * the test goes on (a JVM that dies mid-test leaves its {@code started} line behind):
 * {@code {"event":"started"|"finished","className","name","uniqueId"?,"legacyName"?,
 * "displayName"?,"result":"SUCCESS|FAILURE|SKIPPED","durationMs","failure":{"type","message","trace"}?}}.
 * The trace is the whole {@code printStackTrace} (causes included), cut at {@link #MAX_TRACE}
 * characters; the orchestrator trims and bounds it further. A selection that could not run gets
 * {@code {"event":"unrunnable","selector","cause"}} instead (see {@link #unrunnable}).
 */
final class Recorder {
    /** The most characters of one stack trace written: the orchestrator keeps far less. */
    static final int MAX_TRACE = 65536;
    /** The most characters of one failure message written. */
    static final int MAX_MESSAGE = 16384;

    private final OutputStream out;

    Recorder(File file) throws IOException {
        File parent = file.getParentFile();
        if (parent != null) parent.mkdirs();
        this.out = new FileOutputStream(file, true);
    }

    /** Step {@code index} of a sequence starts (its results follow until the next step line). */
    void step(int index) {
        write("{\"event\":\"step\",\"index\":" + index + "}");
    }

    /** A test started. {@code ids}: uniqueId, legacyName, displayName (platform only, else null). */
    void started(String className, String name, String[] ids) {
        write(head("started", className, name, ids).append('}').toString());
    }

    /** A test finished with {@code result}; {@code failure} is its throwable when it failed. */
    void finished(String className, String name, String[] ids, String result, long durationMs, Throwable failure) {
        StringBuilder b = head("finished", className, name, ids)
            .append(",\"result\":").append(Json.str(result))
            .append(",\"durationMs\":").append(durationMs);
        if (failure != null) b.append(",\"failure\":").append(failureJson(failure));
        write(b.append('}').toString());
    }

    /**
     * A selection that matched no test, or ({@code selector} null) a run that could not happen at
     * all. {@code cause} is the runner's own sentence and never holds the selector, so the
     * orchestrator can show one cause for many candidates; it goes to stderr as well.
     */
    void unrunnable(String selector, String cause) {
        System.err.println("stress-gate runner: " + cause + (selector == null ? "" : " (selected: " + selector + ")"));
        write("{\"event\":\"unrunnable\",\"selector\":" + Json.str(selector) + ",\"cause\":" + Json.str(cause) + "}");
    }

    static String failureJson(Throwable t) {
        String message;
        try {
            message = t.getMessage();
        } catch (RuntimeException e) {
            message = "(getMessage() threw " + e.getClass().getName() + ")";
        }
        StringWriter trace = new StringWriter();
        try {
            t.printStackTrace(new PrintWriter(trace));
        } catch (RuntimeException e) {
            trace.write(t.getClass().getName());
        }
        return "{\"type\":" + Json.str(t.getClass().getName())
            + ",\"message\":" + Json.str(cut(message, MAX_MESSAGE))
            + ",\"trace\":" + Json.str(cut(trace.toString(), MAX_TRACE)) + "}";
    }

    private static String cut(String s, int max) {
        return s == null || s.length() <= max ? s : s.substring(0, max);
    }

    private static StringBuilder head(String event, String className, String name, String[] ids) {
        StringBuilder b = new StringBuilder("{\"event\":").append(Json.str(event))
            .append(",\"className\":").append(Json.str(className))
            .append(",\"name\":").append(Json.str(name));
        if (ids != null) {
            b.append(",\"uniqueId\":").append(Json.str(ids[0]))
                .append(",\"legacyName\":").append(Json.str(ids[1]))
                .append(",\"displayName\":").append(Json.str(ids[2]));
        }
        return b;
    }

    synchronized void write(String line) {
        try {
            out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException e) {
            System.err.println("stress-gate: cannot record test results: " + e);
        }
    }

    void close() {
        try {
            out.close();
        } catch (IOException ignored) {
            // Every line was flushed as written.
        }
    }
}
