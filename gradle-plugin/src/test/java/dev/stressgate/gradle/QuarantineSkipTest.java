package dev.stressgate.gradle;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.gradle.testkit.runner.BuildResult;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** The quarantine's skip list ({@code -PstressGate.skip}) in the first pass. */
public class QuarantineSkipTest {

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    @Test
    public void excludesASkippedTestWhereGradleCanAndSaysSoWhereItCannot() throws Exception {
        FixtureBuild build = FixtureBuild.shop(temp.newFolder("shop"));
        File skip = temp.newFile("skip.json");
        FixtureBuild.write(skip, "[{\"module\":\":app\",\"suite\":\"shop.CartTest\",\"name\":\"alternates\"},"
                + "{\"module\":\":other\",\"suite\":\"shop.CartTest\",\"name\":\"adds\"}]");
        File manifest = new File(temp.getRoot(), "manifest.json");

        BuildResult result = build.run("-PstressGate.manifest=" + manifest, "-PstressGate.skip=" + skip, ":app:test");

        List<String> outcomes = FixtureBuild.outcomes(FixtureBuild.jsonLines(new File(temp.getRoot(), "manifest.results.jsonl")), ":app:test");
        String warning = "stress gate: this Gradle cannot exclude single tests (Gradle 5.0+ can): 1 quarantined test(s) marked skip"
                + " run anyway, and the gate ignores their results.";
        if (FixtureBuild.gradleAtLeast(5)) {
            assertEquals(Arrays.asList("adds=SUCCESS", "later=SKIPPED"), sorted(outcomes));
            assertFalse(result.getOutput(), result.getOutput().contains(warning));
        } else {
            assertEquals("another module's skip does not apply", Arrays.asList("adds=SUCCESS", "alternates=SUCCESS", "later=SKIPPED"), sorted(outcomes));
            assertTrue(result.getOutput(), result.getOutput().contains(warning));
        }
    }

    private static List<String> sorted(List<String> list) {
        Collections.sort(list);
        return list;
    }
}
