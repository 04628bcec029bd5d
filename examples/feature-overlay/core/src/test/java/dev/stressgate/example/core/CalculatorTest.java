package dev.stressgate.example.core;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class CalculatorTest {
    private final Calculator calculator = new Calculator();

    @Test
    public void adds() {
        assertEquals(5, calculator.add(2, 3));
    }

    @Test
    public void subtracts() {
        assertEquals(-1, calculator.subtract(2, 3));
    }

    @Test
    public void multiplies() {
        assertEquals(6, calculator.multiply(2, 3));
    }
}
