package dev.stressgate.gradle;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.gradle.testkit.runner.BuildResult;
import org.gradle.testkit.runner.TaskOutcome;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** The first pass: the user's build with -I and -PstressGate.manifest, as the orchestrator runs it. */
public class FirstPassTest {

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    @Test
    public void describesEveryTestTaskAndRecordsEachFinishedTest() throws Exception {
        FixtureBuild build = FixtureBuild.shop(temp.newFolder("shop"));
        File manifest = new File(temp.getRoot(), "work/manifest.json");

        BuildResult result = build.run("-PstressGate.manifest=" + manifest, ":app:test");

        assertEquals(TaskOutcome.SUCCESS, result.task(":app:test").getOutcome());
        JsonObject m = FixtureBuild.json(manifest);
        assertEquals("0.1.0", m.get("pluginVersion").getAsString());
        assertEquals(FixtureBuild.GRADLE_VERSION, m.get("gradleVersion").getAsString());
        assertEquals(build.dir.getCanonicalPath(), new File(m.get("rootDir").getAsString()).getCanonicalPath());
        for (String key : Arrays.asList("mode", "serverUrl", "project", "requestTimeoutSeconds", "executor")) {
            assertTrue(key + " is null without a settings block: " + m, m.getAsJsonObject("settings").get(key).isJsonNull());
        }
        JsonArray tasks = m.getAsJsonArray("testTasks");
        assertEquals("every Test task, sorted by path: " + tasks, Arrays.asList(":app:integTest", ":app:test"), strings(tasks, "path"));
        JsonObject test = tasks.get(1).getAsJsonObject();
        assertEquals(":app", test.get("projectPath").getAsString());
        assertEquals("test", test.get("name").getAsString());
        assertEquals(build.at("app/build/test-results/test").getCanonicalPath(),
                new File(test.get("junitXmlDir").getAsString()).getCanonicalPath());

        List<JsonObject> lines = FixtureBuild.jsonLines(new File(temp.getRoot(), "work/manifest.results.jsonl"));
        assertEquals("one line per finished test, no start lines in the first pass: " + lines,
                Arrays.asList("adds=SUCCESS", "alternates=SUCCESS", "later=SKIPPED"), sorted(FixtureBuild.outcomes(lines, ":app:test")));
        assertEquals(3, lines.size());
        for (JsonObject line : lines) {
            assertEquals("shop.CartTest", line.get("className").getAsString());
            assertEquals("displayName is the name before Gradle 4.10", line.get("name"), line.get("displayName"));
            assertTrue(line.toString(), line.get("durationMs").getAsLong() >= 0);
            assertFalse("no failure details in the first pass: " + line, line.has("failure"));
        }

        // The direct executor's input: the fork settings of the task that ran, and of no other.
        JsonObject fork = FixtureBuild.json(new File(temp.getRoot(), "work/manifest.forks/app_test.json"));
        assertEquals(":app:test", fork.get("path").getAsString());
        assertEquals("junit", fork.get("framework").getAsString());
        assertTrue(fork.toString(), strings(fork.getAsJsonArray("classpath"), null).contains("/usr/share/java/junit4.jar"));
        assertEquals(build.at("app").getCanonicalPath(), new File(fork.get("workingDir").getAsString()).getCanonicalPath());
        assertFalse("integTest did not execute", new File(temp.getRoot(), "work/manifest.forks/app_integTest.json").exists());
    }

    @Test
    public void aFailingTestFailsTheBuildAndIsRecordedInAResultsLogOfThisBuildOnly() throws Exception {
        FixtureBuild build = FixtureBuild.shop(temp.newFolder("shop"));
        build.file("app/src/test/java/shop/BrokenTest.java",
                "package shop;\npublic class BrokenTest {\n    @org.junit.Test public void breaks() { throw new IllegalStateException(\"broken\"); }\n}\n");
        File manifest = new File(temp.getRoot(), "manifest.json");
        File log = new File(temp.getRoot(), "manifest.results.jsonl");
        FixtureBuild.write(log, "{\"task\":\":app:test\",\"className\":\"shop.Old\",\"name\":\"stale\",\"result\":\"SUCCESS\"}\n");

        BuildResult result = build.fail("-PstressGate.manifest=" + manifest, ":app:test");

        assertEquals(TaskOutcome.FAILED, result.task(":app:test").getOutcome());
        List<JsonObject> lines = FixtureBuild.jsonLines(log);
        assertEquals("the log of an earlier build is truncated: " + lines,
                Arrays.asList("adds=SUCCESS", "alternates=SUCCESS", "breaks=FAILURE", "later=SKIPPED"), sorted(FixtureBuild.outcomes(lines, null)));
    }

