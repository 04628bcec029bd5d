package dev.stressgate.jvm;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Starts the stress runner in a real JVM, as the orchestrator does: {@code java -cp <class path>
 * StressRunner <request>} with standard input at its end, on a class path assembled from this test
 * JVM's own (the runner's classes, the fixtures, and the framework jars a case needs).
 */
final class RunnerJvm {
    /** The fixtures' classes (src/fixtures/java), set by the pom. */
    static final String FIXTURES = System.getProperty("runnerTest.fixtures");

    /** The entries of this JVM's test class path whose path holds one of {@code fragments}. */
    static List<String> jars(String... fragments) {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> entries = Arrays.asList(classPath.split(File.pathSeparator));
        for (String f : fragments) assertTrue(entries.stream().anyMatch(e -> e.contains(f)), "no " + f + " on " + classPath);
        return entries.stream().filter(e -> Arrays.stream(fragments).anyMatch(e::contains)).collect(Collectors.toList());
    }

    /** The runner's classes, the fixtures, then {@code jars}. */
    static List<String> classPath(List<String> jars) {
        List<String> cp = new ArrayList<>();
        try {
            cp.add(new File(StressRunner.class.getProtectionDomain().getCodeSource().getLocation().toURI()).getPath());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        cp.add(FIXTURES);
        cp.addAll(jars);
        return cp;
    }

    /** What one runner JVM did. */
    static final class Run {
        final int exitCode;
        final List<JsonObject> lines;
        final String stdout;
        final String stderr;

        Run(int exitCode, List<JsonObject> lines, String stdout, String stderr) {
            this.exitCode = exitCode;
            this.lines = lines;
            this.stdout = stdout;
            this.stderr = stderr;
        }

        /** The lines of one event, in order. */
        List<JsonObject> events(String event) {
            return lines.stream().filter(l -> event.equals(l.get("event").getAsString())).collect(Collectors.toList());
        }

        /** "name=RESULT" of every finished line, in order. */
        List<String> results() {
            return events("finished").stream().map(l -> l.get("name").getAsString() + "=" + l.get("result").getAsString()).collect(Collectors.toList());
        }

        /** "selector => cause" of every unrunnable line, in order. */
        List<String> unrunnable() {
            return events("unrunnable").stream()
                .map(l -> (l.get("selector").isJsonNull() ? "null" : l.get("selector").getAsString()) + " => " + l.get("cause").getAsString())
                .collect(Collectors.toList());
        }

        @Override
        public String toString() {
            return "exit " + exitCode + "\n" + lines.stream().map(JsonObject::toString).collect(Collectors.joining("\n")) + "\nstdout:\n" + stdout + "\nstderr:\n" + stderr;
        }
    }

    /** Runs the runner on {@code classPath} with a request of {@code kind} and {@code lines} ("out" is added), in {@code dir}. */
    static Run run(Path dir, List<String> classPath, String kind, List<String> jvmArgs, String... lines) throws IOException, InterruptedException {
        return run(dir, classPath, kind, jvmArgs, Collections.<String, String>emptyMap(), lines);
    }

    /** {@link #run} with {@code environment} added to this JVM's. */
    static Run run(Path dir, List<String> classPath, String kind, List<String> jvmArgs, Map<String, String> environment, String... lines) throws IOException, InterruptedException {
        Path out = dir.resolve("results.jsonl");
        Path request = dir.resolve("request");
        List<String> requestLines = new ArrayList<>(Arrays.asList("kind " + kind, "out " + out));
        requestLines.addAll(Arrays.asList(lines));
        Files.write(request, requestLines, StandardCharsets.UTF_8);
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmArgs);
        command.addAll(Arrays.asList("-cp", String.join(File.pathSeparator, classPath), "dev.stressgate.jvm.StressRunner", request.toString()));
        Path stderr = dir.resolve("stderr");
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(environment);
        Process p = builder.directory(dir.toFile())
            .redirectOutput(dir.resolve("stdout").toFile())
            .redirectError(stderr.toFile())
            .start();
        p.getOutputStream().close();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("the runner JVM did not exit within 60 s: " + command);
        }
        List<JsonObject> parsed = new ArrayList<>();
        if (Files.exists(out)) {
            for (String l : Files.readAllLines(out, StandardCharsets.UTF_8)) parsed.add(JsonParser.parseString(l).getAsJsonObject());
        }
        return new Run(p.exitValue(), parsed, new String(Files.readAllBytes(dir.resolve("stdout")), StandardCharsets.UTF_8), new String(Files.readAllBytes(stderr), StandardCharsets.UTF_8));
    }

    private RunnerJvm() {}
}
