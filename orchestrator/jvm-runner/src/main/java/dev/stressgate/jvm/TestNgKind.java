package dev.stressgate.jvm;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.testng.ITestContext;
import org.testng.ITestListener;
import org.testng.ITestResult;
import org.testng.TestNG;
import org.testng.xml.XmlClass;
import org.testng.xml.XmlInclude;
import org.testng.xml.XmlSuite;
import org.testng.xml.XmlTest;

/**
 * The TestNG runner kind: one suite for each selection, in the request's order, holding the
 * selected method of its class. Each selection is
 * {@code test <class> TAB <name> TAB <method> TAB <invocation>}: the name is the JUnit XML's (what
 * the result is recorded under), the method and the 0-based invocation of a data-provider method
 * are what the orchestrator read from it (-1: every invocation), since Gradle ({@code adds[0](1, 1, 2)})
 * and Surefire ({@code adds[1, 1, 2](1)}) write them differently.
 */
final class TestNgKind {
    private TestNgKind() {}

    /** Loads and checks every selection now (an unrunnable one is recorded at once); the Runnable runs the others in order. */
    static Runnable prepare(Request request, Recorder recorder) {
        Map<String, String> loadErrors = new HashMap<>();
        List<Runnable> runs = new ArrayList<>();
        for (String[] t : request.tests) {
            String selector = Request.selector(t);
            String loadError = loadErrors.computeIfAbsent(t[0], TestNgKind::loadError);
            if (!loadError.isEmpty()) {
                recorder.unrunnable(selector, "class cannot be loaded: " + loadError);
                continue;
            }
            String method = t.length > 3 ? t[2] : t[1];
            int invocation = t.length > 3 ? Integer.parseInt(t[3]) : -1;
            TestNG testng = testng(t[0], method, invocation);
            Listener listener = new Listener(recorder, t[1]);
            testng.addListener(listener);
            runs.add(() -> {
                testng.run();
                if (!listener.ran) recorder.unrunnable(selector, "TestNG ran no such test (" + version() + ")");
            });
        }
        return () -> {
            for (Runnable run : runs) run.run();
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

    /** A TestNG of one suite holding one method of one class (one of its invocations when {@code invocation} is not -1). */
    private static TestNG testng(String className, String method, int invocation) {
        XmlSuite suite = new XmlSuite();
        suite.setName("stress-gate");
        XmlTest test = new XmlTest(suite);
        test.setName("stress-gate");
        XmlClass xmlClass = new XmlClass(className, false);
        test.getXmlClasses().add(xmlClass);
        List<Integer> numbers = invocation < 0 ? new ArrayList<Integer>() : new ArrayList<>(Collections.singletonList(invocation));
        xmlClass.getIncludedMethods().add(new XmlInclude(method, numbers, 0));
        TestNG testng = new TestNG(false);
        testng.setUseDefaultListeners(false);
        testng.setVerbose(0);
        testng.setXmlSuites(Collections.singletonList(suite));
        return testng;
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

    /** Implements every method (TestNG 6 has no default methods) and records each result once, under the selected name. */
    private static final class Listener implements ITestListener {
        private final Recorder recorder;
        private final String name;
        /** A result was recorded: the selection matched a test. */
        volatile boolean ran;

        Listener(Recorder recorder, String name) {
            this.recorder = recorder;
            this.name = name;
        }

        private void finished(ITestResult r, String status) {
            ran = true;
            long ms = Math.max(0, r.getEndMillis() - r.getStartMillis());
            recorder.finished(r.getTestClass().getName(), name, null, status, ms, status.equals("FAILURE") ? r.getThrowable() : null);
        }

        @Override public void onTestStart(ITestResult r) { recorder.started(r.getTestClass().getName(), name, null); }
        @Override public void onTestSuccess(ITestResult r) { finished(r, "SUCCESS"); }
        @Override public void onTestFailure(ITestResult r) { finished(r, "FAILURE"); }
        @Override public void onTestSkipped(ITestResult r) { finished(r, "SKIPPED"); }
        @Override public void onTestFailedButWithinSuccessPercentage(ITestResult r) { finished(r, "FAILURE"); }
        @Override public void onStart(ITestContext context) { }
        @Override public void onFinish(ITestContext context) { }
    }
}
