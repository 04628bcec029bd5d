package dev.stressgate.example.app;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

/** Tests every shape must pass; each concrete subclass is its own suite (identity). */
public abstract class AbstractShapeTest {
    protected abstract Shape create();

    @Test
    public void hasPositiveArea() {
        assertTrue(create().area() > 0);
    }

    @Test
    public void hasName() {
        assertFalse(create().name().isEmpty());
    }
}
