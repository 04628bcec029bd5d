package dev.stressgate.runner;

import java.io.BufferedReader;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UnsupportedEncodingException;
import java.net.URLDecoder;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.runner.Description;
import org.junit.runner.Request;
import org.junit.runner.Runner;
import org.junit.runner.manipulation.Filter;
import org.junit.runner.notification.Failure;
import org.junit.runner.notification.RunListener;
import org.junit.runner.notification.RunNotifier;

/**
 * One repetition of the direct executor, in a fresh JVM the orchestrator starts with a Test
 * task's own fork settings: runs the candidates named in a spec file through JUnit 4's Request API
 * and appends one JSON line per started and per finished test to a results file, in the shape of
 * the plugin's results log. A candidate that started and never finished was running when this JVM
 * died. The orchestrator never reads stdout: the test's output goes wherever the JVM's does.
 *
 * <p>Usage: {@code RepetitionRunner <spec file> <results file> <task label>}; each spec line is
 * {@code urlencoded(className) SP urlencoded(methodName)} (the JUnit XML classname and name).
 */
public final class RepetitionRunner {

    private static final Charset UTF8 = Charset.forName("UTF-8");

    private RepetitionRunner() {
    }

    /** Runs the spec; exits 0 when the runner itself worked (test failures are results), 2 when it could not. */
    public static void main(String[] args) {
        int code;
        try {
            run(new File(args[0]), new File(args[1]), args[2]);
            code = 0;
        } catch (Throwable t) {
            System.err.println("stress gate runner: " + t);
            t.printStackTrace();
            code = 2;
        }
        System.out.flush();
        System.err.flush();
        // Like Gradle's test worker: the process ends even if a test left non-daemon threads behind.
        System.exit(code);
    }

    private static void run(File spec, File results, String task) throws IOException {
        Map<String, Set<String>> byClass = readSpec(spec);
        OutputStream out = new FileOutputStream(results, true);
        try {
            // As Gradle's JUnit 4 executor runs a class: the request's runner with a notifier (no
            // JUnitCore, whose Result the test never sees).
            RunNotifier notifier = new RunNotifier();
            notifier.addListener(new Listener(out, task));
            for (Map.Entry<String, Set<String>> e : byClass.entrySet()) {
                Class<?> testClass;
                try {
                    testClass = Class.forName(e.getKey(), false, RepetitionRunner.class.getClassLoader());
                } catch (ClassNotFoundException | LinkageError notFound) {
                    // The gate's trouble (the XML classname is not a loadable class): no line, so
                    // the orchestrator sees no result for these candidates, never a pass.
                    System.err.println("stress gate runner: cannot load " + e.getKey() + ": " + notFound);
                    continue;
                }
                Runner runner = Request.aClass(testClass).filterWith(new Candidates(e.getKey(), e.getValue())).getRunner();
                runner.run(notifier);
            }
        } finally {
            out.close();
        }
    }

    private static Map<String, Set<String>> readSpec(File spec) throws IOException {
        Map<String, Set<String>> byClass = new LinkedHashMap<String, Set<String>>();
        BufferedReader reader = new BufferedReader(new InputStreamReader(new FileInputStream(spec), UTF8));
        try {
            String line;
            while ((line = reader.readLine()) != null) {
                int sp = line.indexOf(' ');
                if (sp < 0) {
                    continue;
                }
                String className = decode(line.substring(0, sp));
                Set<String> names = byClass.get(className);
                if (names == null) {
                    names = new HashSet<String>();
                    byClass.put(className, names);
                }
                names.add(decode(line.substring(sp + 1)));
            }
        } finally {
            reader.close();
        }
        return byClass;
    }

    private static String decode(String s) throws UnsupportedEncodingException {
        return URLDecoder.decode(s, "UTF-8");
    }

    /** Keeps the candidate methods of one class (and the suites that contain them). */
    private static final class Candidates extends Filter {
        private final String className;
        private final Set<String> names;

        Candidates(String className, Set<String> names) {
            this.className = className;
            this.names = names;
        }

        @Override
        public boolean shouldRun(Description d) {
            if (d.isTest()) {
                return className.equals(d.getClassName()) && names.contains(d.getMethodName());
            }
            for (Description child : d.getChildren()) {
                if (shouldRun(child)) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public String describe() {
            return "stress gate candidates of " + className;
        }
    }

    /** Writes started/finished lines, each flushed to the file before the test goes on. */
    private static final class Listener extends RunListener {
        private final OutputStream out;
        private final String task;
        private final List<Description> failed = new ArrayList<Description>();
        private final List<Description> assumed = new ArrayList<Description>();
        private long startedAt;

        Listener(OutputStream out, String task) {
            this.out = out;
            this.task = task;
        }

        @Override
        public void testStarted(Description d) throws IOException {
            startedAt = System.nanoTime();
            write("{\"task\":" + quote(task) + ",\"event\":\"started\",\"className\":" + quote(d.getClassName())
                    + ",\"name\":" + quote(d.getMethodName()) + "}");
        }

        @Override
        public void testFailure(Failure f) {
            failed.add(f.getDescription());
        }

        @Override
        public void testAssumptionFailure(Failure f) {
            assumed.add(f.getDescription());
        }

        @Override
        public void testFinished(Description d) throws IOException {
            String result = failed.contains(d) ? "FAILURE" : assumed.contains(d) ? "SKIPPED" : "SUCCESS";
            finished(d, result, (System.nanoTime() - startedAt) / 1000000L);
        }

        @Override
        public void testIgnored(Description d) throws IOException {
            finished(d, "SKIPPED", 0L);
        }

        private void finished(Description d, String result, long ms) throws IOException {
            write("{\"task\":" + quote(task) + ",\"className\":" + quote(d.getClassName()) + ",\"name\":"
                    + quote(d.getMethodName()) + ",\"result\":\"" + result + "\",\"durationMs\":" + ms + "}");
        }

        private void write(String line) throws IOException {
            out.write((line + "\n").getBytes(UTF8));
            out.flush();
        }
    }

    static String quote(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }
}
