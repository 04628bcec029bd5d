package dev.stressgate.example.core;

import java.lang.management.ManagementFactory;
import java.lang.management.RuntimeMXBean;

/** Prints which JVM runs a test class, so a stress pass can show one fresh JVM per repetition. */
public final class TestJvm {
    private TestJvm() {
    }

    public static void print() {
        RuntimeMXBean runtime = ManagementFactory.getRuntimeMXBean();
        System.out.println("test-jvm " + runtime.getName() + " started " + runtime.getStartTime());
    }
}
