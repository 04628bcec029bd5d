package dev.stressgate.example.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class GreetingRulesTest {
    @Nested class Formal {
        @Test void greetsWithFullName() { assertEquals("Hello, Ada Lovelace", new Greeter().greet("Ada Lovelace")); }
    }

    @Nested class Casual {
        @Test void greetsBlankAsStranger() { assertEquals("Hello, stranger", new Greeter().greet("  ")); }
    }
}
