package dev.stressgate.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The TestNG kind in a real runner JVM: a data-provider invocation, no such test and why. */
class TestNgKindTest {
    private static final List<String> TESTNG = RunnerJvm.classPath(RunnerJvm.jars("/org/testng/testng/", "/com/beust/jcommander/"));

    @Test
    void runsExactlyTheSelectedDataProviderInvocation(@TempDir Path dir) throws Exception {
        RunnerJvm.Run run = RunnerJvm.run(dir, TESTNG, "testng", Collections.<String>emptyList(),
            "test fixtures.NgSample\tadds[1](2)\tadds\t1",
            "test fixtures.NgSample\tplain\tplain\t-1");
        assertEquals(0, run.exitCode, run.toString());
        assertEquals(Arrays.asList("adds[1](2)=FAILURE", "plain=SUCCESS"), run.results(), run.toString());
        assertEquals("ran with 2", run.events("finished").get(0).getAsJsonObject("failure").get("message").getAsString());
        assertEquals(Collections.emptyList(), run.unrunnable());
    }

    @Test
    void runsSeveralInvocationsOfOneMethodInOneRunEachRecordedUnderItsName(@TempDir Path dir) throws Exception {
        RunnerJvm.Run run = RunnerJvm.run(dir, TESTNG, "testng", Collections.<String>emptyList(),
            "test fixtures.NgSample\tadds[0](1)\tadds\t0",
            "test fixtures.NgSample\tadds[2](3)\tadds\t2");
        assertEquals(0, run.exitCode, run.toString());
        assertEquals(Arrays.asList("adds[0](1)=SUCCESS", "adds[2](3)=SUCCESS"), run.results(), run.toString());
        assertEquals(Collections.emptyList(), run.unrunnable());
    }

    @Test
    void saysWhyASelectionCannotRun(@TempDir Path dir) throws Exception {
        RunnerJvm.Run run = RunnerJvm.run(dir, TESTNG, "testng", Collections.<String>emptyList(),
            "test fixtures.NgSample\tgone\tgone\t-1",
            "test fixtures.NgSample\tadds[5](9)\tadds\t5",
            "test shop.NoSuchClass\tadds\tadds\t-1",
            "test fixtures.NgSample\tplain\tplain\t-1");
        assertEquals(0, run.exitCode, run.toString());
        assertEquals(Arrays.asList(
            "shop.NoSuchClass\tadds\tadds\t-1 => class cannot be loaded: java.lang.ClassNotFoundException: shop.NoSuchClass",
            "fixtures.NgSample\tgone\tgone\t-1 => TestNG ran no such test (TestNG 7.5.1)",
            "fixtures.NgSample\tadds[5](9)\tadds\t5 => TestNG ran no such test (TestNG 7.5.1)"),
            run.unrunnable(), run.toString());
        assertEquals(Collections.singletonList("plain=SUCCESS"), run.results(), run.toString());
    }
}
