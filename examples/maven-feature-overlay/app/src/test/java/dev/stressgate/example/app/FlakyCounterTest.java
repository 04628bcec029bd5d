package dev.stressgate.example.app;

import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/**
 * Flaky across processes only: it counts its invocations in a file under target/stress-example
 * (the stressExample.dir system property) and fails on every third. Within one JVM it would pass
 * as often as in any other; only fresh JVMs that share the counter see it fail.
 */
class FlakyCounterTest {
    @Test void failsEveryThirdInvocation() throws Exception {
        Path dir = Paths.get(System.getProperty("stressExample.dir"));
        Files.createDirectories(dir);
        Path counter = dir.resolve("FlakyCounterTest.count");
        int n = Files.exists(counter) ? Integer.parseInt(Files.readString(counter).trim()) + 1 : 1;
        Files.write(counter, String.valueOf(n).getBytes(StandardCharsets.UTF_8));
        assertNotEquals(0, n % 3, "invocation " + n);
    }
}
