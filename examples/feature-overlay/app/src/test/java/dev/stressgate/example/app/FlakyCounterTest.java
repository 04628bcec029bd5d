package dev.stressgate.example.app;

import static org.junit.Assert.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * A flaky test made deterministic: it counts its invocations in
 * {@code <module>/build/stress-example/FlakyCounterTest.count} and fails on every third one.
 * From a clean build dir: invocation 1 (the first pass) passes; of the next ten (the stress
 * pass's ten repetitions, invocations 2..11) invocations 3, 6 and 9 fail, i.e. repetitions 2, 5
 * and 8: exactly 3 failures of 10. {@code gradle clean} resets the counter.
 */
public class FlakyCounterTest {
    @BeforeClass
    public static void jvm() {
        TestJvm.print();
    }

    @Test
    public void failsEveryThirdInvocation() throws IOException {
        File dir = new File(System.getProperty("stressExample.dir", "build/stress-example"));
        File counter = new File(dir, "FlakyCounterTest.count");
        dir.mkdirs();
        int n = counter.isFile()
                ? Integer.parseInt(new String(Files.readAllBytes(counter.toPath()), StandardCharsets.UTF_8).trim()) + 1
                : 1;
        Files.write(counter.toPath(), Integer.toString(n).getBytes(StandardCharsets.UTF_8));
        System.out.println("invocation " + n);
        if (n % 3 == 0) {
            fail("invocation " + n + " is a multiple of 3");
        }
    }
}
