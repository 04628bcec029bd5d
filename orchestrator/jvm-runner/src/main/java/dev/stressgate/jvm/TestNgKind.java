package dev.stressgate.jvm;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
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
 * The TestNG runner kind: one suite holding the selected methods of each class. Each selection is
 * {@code test <class> TAB <name> TAB <method> TAB <invocation>}: the name is the JUnit XML's (what
 * the result is recorded under), the method and the 0-based invocation of a data-provider method
 * are what the orchestrator read from it (-1: every invocation), since Gradle ({@code adds[0](1, 1, 2)})
 * and Surefire ({@code adds[1, 1, 2](1)}) write them differently.
 */
final class TestNgKind {
    private TestNgKind() {}

    static Runnable prepare(Request request) throws Exception {
        Map<String, XmlClass> classes = new LinkedHashMap<>();
        // (class, method, invocation or -1) -> the name it was selected by
        Map<String, String> selectedAs = new LinkedHashMap<>();
        XmlSuite suite = new XmlSuite();
        suite.setName("stress-gate");
        XmlTest test = new XmlTest(suite);
        test.setName("stress-gate");
        for (String[] t : request.tests) {
            XmlClass xmlClass = classes.get(t[0]);
            if (xmlClass == null) {
                xmlClass = new XmlClass(t[0], false);
                classes.put(t[0], xmlClass);
                test.getXmlClasses().add(xmlClass);
            }
            String method = t.length > 3 ? t[2] : t[1];
            int invocation = t.length > 3 ? Integer.parseInt(t[3]) : -1;
            List<Integer> numbers = invocation < 0 ? Collections.<Integer>emptyList() : Collections.singletonList(invocation);
            xmlClass.getIncludedMethods().add(new XmlInclude(method, new ArrayList<>(numbers), xmlClass.getIncludedMethods().size()));
            selectedAs.put(t[0] + "#" + method + "#" + invocation, t[1]);
        }
        Recorder recorder = new Recorder(request.out);
        TestNG testng = new TestNG(false);
        testng.setUseDefaultListeners(false);
        testng.setVerbose(0);
        testng.setXmlSuites(Collections.singletonList(suite));
        testng.addListener(new Listener(recorder, selectedAs));
        return () -> {
            testng.run();
            recorder.close();
        };
    }

    /** Implements every method (TestNG 6 has no default methods) and records each result once. */
    private static final class Listener implements ITestListener {
        private final Recorder recorder;
        private final Map<String, String> selectedAs;

        Listener(Recorder recorder, Map<String, String> selectedAs) {
            this.recorder = recorder;
            this.selectedAs = selectedAs;
        }

        /** The name the result was selected by: the only selection of its method, else by its data-provider index. */
        private String name(ITestResult r) {
            String key = r.getTestClass().getName() + "#" + r.getMethod().getMethodName() + "#";
            String only = null;
            int count = 0;
            for (Map.Entry<String, String> e : selectedAs.entrySet()) {
                if (e.getKey().startsWith(key)) {
                    only = e.getValue();
                    count++;
                }
            }
            if (count == 1) return only;
            String exact = selectedAs.get(key + parameterIndex(r));
            return exact != null ? exact : r.getMethod().getMethodName();
        }

        /** ITestResult.getParameterIndex() where TestNG has it (7.x), else -1. */
        private static int parameterIndex(ITestResult r) {
            try {
                return (Integer) ITestResult.class.getMethod("getParameterIndex").invoke(r);
            } catch (ReflectiveOperationException | RuntimeException e) {
                return -1;
            }
        }

        private void finished(ITestResult r, String status) {
            long ms = Math.max(0, r.getEndMillis() - r.getStartMillis());
            recorder.finished(r.getTestClass().getName(), name(r), null, status, ms, status.equals("FAILURE") ? r.getThrowable() : null);
        }

        @Override public void onTestStart(ITestResult r) { recorder.started(r.getTestClass().getName(), name(r), null); }
        @Override public void onTestSuccess(ITestResult r) { finished(r, "SUCCESS"); }
        @Override public void onTestFailure(ITestResult r) { finished(r, "FAILURE"); }
        @Override public void onTestSkipped(ITestResult r) { finished(r, "SKIPPED"); }
        @Override public void onTestFailedButWithinSuccessPercentage(ITestResult r) { finished(r, "FAILURE"); }
        @Override public void onStart(ITestContext context) { }
        @Override public void onFinish(ITestContext context) { }
    }
}
