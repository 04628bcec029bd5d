package dev.stressgate.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JUnit 4 kind in a real runner JVM: selection by class and name, outcomes, no such test. */
class Junit4KindTest {
    private static final List<String> JUNIT4 = RunnerJvm.classPath(RunnerJvm.jars("/junit/junit/", "/org/hamcrest/hamcrest-core/"));

    @Test
    void runsTheSelectedTestsInOrderWithTheirOutcomes(@TempDir Path dir) throws Exception {
        RunnerJvm.Run run = RunnerJvm.run(dir, JUNIT4, "junit4", Collections.<String>emptyList(),
            "test fixtures.Junit4Sample\tfails",
            "test fixtures.Junit4Params\tadds[1]",
            "test fixtures.Junit4Sample\tpasses",
            "test fixtures.Junit4Sample\tignored",
            "test fixtures.Junit4Sample\tassumes");
        assertEquals(0, run.exitCode, run.toString());
        // A class at a time, in the request's order of classes; within a class its runner's order, as the build ran it.
        assertEquals(Arrays.asList("passes=SUCCESS", "assumes=SKIPPED", "fails=FAILURE", "ignored=SKIPPED", "adds[1]=FAILURE"), run.results(), run.toString());
        assertEquals(Collections.emptyList(), run.unrunnable(), run.toString());

        JsonObject fails = run.events("finished").get(2);
        assertEquals("fixtures.Junit4Sample", fails.get("className").getAsString());
        JsonObject failure = fails.getAsJsonObject("failure");
        assertEquals("java.lang.IllegalStateException", failure.get("type").getAsString());
        assertEquals("fails on purpose", failure.get("message").getAsString());
        assertTrue(failure.get("trace").getAsString().contains("at fixtures.Junit4Sample.fails(Junit4Sample.java:"), failure.toString());
        // adds[1] alone ran: its value is 2, the only one that fails.
        assertEquals("ran with 2", run.events("finished").get(4).getAsJsonObject("failure").get("message").getAsString());
        assertEquals(4, run.events("started").size(), "an ignored test is finished without starting: " + run);
    }

    @Test
    void saysWhyASelectionCannotRunAndRunsTheOthers(@TempDir Path dir) throws Exception {
        RunnerJvm.Run run = RunnerJvm.run(dir, JUNIT4, "junit4", Collections.<String>emptyList(),
            "test fixtures.Junit4Sample\tnoSuchMethod",
            "test shop.NoSuchClass\tadds",
            "test fixtures.Junit4Params\tadds[7]",
            "test fixtures.Junit4Sample\tpasses");
        assertEquals(0, run.exitCode, run.toString());
        assertEquals(Arrays.asList(
            "fixtures.Junit4Sample\tnoSuchMethod => JUnit 4 found no such test in its class (runner org.junit.runners.JUnit4)",
            "shop.NoSuchClass\tadds => class cannot be loaded: java.lang.ClassNotFoundException: shop.NoSuchClass",
            "fixtures.Junit4Params\tadds[7] => JUnit 4 found no such test in its class (runner org.junit.runners.Parameterized)"),
            run.unrunnable(), run.toString());
        assertEquals(Collections.singletonList("passes=SUCCESS"), run.results(), "no initializationError of a filter: " + run);
        assertTrue(run.stderr.contains("stress-gate runner: JUnit 4 found no such test in its class"), run.stderr);
    }

    @Test
    void aClassWhoseRunnerCannotBeBuiltFailsTheSelection(@TempDir Path dir) throws Exception {
        RunnerJvm.Run run = RunnerJvm.run(dir, JUNIT4, "junit4", Collections.<String>emptyList(), "test fixtures.Junit4Broken\tadds[0]");
        assertEquals(Collections.singletonList("adds[0]=FAILURE"), run.results(), run.toString());
        assertEquals("no parameters in this JVM", run.events("finished").get(0).getAsJsonObject("failure").get("message").getAsString(), run.toString());
    }

    @Test
    void anOrderSequenceRunsEachStepAloneInOrderRepeatsIncluded(@TempDir Path dir) throws Exception {
        RunnerJvm.Run run = RunnerJvm.run(dir, JUNIT4, "junit4", Collections.<String>emptyList(),
            "order sequence",
            "test fixtures.Junit4Order\tneedsClean",
            "test fixtures.Junit4Order\tpollutes",
            "test fixtures.Junit4Order\tneedsClean",
            "test fixtures.Junit4Sample\tpasses");
        assertEquals(0, run.exitCode, run.toString());
        // The request's order, not the class's; the repeated step ran again, after the polluter.
        assertEquals(Arrays.asList("needsClean=SUCCESS", "pollutes=SUCCESS", "needsClean=FAILURE", "passes=SUCCESS"), run.results(), run.toString());
        assertEquals(4, run.events("step").size(), run.toString());
        assertEquals(3, run.events("step").get(3).get("index").getAsInt(), run.toString());
    }
}
