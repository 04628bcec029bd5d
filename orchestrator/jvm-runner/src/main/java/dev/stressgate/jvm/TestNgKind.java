package dev.stressgate.jvm;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.testng.ITestContext;
import org.testng.ITestListener;
import org.testng.ITestResult;
import org.testng.TestNG;
import org.testng.xml.XmlClass;
import org.testng.xml.XmlInclude;
import org.testng.xml.XmlSuite;
import org.testng.xml.XmlTest;

/**
 * The TestNG runner kind: one suite holding the selected methods of each class, run once, as the
 * build ran them (a class's {@code @BeforeClass} and a data provider run once for all its selected
 * invocations). Each selection is {@code test <class> TAB <name> TAB <method> TAB <invocation>}: the
 * name is the JUnit XML's (what the result is recorded under), the method and the 0-based
 * invocation of a data-provider method are what the orchestrator read from it (-1: every
 * invocation), since Gradle ({@code adds[0](1, 1, 2)}) and Surefire ({@code adds[1, 1, 2](1)})
 * write them differently.
 */
final class TestNgKind {
    private TestNgKind() {}

    /** Loads and checks every selection now (an unrunnable one is recorded at once); the Runnable runs the others. */
    static Runnable prepare(Request request, Recorder recorder) {
        Map<String, String> loadErrors = new HashMap<>();
        // (class#method#invocation) -> the selection, in the request's order
        Map<String, String[]> selected = new LinkedHashMap<>();
        // class -> method -> the invocations selected (none: every invocation), in the request's order
        Map<String, Map<String, List<Integer>>> methods = new LinkedHashMap<>();
        for (String[] t : request.tests) {
            String loadError = loadErrors.computeIfAbsent(t[0], TestNgKind::loadError);
            if (!loadError.isEmpty()) {
                recorder.unrunnable(Request.selector(t), "class cannot be loaded: " + loadError);
                continue;
            }
            String method = t.length > 3 ? t[2] : t[1];
            int invocation = t.length > 3 ? Integer.parseInt(t[3]) : -1;
            selected.put(t[0] + "#" + method + "#" + invocation, t);
            List<Integer> numbers = methods.computeIfAbsent(t[0], k -> new LinkedHashMap<>()).computeIfAbsent(method, k -> new ArrayList<>());
            if (invocation >= 0) numbers.add(invocation);
        }
        XmlSuite suite = new XmlSuite();
        suite.setName("stress-gate");
        XmlTest test = new XmlTest(suite);
        test.setName("stress-gate");
        for (Map.Entry<String, Map<String, List<Integer>>> c : methods.entrySet()) {
            XmlClass xmlClass = new XmlClass(c.getKey(), false);
            for (Map.Entry<String, List<Integer>> m : c.getValue().entrySet()) {
                // Every invocation selected (-1) wins over single ones: an include with no numbers runs them all.
                List<Integer> numbers = selected.containsKey(c.getKey() + "#" + m.getKey() + "#-1") ? new ArrayList<Integer>() : m.getValue();
                xmlClass.getIncludedMethods().add(new XmlInclude(m.getKey(), numbers, xmlClass.getIncludedMethods().size()));
            }
            test.getXmlClasses().add(xmlClass);
        }
        if (selected.isEmpty()) return () -> { };
        TestNG testng = new TestNG(false);
        testng.setUseDefaultListeners(false);
        testng.setVerbose(0);
        testng.setXmlSuites(Collections.singletonList(suite));
        Listener listener = new Listener(recorder, selected);
        testng.addListener(listener);
        return () -> {
            testng.run();
            for (Map.Entry<String, String[]> e : selected.entrySet()) {
                if (!listener.ran.contains(e.getKey())) recorder.unrunnable(Request.selector(e.getValue()), "TestNG ran no such test (" + version() + ")");
            }
        };
    }

    /** Why the class cannot be loaded, or "" when it can. */
    private static String loadError(String className) {
        try {
            Class.forName(className, false, TestNgKind.class.getClassLoader());
            return "";
        } catch (ClassNotFoundException | LinkageError e) {
            return e.toString();
        }
    }

    /** "TestNG 7.5.1", or "TestNG, version unknown". */
    private static String version() {
        String v = TestNG.class.getPackage() == null ? null : TestNG.class.getPackage().getImplementationVersion();
        if (v == null) {
            try {
                v = String.valueOf(Class.forName("org.testng.internal.Version").getField("VERSION").get(null));
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                // Neither the manifest nor the class says it.
            }
        }
        return v == null ? "TestNG, version unknown" : "TestNG " + v;
    }

    /** Implements every method (TestNG 6 has no default methods) and records each selected result once, under its selection's name. */
    private static final class Listener implements ITestListener {
        private final Recorder recorder;
        private final Map<String, String[]> selected;
        /** The keys of the selections a result was recorded for. */
        final Set<String> ran = ConcurrentHashMap.newKeySet();

        Listener(Recorder recorder, Map<String, String[]> selected) {
            this.recorder = recorder;
            this.selected = selected;
        }

        /** The selection a result is: its method's invocation, else the method's every invocation; null when not selected. */
        private String keyOf(ITestResult r) {
            String prefix = r.getTestClass().getName() + "#" + r.getMethod().getMethodName() + "#";
            String exact = prefix + parameterIndex(r);
            if (selected.containsKey(exact)) return exact;
            return selected.containsKey(prefix + "-1") ? prefix + "-1" : null;
        }

        /**
         * The result's data-provider index: TestResult.getParameterIndex() where TestNG has it (7.x has
         * it on the class, not on the ITestResult interface), else the one invocation selected of the
         * method, else -1.
         */
        private int parameterIndex(ITestResult r) {
            try {
                return (Integer) r.getClass().getMethod("getParameterIndex").invoke(r);
            } catch (ReflectiveOperationException | RuntimeException e) {
                String prefix = r.getTestClass().getName() + "#" + r.getMethod().getMethodName() + "#";
                int only = -1;
                int count = 0;
                for (String k : selected.keySet()) {
                    if (k.startsWith(prefix)) {
                        only = Integer.parseInt(k.substring(prefix.length()));
                        count++;
                    }
                }
                return count == 1 ? only : -1;
            }
        }

        private void started(ITestResult r) {
            String key = keyOf(r);
            if (key != null) recorder.started(r.getTestClass().getName(), selected.get(key)[1], null);
        }

        private void finished(ITestResult r, String status) {
            String key = keyOf(r);
            if (key == null) return;
            ran.add(key);
            long ms = Math.max(0, r.getEndMillis() - r.getStartMillis());
            recorder.finished(r.getTestClass().getName(), selected.get(key)[1], null, status, ms, status.equals("FAILURE") ? r.getThrowable() : null);
        }

        @Override public void onTestStart(ITestResult r) { started(r); }
        @Override public void onTestSuccess(ITestResult r) { finished(r, "SUCCESS"); }
        @Override public void onTestFailure(ITestResult r) { finished(r, "FAILURE"); }
        @Override public void onTestSkipped(ITestResult r) { finished(r, "SKIPPED"); }
        @Override public void onTestFailedButWithinSuccessPercentage(ITestResult r) { finished(r, "FAILURE"); }
        @Override public void onStart(ITestContext context) { }
        @Override public void onFinish(ITestContext context) { }
    }
}
