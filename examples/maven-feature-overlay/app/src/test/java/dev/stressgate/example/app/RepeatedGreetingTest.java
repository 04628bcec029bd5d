package dev.stressgate.example.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.RepeatedTest;

class RepeatedGreetingTest {
    @RepeatedTest(3) void greetsTheSameEachTime() { assertEquals("Hello, Ada", new Greeter().greet("Ada")); }
}
