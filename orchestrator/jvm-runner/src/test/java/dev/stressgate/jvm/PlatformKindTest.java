package dev.stressgate.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JUnit Platform kind in a real runner JVM: selection by unique ID, several in order, no such test and why. */
class PlatformKindTest {
    private static final String CLASS = "[engine:junit-jupiter]/[class:fixtures.PlatformSample]";
    private static final String ADDS = CLASS + "/[test-template:adds(int)]";
    private static final String PLATFORM = "/org/junit/platform/junit-platform-";
    private static final List<String> JUPITER = RunnerJvm.classPath(RunnerJvm.jars(PLATFORM, "/org/junit/jupiter/", "/org/opentest4j/", "/org/apiguardian/"));
    /** The shape of the bug: the project's test class path (Jupiter's API, vintage) and the launcher, but not the Jupiter engine Surefire added at run time. */
    private static final List<String> WITHOUT_JUPITER_ENGINE = RunnerJvm.classPath(RunnerJvm.jars(PLATFORM, "/junit-jupiter-api/", "/junit-jupiter-params/",
        "/org/junit/vintage/", "/junit/junit/", "/org/hamcrest/hamcrest-core/", "/org/opentest4j/", "/org/apiguardian/"));

    @Test
    void runsExactlyTheSelectedInvocation(@TempDir Path dir) throws Exception {
        RunnerJvm.Run run = RunnerJvm.run(dir, JUPITER, "platform", Collections.<String>emptyList(), "select " + ADDS + "/[test-template-invocation:#2]");
        assertEquals(0, run.exitCode, run.toString());
        assertEquals(Collections.singletonList("[2] 2=FAILURE"), run.events("finished").stream()
            .map(l -> l.get("displayName").getAsString() + "=" + l.get("result").getAsString()).collect(Collectors.toList()), run.toString());
        assertEquals(ADDS + "/[test-template-invocation:#2]", run.events("finished").get(0).get("uniqueId").getAsString());
        assertEquals("adds(int)[2]", run.events("finished").get(0).get("legacyName").getAsString());
        assertEquals("ran with 2", run.events("finished").get(0).getAsJsonObject("failure").get("message").getAsString());
    }

    @Test
    void runsSeveralSelectionsInOneExecutionInTheEnginesOrderEachRecorded(@TempDir Path dir) throws Exception {
        RunnerJvm.Run run = RunnerJvm.run(dir, JUPITER, "platform", Collections.<String>emptyList(),
            "select " + CLASS + "/[method:second()]",
            "select " + ADDS + "/[test-template-invocation:#3]",
            "select " + CLASS + "/[method:first()]",
            "select " + ADDS + "/[test-template-invocation:#1]");
        assertEquals(0, run.exitCode, run.toString());
        // The engine's order, as the build ran them, whatever the request's: one execution of the class.
        assertEquals(Arrays.asList("second()=SUCCESS", "adds(int)[1]=SUCCESS", "adds(int)[3]=SUCCESS", "first()=SUCCESS"), run.events("finished").stream()
            .map(l -> l.get("legacyName").getAsString() + "=" + l.get("result").getAsString()).collect(Collectors.toList()), run.toString());
        assertEquals(Arrays.asList("second()", "adds(int)[1]", "adds(int)[3]", "first()"),
            run.events("started").stream().map(l -> l.get("legacyName").getAsString()).collect(Collectors.toList()));
        assertEquals(Collections.emptyList(), run.unrunnable());
        // The class's @BeforeAll ran once for all four, as in the build.
        assertEquals(4, run.stdout.split("set up 1 time\\(s\\)", -1).length - 1, run.toString());
    }

    @Test
    void saysWhichEnginesItHadForATestItCannotFind(@TempDir Path dir) throws Exception {
        String noMethod = CLASS + "/[method:gone()]";
        String noInvocation = ADDS + "/[test-template-invocation:#9]";
        String noEngine = "[engine:spock]/[spec:Gone]";
        RunnerJvm.Run run = RunnerJvm.run(dir, JUPITER, "platform", Collections.<String>emptyList(),
            "select " + noMethod, "select " + noInvocation, "select " + CLASS + "/[method:first()]", "select " + noEngine);
        assertEquals(0, run.exitCode, run.toString());
        String engines = "the JUnit Platform found no such test; test engines on the class path: junit-jupiter 5.14.4";
        assertEquals(Arrays.asList(
            noMethod + " => " + engines,
            noEngine + " => " + engines + " (no spock engine, which the unique ID names)",
            // A test template's invocations exist only once it runs: found missing after the run.
            noInvocation + " => " + engines),
            run.unrunnable(), run.toString());
        assertEquals(Collections.singletonList("first()=SUCCESS"), run.results());
    }

    @Test
    void withoutTheJupiterEngineSaysSoAndNamesTheEnginesItSaw(@TempDir Path dir) throws Exception {
        String id = CLASS + "/[method:first()]";
        RunnerJvm.Run run = RunnerJvm.run(dir, WITHOUT_JUPITER_ENGINE, "platform", Collections.<String>emptyList(), "select " + id);
        assertEquals(Collections.singletonList(id + " => the JUnit Platform found no such test; test engines on the class path: "
            + "junit-vintage 5.14.4 (no junit-jupiter engine, which the unique ID names)"), run.unrunnable(), run.toString());
        assertEquals(Collections.emptyList(), run.results());
        assertTrue(run.stderr.contains("stress-gate runner: the JUnit Platform found no such test;"), run.stderr);
    }

    @Test
    void withoutTheLauncherNothingRuns(@TempDir Path dir) throws Exception {
        RunnerJvm.Run run = RunnerJvm.run(dir, RunnerJvm.classPath(RunnerJvm.jars("/junit-jupiter-api/", "/org/opentest4j/")), "platform",
            Collections.<String>emptyList(), "select " + CLASS + "/[method:first()]");
        assertEquals(2, run.exitCode, run.toString());
        assertEquals(Collections.singletonList("null => the JUnit Platform launcher (junit-platform-launcher) is not on the class path"), run.unrunnable(), run.toString());
    }
}
