package dev.stressgate.example.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

class DynamicGreetingsTest {
    @TestFactory Stream<DynamicTest> greetsEach() {
        return Stream.of("Ada", "Grace").map(n -> dynamicTest("greets " + n, () -> assertEquals("Hello, " + n, new Greeter().greet(n))));
    }
}
