package dev.stressgate.gradle;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.gradle.testkit.runner.BuildResult;
import org.gradle.testkit.runner.GradleRunner;

/**
 * A small Gradle project in a temp dir, built by TestKit on the Gradle that runs these tests
 * (Debian's 4.4.1 here: TestKit cannot download a distribution) with the plugin applied as the
 * orchestrator applies it: the init-script template, @PLUGIN_JAR@ filled in, passed with -I.
 */
final class FixtureBuild {

    static final String PLUGIN_JAR = System.getProperty("stressGate.pluginJar");
    static final String GRADLE_VERSION = System.getProperty("stressGate.gradleVersion");
    private static final String JUNIT = "files('/usr/share/java/junit4.jar', '/usr/share/java/hamcrest-core.jar')";

    final File dir;
    final File initScript;

    private FixtureBuild(File dir) throws IOException {
        this.dir = dir;
        this.initScript = new File(dir, "stress-gate.init.gradle");
        String template = read(new File(System.getProperty("stressGate.initTemplate")));
        write(initScript, template.replace("@PLUGIN_JAR@", PLUGIN_JAR));
    }

    /**
     * Project {@code :app}: JUnit 4 tests {@code shop.CartTest} (adds passes, later is ignored,
     * alternates fails on every second run in the same project dir, counted in a file) and a
     * second Test task {@code integTest}, which no test here runs.
     */
    static FixtureBuild shop(File dir) throws IOException {
        FixtureBuild build = new FixtureBuild(dir);
        build.file("settings.gradle", "rootProject.name = 'shop'\ninclude 'app'\n");
        build.file("app/build.gradle", String.join("\n",
                "apply plugin: 'java'",
                "dependencies { testCompile " + JUNIT + " }",
                "test { exclude '**/*IT.class' }",
                "task integTest(type: Test) {",
                "    testClassesDirs = sourceSets.test.output.classesDirs",
                "    classpath = sourceSets.test.runtimeClasspath",
                "    include '**/*IT.class'",
                "}",
                ""));
        build.file("app/src/test/java/shop/CartTest.java", String.join("\n",
                "package shop;",
                "import java.io.File;",
                "import java.nio.file.Files;",
                "import org.junit.Ignore;",
                "import org.junit.Test;",
                "import static org.junit.Assert.assertEquals;",
                "public class CartTest {",
                "    @Test public void adds() { assertEquals(4, 2 + 2); }",
                "    @Ignore @Test public void later() { }",
                "    @Test public void alternates() throws Exception {",
                "        File runs = new File(\"runs.txt\");",
                "        int n = runs.exists() ? Integer.parseInt(new String(Files.readAllBytes(runs.toPath())).trim()) : 0;",
                "        Files.write(runs.toPath(), String.valueOf(n + 1).getBytes());",
                "        if ((n + 1) % 2 == 0) throw new AssertionError(\"run \" + (n + 1));",
                "    }",
                "}",
                ""));
        return build;
    }

    /** Writes a file of the project (parents created). */
    FixtureBuild file(String path, String text) throws IOException {
        write(new File(dir, path), text);
        return this;
    }

    /** A file of the project. */
    File at(String path) {
        return new File(dir, path);
    }

    /** The orchestrator's invocation: -I with the filled init script, then {@code args}. */
    GradleRunner gradle(String... args) {
        List<String> all = new ArrayList<String>(Arrays.asList("-I", initScript.getAbsolutePath()));
        all.addAll(Arrays.asList(args));
        return plainGradle(all.toArray(new String[0]));
    }

    /** A plain invocation, as a developer runs the build: no init script. */
    GradleRunner plainGradle(String... args) {
        return GradleRunner.create()
                .withGradleInstallation(new File(System.getProperty("stressGate.gradleHome")))
                .withTestKitDir(new File(System.getProperty("stressGate.testKitDir")))
                .withProjectDir(dir)
                .withArguments(args);
    }

    /** Runs the orchestrator's invocation and expects success. */
    BuildResult run(String... args) {
        return gradle(args).build();
    }

    /** Runs the orchestrator's invocation and expects the build to fail. */
    BuildResult fail(String... args) {
        return gradle(args).buildAndFail();
    }

    /** A JSON file the plugin wrote. */
    static JsonObject json(File file) throws IOException {
        return JsonParser.parseString(read(file)).getAsJsonObject();
    }

    /** A JSON-lines file the plugin wrote, a line an object. */
    static List<JsonObject> jsonLines(File file) throws IOException {
        List<JsonObject> lines = new ArrayList<JsonObject>();
        for (String line : read(file).split("\n")) {
            if (!line.isEmpty()) {
                lines.add(JsonParser.parseString(line).getAsJsonObject());
            }
        }
        return lines;
    }

    /** {@code name=RESULT} of each finished test in a results log, in order, optionally of one task. */
    static List<String> outcomes(List<JsonObject> lines, String task) {
        List<String> out = new ArrayList<String>();
        for (JsonObject line : lines) {
            if (line.has("result") && (task == null || task.equals(line.get("task").getAsString()))) {
                out.add(line.get("name").getAsString() + "=" + line.get("result").getAsString());
            }
        }
        return out;
    }

    /** True on Gradle {@code major} or newer. */
    static boolean gradleAtLeast(int major) {
        return Integer.parseInt(GRADLE_VERSION.split("\\.")[0]) >= major;
    }

    static String read(File file) throws IOException {
        return new String(Files.readAllBytes(file.toPath()), StandardCharsets.UTF_8);
    }

    static void write(File file, String text) throws IOException {
        file.getAbsoluteFile().getParentFile().mkdirs();
        Files.write(file.toPath(), text.getBytes(StandardCharsets.UTF_8));
    }
}
