package dev.stressgate.example.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CalculatorTest {
    private final Calculator calculator = new Calculator();

    @Test void adds() { assertEquals(4, calculator.add(2, 2)); }

    @Test void subtracts() { assertEquals(0, calculator.subtract(2, 2)); }
}
