package dev.stressgate.jvm;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Map;
import dev.stressgate.jvm.fork.JvmJson;

/**
 * One stress repetition in a fresh JVM, started by the orchestrator with a test JVM's own settings
 * (JVM, arguments, class path plus this jar, working directory, environment): sets the fork's
 * system properties, describes its own JVM (the results file's first line, {@link JvmJson#jvmLine}),
 * runs exactly the selected tests through the runner kind the build used (JUnit 4, JUnit Platform
 * or TestNG, each in a class of its own, loaded by name so that a project without that framework
 * never links it) and records them (see {@link Recorder}), each selection apart and in order.
 *
 * With {@code order sequence} (the order probe) each selection runs on its own, in the request's
 * order, a repeated one again, in this one JVM.
 *
 * <p>After the tests, a {@code phases} line says when its main began, when discovery ended and when
 * the tests ended (epoch milliseconds): the orchestrator tells from it where a repetition's time
 * went (the JVM's start, discovery, the tests, the exit).
 *
 * <p>Usage: {@code StressRunner <request file>} (see {@link Request}). A selection that matches no
 * test gets an {@code unrunnable} line saying why. Exits 0 when the runner worked (a failing or
 * unrunnable test is a result), 2 when nothing could run at all (the framework is missing, or the
 * runner could not start: an {@code unrunnable} line with a null selector, when the request names
 * its output file).
 */
public final class StressRunner {
    private StressRunner() {}

    private static final String NO_LAUNCHER = "the JUnit Platform launcher (junit-platform-launcher) is not on the class path";

    /** Per runner kind: its class, a class of the framework it needs, and what to say when that is missing. */
    private static final String[][] KINDS = {
        {"junit4", "dev.stressgate.jvm.Junit4Kind", "org.junit.runner.Request", "JUnit 4 (junit:junit) is not on the class path"},
        {"platform", "dev.stressgate.jvm.PlatformKind", "org.junit.platform.launcher.core.LauncherFactory", NO_LAUNCHER},
        {"testng", "dev.stressgate.jvm.TestNgKind", "org.testng.TestNG", "TestNG is not on the class path"},
    };

    public static void main(String[] args) {
        long startedAt = System.currentTimeMillis();
        int code = 2;
        Request request = null;
        Recorder recorder = null;
        try {
            if (args.length != 1) throw new IllegalArgumentException("usage: StressRunner <request file>");
            request = Request.read(new File(args[0]));
            if (request.out == null) throw new IllegalArgumentException("the request names no output file");
            recorder = new Recorder(request.out);
            code = run(request, recorder, startedAt);
        } catch (Throwable t) {
            System.err.println("stress-gate runner: " + t);
            t.printStackTrace();
            if (recorder == null && request != null && request.out != null) recorder = openQuietly(request.out);
            if (recorder != null) recorder.unrunnable(null, "the runner could not start: " + t);
        }
        if (recorder != null) recorder.close();
        System.out.flush();
        System.err.flush();
        // As Surefire's booter and Gradle's worker: threads a test left running do not keep the JVM alive.
        System.exit(code);
    }

    private static int run(Request request, Recorder recorder, long startedAt) throws Exception {
        String classPath = System.getProperty("java.class.path");
        for (Map.Entry<String, String> p : request.properties.entrySet()) System.setProperty(p.getKey(), p.getValue());
        if (request.describe) recorder.write(JvmJson.jvmLine(JvmJson.sorted(System.getProperties()), classPath, ManagementFactory.getRuntimeMXBean().getInputArguments()));
        String[] kind = null;
        for (String[] k : KINDS) if (k[0].equals(request.kind)) kind = k;
        if (kind == null) throw new IllegalArgumentException("unknown runner kind: " + request.kind);
        try {
            Class.forName(kind[2], false, StressRunner.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError missing) {
            recorder.unrunnable(null, kind[3]);
            return 2;
        }
        try {
            if (!request.sequence) {
                Runnable tests = prepare(kind[1], request, recorder);
                long discoveredAt = System.currentTimeMillis();
                tests.run();
                recorder.write("{\"event\":\"phases\",\"startedAt\":" + startedAt + ",\"discoveredAt\":" + discoveredAt + ",\"finishedAt\":" + System.currentTimeMillis() + "}");
            } else {
                // The order probe: each selection on its own, in order, in this one JVM.
                java.util.List<Request> steps = request.steps();
                for (int i = 0; i < steps.size(); i++) {
                    recorder.step(i);
                    prepare(kind[1], steps.get(i), recorder).run();
                }
            }
        } catch (NoClassDefFoundError e) {
            // A launcher class other than the probe above is missing: the same cause.
            if (e.getMessage() == null || !e.getMessage().startsWith("org/junit/platform/launcher/")) throw e;
            recorder.unrunnable(null, NO_LAUNCHER);
            return 2;
        }
        return 0;
    }

    /** The kind's {@code prepare(Request, Recorder)}: start-up and discovery; the Runnable runs the tests. */
    private static Runnable prepare(String kindClass, Request request, Recorder recorder) throws Exception {
        Method prepare = Class.forName(kindClass).getDeclaredMethod("prepare", Request.class, Recorder.class);
        prepare.setAccessible(true);
        try {
            return (Runnable) prepare.invoke(null, request, recorder);
        } catch (InvocationTargetException e) {
            Throwable t = e.getCause();
            if (t instanceof Error) throw (Error) t;
            throw t instanceof Exception ? (Exception) t : new RuntimeException(t);
        }
    }

    private static Recorder openQuietly(File out) {
        try {
            return new Recorder(out);
        } catch (Exception | LinkageError e) {
            return null;
        }
    }
}
