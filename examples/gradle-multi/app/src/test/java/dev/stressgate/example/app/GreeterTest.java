package dev.stressgate.example.app;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class GreeterTest {
    private final Greeter greeter = new Greeter();

    @Test
    public void greetsWorld() {
        assertEquals("Hello, world", greeter.greet("world"));
    }

    @Test
    public void greetsName() {
        assertEquals("Hello, Ada", greeter.greet("Ada"));
    }
}
