package dev.stressgate.example.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AdditionTest {
    @ParameterizedTest(name = "{0} + {1} = \"{2}\" ✓")
    @CsvSource({ "1, 1, 2", "2, 2, 4" })
    void adds(int a, int b, int sum) { assertEquals(sum, a + b); }
}
