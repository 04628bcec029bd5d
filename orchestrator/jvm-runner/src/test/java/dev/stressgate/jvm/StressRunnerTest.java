package dev.stressgate.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runner's own lines in a real runner JVM: the jvm line first, and a runner that cannot start. */
class StressRunnerTest {
    private static final List<String> JUNIT4 = RunnerJvm.classPath(RunnerJvm.jars("/junit/junit/", "/org/hamcrest/hamcrest-core/"));

    @Test
    void describesItsOwnJvmBeforeAnyTestRuns(@TempDir Path dir) throws Exception {
        RunnerJvm.Run run = RunnerJvm.run(dir, JUNIT4, "junit4", Arrays.asList("-Dfrom.jvm.args=yes", "-Xmx192m"),
            "property from.request=a\\tb", "test fixtures.Junit4Sample\tpasses");
        assertEquals(0, run.exitCode, run.toString());
        JsonObject jvm = run.lines.get(0);
        assertEquals("jvm", jvm.get("event").getAsString(), run.toString());
        assertEquals(String.join(File.pathSeparator, JUNIT4), jvm.get("classPath").getAsString());
        assertEquals(dir.toFile().getCanonicalPath(), new File(jvm.get("userDir").getAsString()).getCanonicalPath());
        assertEquals(System.getProperty("java.home"), jvm.get("javaHome").getAsString());
        assertTrue(jvm.getAsJsonArray("inputArguments").toString().contains("\"-Dfrom.jvm.args=yes\",\"-Xmx192m\""), jvm.toString());
        JsonObject props = jvm.getAsJsonObject("systemProperties");
        assertEquals("a\tb", props.get("from.request").getAsString(), "the request's properties are set first");
        assertEquals("yes", props.get("from.jvm.args").getAsString());
        assertEquals(System.getenv("PATH"), jvm.getAsJsonObject("environment").get("PATH").getAsString());
        assertEquals(Arrays.asList("jvm", "started", "finished"), Arrays.asList(
            run.lines.get(0).get("event").getAsString(), run.lines.get(1).get("event").getAsString(), run.lines.get(2).get("event").getAsString()));
    }

    @Test
    void describesNothingWhenAskedNotToAndEndsWithItsPhases(@TempDir Path dir) throws Exception {
        long before = System.currentTimeMillis();
        RunnerJvm.Run run = RunnerJvm.run(dir, JUNIT4, "junit4", Collections.<String>emptyList(), "describe no", "test fixtures.Junit4Sample\tpasses");
        assertEquals(0, run.exitCode, run.toString());
        assertEquals(Arrays.asList("started", "finished", "phases"), Arrays.asList(
            run.lines.get(0).get("event").getAsString(), run.lines.get(1).get("event").getAsString(), run.lines.get(2).get("event").getAsString()));
        JsonObject phases = run.lines.get(2);
        long started = phases.get("startedAt").getAsLong();
        long discovered = phases.get("discoveredAt").getAsLong();
        long finished = phases.get("finishedAt").getAsLong();
        assertTrue(before <= started && started <= discovered && discovered <= finished && finished <= System.currentTimeMillis(), phases.toString());
    }

    @Test
    void namesSecretLookingVariablesByTheirFingerprintNeverTheirValues(@TempDir Path dir) throws Exception {
        RunnerJvm.Run run = RunnerJvm.run(dir, JUNIT4, "junit4", Collections.<String>emptyList(),
            Collections.singletonMap("DB_PASSWORD", "hunter2"), "test fixtures.Junit4Sample\tpasses");
        assertEquals(0, run.exitCode, run.toString());
        JsonObject jvm = run.lines.get(0);
        assertEquals("f52fbd32b2b3b86ff88ef6c490628285f482af15ddcb29541f94bcf526a3f6c7",
            jvm.getAsJsonObject("secretEnvironment").get("DB_PASSWORD").getAsString(), "the SHA-256 of hunter2");
        assertTrue(!jvm.getAsJsonObject("environment").has("DB_PASSWORD"), jvm.toString());
        assertTrue(!new String(Files.readAllBytes(dir.resolve("results.jsonl")), StandardCharsets.UTF_8).contains("hunter2"));
    }

    @Test
    void aRunnerThatCannotStartSaysWhyInTheResults(@TempDir Path dir) throws Exception {
        RunnerJvm.Run run = RunnerJvm.run(dir, JUNIT4, "cucumber", Collections.<String>emptyList(), "test fixtures.Junit4Sample\tpasses");
        assertEquals(2, run.exitCode, run.toString());
        assertEquals(Collections.singletonList("null => the runner could not start: java.lang.IllegalArgumentException: unknown runner kind: cucumber"),
            run.unrunnable(), run.toString());
        assertTrue(run.stderr.startsWith("stress-gate runner: "), run.stderr);
    }

    @Test
    void aFrameworkMissingFromTheClassPathRunsNothing(@TempDir Path dir) throws Exception {
        RunnerJvm.Run run = RunnerJvm.run(dir, RunnerJvm.classPath(Collections.<String>emptyList()), "testng", Collections.<String>emptyList(),
            "test fixtures.NgSample\tplain\tplain\t-1");
        assertEquals(2, run.exitCode, run.toString());
        assertEquals(Collections.singletonList("null => TestNG is not on the class path"), run.unrunnable(), run.toString());
    }
}
