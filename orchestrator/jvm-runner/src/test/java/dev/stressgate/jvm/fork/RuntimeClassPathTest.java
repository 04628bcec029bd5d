package dev.stressgate.jvm.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runtime class path from inside a fork: manifest-only jars expanded, the harness taken out, by content. */
class RuntimeClassPathTest {
    @Test
    void expandsSurefiresManifestOnlyJarAndTakesOutTheHarness(@TempDir Path dir) throws IOException {
        String ordinary = jar(dir.resolve("repo/ordinary.jar"), null, "com/acme/Thing.class", "com/acme/thing.properties");
        String surefireLike = jar(dir.resolve("repo/booter.jar"), null,
            "org/apache/maven/surefire/booter/ForkedBooter.class", "org/apache/maven/plugin/surefire/log/api/ConsoleLogger.class");
        String multiRelease = jar(dir.resolve("repo/provider.jar"), null,
            "module-info.class", "META-INF/versions/9/org/apache/maven/surefire/junitplatform/Provider.class", "org/apache/maven/surefire/report/X.class");
        String resources = jar(dir.resolve("repo/resources.jar"), null, "config/app.properties");
        String testClasses = dir.resolve("target/test classes").toString();
        file(dir.resolve("target/test classes/com/acme/ThingTest.class"));
        String gradleWorker = dir.resolve("gradle worker").toString();
        file(dir.resolve("gradle worker/worker/org/gradle/process/internal/worker/GradleWorkerMain.class"));
        String missing = dir.resolve("repo/missing.jar").toString();
        String booterOnly = jar(dir.resolve("target/surefire/surefirebooter-1.jar"),
            "../../repo/booter.jar ../test%20classes/ ../../repo/ordinary.jar ../../repo/resources.jar ../../repo/missing.jar "
                + dir.resolve("gradle worker").toUri() + " ../../repo/provider.jar",
            "META-INF/maven/nothing.txt");

        Map<String, String> props = new HashMap<>();
        props.put("surefire.real.class.path", booterOnly);
        props.put("java.class.path", testClasses);
        RuntimeClassPath cp = RuntimeClassPath.of(props);

        assertEquals(Arrays.asList(testClasses, ordinary, resources, missing), cp.runtime);
        assertEquals(Arrays.asList(surefireLike, gradleWorker, multiRelease), cp.harness);
    }

    @Test
    void neverTakesOutWhatTheProjectsOwnTestClassPathHolds(@TempDir Path dir) throws IOException {
        // A project whose packages look like a harness: its own classes (dev.stressgate.fixture), a
        // project that tests Surefire itself (org.apache.maven.surefire in its test classes).
        String ownClasses = dir.resolve("target/classes").toString();
        file(dir.resolve("target/classes/dev/stressgate/fixture/Clock.class"));
        String surefireTests = dir.resolve("target/test-classes").toString();
        file(dir.resolve("target/test-classes/org/apache/maven/surefire/booter/ForkedBooterTest.class"));
        String booter = jar(dir.resolve("repo/booter.jar"), null, "org/apache/maven/surefire/booter/ForkedBooter.class");
        String booterOnly = jar(dir.resolve("target/surefire/surefirebooter-2.jar"), "../../repo/booter.jar ../test-classes/ ../classes/", "META-INF/x.txt");
        Map<String, String> props = new HashMap<>();
        props.put("surefire.real.class.path", booterOnly);
        props.put("surefire.test.class.path", surefireTests + File.pathSeparator + ownClasses);
        RuntimeClassPath cp = RuntimeClassPath.of(props);
        assertEquals(Arrays.asList(surefireTests, ownClasses), cp.runtime);
        assertEquals(Collections.singletonList(booter), cp.harness);
    }

    @Test
    void withoutSurefireStartsFromTheJavaClassPath(@TempDir Path dir) throws IOException {
        String ordinary = jar(dir.resolve("ordinary.jar"), null, "com/acme/Thing.class");
        String ours = jar(dir.resolve("stress-gate-jvm-runner.jar"), null, "dev/stressgate/jvm/StressRunner.class");
        Map<String, String> props = Collections.singletonMap("java.class.path", ours + File.pathSeparator + ordinary + File.pathSeparator);
        RuntimeClassPath cp = RuntimeClassPath.of(props);
        assertEquals(Collections.singletonList(ordinary), cp.runtime);
        assertEquals(Collections.singletonList(ours), cp.harness);
    }

    @Test
    void theForkLineKeepsItsFieldsAndAddsBothClassPaths(@TempDir Path dir) throws IOException {
        String ordinary = jar(dir.resolve("ordinary.jar"), null, "com/acme/Thing.class");
        String booter = jar(dir.resolve("surefire/booter.jar"), "../ordinary.jar ../booter-classes.jar", "META-INF/x.txt");
        String surefireLike = jar(dir.resolve("booter-classes.jar"), null, "org/apache/maven/surefire/booter/ForkedBooter.class");
        Map<String, String> props = new HashMap<>();
        props.put("surefire.real.class.path", booter);
        props.put("surefire.test.class.path", ordinary);
        props.put("java.class.path", ordinary);
        props.put("java.home", "/jdk");
        props.put("user.dir", "/work");
        JsonObject line = JsonParser.parseString(JvmJson.forkLine(",\"agent\":true", props, Arrays.asList("-Xmx1g"), "/l.jar",
            Collections.singletonMap("k", "v"))).getAsJsonObject();
        assertEquals("fork", line.get("event").getAsString());
        assertEquals(true, line.get("agent").getAsBoolean());
        assertEquals(ordinary, line.get("testClassPath").getAsString());
        assertEquals("/l.jar", line.get("launcherJar").getAsString());
        assertEquals(ordinary, line.get("runtimeClassPath").getAsString());
        assertEquals(surefireLike, line.get("harnessClassPath").getAsString());
        assertEquals("/jdk", line.get("javaHome").getAsString());
        assertEquals("/work", line.get("userDir").getAsString());
        assertEquals("-Xmx1g", line.getAsJsonArray("inputArguments").get(0).getAsString());
        assertEquals(booter, line.getAsJsonObject("systemProperties").get("surefire.real.class.path").getAsString());
        assertEquals("v", line.getAsJsonObject("configurationParameters").get("k").getAsString());
    }

    /** A jar holding {@code entries} (empty), with a manifest {@code Class-Path} when not null; its path. */
    private static String jar(Path path, String classPath, String... entries) throws IOException {
        Files.createDirectories(path.getParent());
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        if (classPath != null) manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH, classPath);
        try (JarOutputStream out = new JarOutputStream(new FileOutputStream(path.toFile()), manifest)) {
            for (String e : entries) {
                out.putNextEntry(new JarEntry(e));
                out.closeEntry();
            }
        }
        return path.toString();
    }

    private static void file(Path path) throws IOException {
        Files.createDirectories(path.getParent());
        Files.write(path, new byte[] {(byte) 0xCA, (byte) 0xFE});
    }
}