    @Test
    public void readsTheSettingsBlockAndTheInitScriptDoesNotApplyThePluginAgain() throws Exception {
        FixtureBuild build = FixtureBuild.shop(temp.newFolder("shop"));
        build.file("settings.gradle", settingsWithBlock("mode = 'enforce'\n    serverUrl = 'https://stress.example.com'\n"
                + "    project = 'acme/shop'\n    requestTimeoutSeconds = 7\n    executor = 'gradle'"));
        File manifest = new File(temp.getRoot(), "manifest.json");

        build.run("-PstressGate.manifest=" + manifest, ":app:test");

        JsonObject settings = FixtureBuild.json(manifest).getAsJsonObject("settings");
        assertEquals("enforce", settings.get("mode").getAsString());
        assertEquals("https://stress.example.com", settings.get("serverUrl").getAsString());
        assertEquals("acme/shop", settings.get("project").getAsString());
        assertEquals(7, settings.get("requestTimeoutSeconds").getAsInt());
        assertEquals("gradle", settings.get("executor").getAsString());
        List<JsonObject> lines = FixtureBuild.jsonLines(new File(temp.getRoot(), "manifest.results.jsonl"));
        assertEquals("applied twice would record each test twice: " + lines, 3, lines.size());
    }

    @Test
    public void aModeOutsideTheListFailsTheBuild() throws Exception {
        FixtureBuild build = FixtureBuild.shop(temp.newFolder("shop"));
        build.file("settings.gradle", settingsWithBlock("mode = 'sometimes'"));

        BuildResult result = build.fail("-PstressGate.manifest=" + new File(temp.getRoot(), "manifest.json"), ":app:test");

        assertTrue(result.getOutput(), result.getOutput().contains("stressNewTests.mode: expected one of report, enforce, off; got 'sometimes'"));
        assertNull(result.task(":app:test"));
    }

    @Test
    public void withoutTheOrchestratorABlockWithAModeOnlyPrintsHowToRunTheGate() throws Exception {
        FixtureBuild build = FixtureBuild.shop(temp.newFolder("shop"));
        build.file("settings.gradle", settingsWithBlock("mode = 'report'"));

        BuildResult result = build.plainGradle(":app:test").build();

        assertTrue(result.getOutput(), result.getOutput().contains("stress gate: stressNewTests mode 'report' applies only when"
                + " stress-orchestrator runs the build; this build runs unchanged. Run the gate with:"
                + " npx -p @stress-gate/orchestrator stress-orchestrator gradle --stress-new-tests report -- :app:test"));
        assertEquals(TaskOutcome.SUCCESS, result.task(":app:test").getOutcome());
        assertTrue(build.at("app/build/test-results/test/TEST-shop.CartTest.xml").isFile());
    }

    /** The fixture's settings applying the plugin from the jar, with a {@code stressNewTests} block. */
    static String settingsWithBlock(String block) {
        return "buildscript { dependencies { classpath files('" + FixtureBuild.PLUGIN_JAR + "') } }\n"
                + "apply plugin: dev.stressgate.gradle.StressNewTestsPlugin\n"
                + "rootProject.name = 'shop'\ninclude 'app'\n"
                + "stressNewTests {\n    " + block + "\n}\n";
    }

    private static List<String> strings(JsonArray array, String key) {
        List<String> out = new ArrayList<String>();
        for (JsonElement e : array) {
            out.add(key == null ? e.getAsString() : e.getAsJsonObject().get(key).getAsString());
        }
        return out;
    }

    private static List<String> sorted(List<String> list) {
        List<String> copy = new ArrayList<String>(list);
        Collections.sort(copy);
        return copy;
    }
}
