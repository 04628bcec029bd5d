package dev.stressgate.jvm;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * One stress repetition in a fresh JVM, started by the orchestrator with a test JVM's own settings
 * (JVM, arguments, test classpath plus this jar, working directory, environment): sets the fork's
 * system properties, runs exactly the selected test through the runner kind the build used (JUnit
 * 4, JUnit Platform or TestNG, each in a class of its own, loaded by name so that a project
 * without that framework never links it) and records it (see {@link Recorder}).
 *
 * <p>Usage: {@code StressRunner <request file>} (see {@link Request}). Exits 0 when the runner
 * worked (a failing test is a result), 2 when it could not run (the orchestrator then sees no
 * result for the test, never a pass).
 */
public final class StressRunner {
    private StressRunner() {}

    public static void main(String[] args) {
        int code = 2;
        try {
            if (args.length != 1) throw new IllegalArgumentException("usage: StressRunner <request file>");
            code = run(Request.read(new File(args[0])));
        } catch (Throwable t) {
            System.err.println("stress-gate runner: " + t);
            t.printStackTrace();
        }
        System.out.flush();
        System.err.flush();
        // As Surefire's booter and Gradle's worker: threads a test left running do not keep the JVM alive.
        System.exit(code);
    }

    private static int run(Request request) throws Exception {
        if (request.out == null) throw new IllegalArgumentException("the request names no output file");
        for (Map.Entry<String, String> p : request.properties.entrySet()) System.setProperty(p.getKey(), p.getValue());
        String kindClass;
        switch (request.kind) {
            case "junit4": kindClass = "dev.stressgate.jvm.Junit4Kind"; break;
            case "platform": kindClass = "dev.stressgate.jvm.PlatformKind"; break;
            case "testng": kindClass = "dev.stressgate.jvm.TestNgKind"; break;
            default: throw new IllegalArgumentException("unknown runner kind: " + request.kind);
        }
        Method prepare = Class.forName(kindClass).getDeclaredMethod("prepare", Request.class);
        prepare.setAccessible(true);
        Runnable execute;
        try {
            // Start-up and discovery happen before the wait, so a standby JVM is ready when told to go.
            execute = (Runnable) prepare.invoke(null, request);
        } catch (InvocationTargetException e) {
            throw rethrow(e.getCause());
        }
        if (request.waitForGo) {
            String go = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            if (!"go".equals(go)) return 0;
        }
        execute.run();
        return 0;
    }

    private static Exception rethrow(Throwable t) {
        if (t instanceof Error) throw (Error) t;
        return t instanceof Exception ? (Exception) t : new RuntimeException(t);
    }
}
