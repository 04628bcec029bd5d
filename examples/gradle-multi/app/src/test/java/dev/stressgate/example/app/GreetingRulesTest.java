package dev.stressgate.example.app;

import static org.junit.Assert.assertEquals;

import org.junit.Test;
import org.junit.experimental.runners.Enclosed;
import org.junit.runner.RunWith;

/** Nested test classes: the suite of each test is {@code GreetingRulesTest$Formal} etc. */
@RunWith(Enclosed.class)
public class GreetingRulesTest {
    public static class Formal {
        @Test
        public void greetsWithFullName() {
            assertEquals("Hello, Ada Lovelace", new Greeter().greet("Ada Lovelace"));
        }
    }

    public static class Casual {
        @Test
        public void greetsStranger() {
            assertEquals("Hello, stranger", new Greeter().greet(""));
        }
    }
}
