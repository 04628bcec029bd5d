package dev.stressgate.gradle;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import com.google.gson.JsonObject;
import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.gradle.testkit.runner.BuildResult;
import org.gradle.testkit.runner.TaskOutcome;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** The stress pass: -PstressGate.plan and {@code stressGateStress}, as the orchestrator's Gradle executor runs it. */
public class StressPassTest {

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    @Test
    public void repeatsEachCandidateInRepetitionTasksWithoutRecompilingOrFailingTheBuild() throws Exception {
        FixtureBuild build = FixtureBuild.shop(temp.newFolder("shop"));
        File results = new File(temp.getRoot(), "results");
        File plan = plan("{\"id\":\"t0\",\"path\":\":app:test\",\"candidates\":["
                + "{\"suite\":\"shop.CartTest\",\"name\":\"alternates\",\"repetitions\":3},"
                + "{\"suite\":\"shop.CartTest\",\"name\":\"adds\",\"repetitions\":1}]}");
        // The first pass compiles the tests and runs alternates once (run 1 passes).
        build.run("-PstressGate.manifest=" + new File(temp.getRoot(), "first/manifest.json"), ":app:test");
        File manifest = new File(temp.getRoot(), "stress/manifest.json");

        BuildResult result = build.run("--continue", "-PstressGate.manifest=" + manifest, "-PstressGate.plan=" + plan, "stressGateStress");

        assertEquals("the tests are compiled once", TaskOutcome.UP_TO_DATE, result.task(":app:compileTestJava").getOutcome());
        assertNull("the original task does not run", result.task(":app:test"));
        for (int k = 1; k <= 3; k++) {
            assertEquals(TaskOutcome.SUCCESS, result.task(":app:stressGateT0Rep" + k).getOutcome());
        }
        assertNull(result.task(":app:stressGateT0Rep4"));
        // alternates runs 2, 3, 4: fails, passes, fails; adds runs in repetition 1 only; later never.
        assertEquals(Arrays.asList("adds", "alternates"), testcases(new File(results, "t0/rep-1/TEST-shop.CartTest.xml")));
        assertEquals(Arrays.asList("alternates"), testcases(new File(results, "t0/rep-2/TEST-shop.CartTest.xml")));
        assertEquals(Arrays.asList("alternates"), testcases(new File(results, "t0/rep-3/TEST-shop.CartTest.xml")));
        assertTrue(FixtureBuild.read(new File(results, "t0/rep-1/TEST-shop.CartTest.xml")).contains("<failure message=\"java.lang.AssertionError: run 2\""));
        assertFalse(FixtureBuild.read(new File(results, "t0/rep-2/TEST-shop.CartTest.xml")).contains("<failure"));
        assertTrue(new File(results, "binary/t0/rep-3").isDirectory());

        List<JsonObject> lines = FixtureBuild.jsonLines(new File(temp.getRoot(), "stress/manifest.results.jsonl"));
        assertEquals(Arrays.asList("alternates=FAILURE"), FixtureBuild.outcomes(lines, ":app:stressGateT0Rep3"));
        List<String> rep2 = new ArrayList<String>();
        for (JsonObject line : lines) {
            if (":app:stressGateT0Rep2".equals(line.get("task").getAsString())) {
                rep2.add(line.has("event") ? line.get("event").getAsString() : line.get("result").getAsString());
            }
        }
        assertEquals("a start line before each test of a repetition: " + lines, Arrays.asList("started", "SUCCESS"), rep2);
        JsonObject failed = null;
        for (JsonObject line : lines) {
            if ("FAILURE".equals(line.has("result") ? line.get("result").getAsString() : null)) {
                failed = line;
                break;
            }
        }
        assertNotNull("a failed repetition is recorded: " + lines, failed);
        JsonObject failure = failed.getAsJsonObject("failure");
        assertEquals("java.lang.AssertionError", failure.get("type").getAsString());
        assertEquals("run 2", failure.get("message").getAsString());
        assertTrue(failure.toString(), failure.get("trace").getAsString().contains("at shop.CartTest.alternates(CartTest.java:"));
    }

    @Test
    public void aPlanNamingAMissingOrANonTestTaskFailsTheBuild() throws Exception {
        FixtureBuild build = FixtureBuild.shop(temp.newFolder("shop"));

        BuildResult missing = build.fail("-PstressGate.plan=" + plan(
                "{\"id\":\"t0\",\"path\":\":app:nope\",\"candidates\":[{\"suite\":\"shop.CartTest\",\"name\":\"adds\",\"repetitions\":2}]}"),
                "stressGateStress");
        assertTrue(missing.getOutput(), missing.getOutput().contains("stress gate: the plan names task ':app:nope', which this build does not have"));

        BuildResult notATest = build.fail("-PstressGate.plan=" + plan(
                "{\"id\":\"t0\",\"path\":\":app:jar\",\"candidates\":[{\"suite\":\"shop.CartTest\",\"name\":\"adds\",\"repetitions\":2}]}"),
                "stressGateStress");
        assertTrue(notATest.getOutput(), notATest.getOutput().contains(
                "stress gate: the plan names task ':app:jar', which is a org.gradle.api.tasks.bundling.Jar, not a Test task"));
    }

    @Test
    public void anInvalidPlanFailsTheBuildSayingWhere() throws Exception {
        FixtureBuild build = FixtureBuild.shop(temp.newFolder("shop"));
        File plan = plan("{\"id\":\"t0\",\"path\":\":app:test\",\"candidates\":[{\"suite\":\"shop.CartTest\",\"name\":\"adds\",\"repetitions\":0}]}");

        BuildResult result = build.fail("-PstressGate.plan=" + plan, "stressGateStress");

        assertTrue(result.getOutput(), result.getOutput().contains("stress gate: invalid plan " + plan
                + ": tasks[0].candidates[0].repetitions: expected an integer from 1 to 1000; got 0"));

        File badId = plan("{\"id\":\"t-0\",\"path\":\":app:test\",\"candidates\":[]}");
        BuildResult id = build.fail("-PstressGate.plan=" + badId, "stressGateStress");
        assertTrue(id.getOutput(), id.getOutput().contains("tasks[0].id: expected letters, digits or '_'; got 't-0'"));
    }

    /** A plan file with these tasks and resultsDir {@code <temp>/results}. */
    private File plan(String... tasks) throws Exception {
        File file = temp.newFile();
        String results = new File(temp.getRoot(), "results").getAbsolutePath();
        FixtureBuild.write(file, "{\"resultsDir\":\"" + results + "\",\"tasks\":[" + String.join(",", tasks) + "]}");
        return file;
    }

    /** The test case names of a JUnit XML report, sorted. */
    private static List<String> testcases(File xml) throws Exception {
        List<String> names = new ArrayList<String>();
        Matcher m = Pattern.compile("<testcase name=\"([^\"]+)\"").matcher(FixtureBuild.read(xml));
        while (m.find()) {
            names.add(m.group(1));
        }
        Collections.sort(names);
        return names;
    }
}
