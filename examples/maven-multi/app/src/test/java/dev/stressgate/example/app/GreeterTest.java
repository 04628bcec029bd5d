package dev.stressgate.example.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class GreeterTest {
    @Test void greetsWorld() { assertEquals("Hello, World", new Greeter().greet("World")); }

    /** Passes only in a JVM set up as Surefire sets it up: argLine, system property, environment, working directory. */
    @Test void runsWithTheForkConfiguration() {
        assertEquals("yes", System.getProperty("example.fromArgLine"));
        assertEquals("from-surefire", System.getenv("EXAMPLE_ENV"));
        assertEquals(true, System.getProperty("stressExample.dir").endsWith("stress-example"));
        assertEquals(true, new java.io.File("pom.xml").isFile(), "the working directory is the module");
    }
}
