package dev.stressgate.example.app;

import static org.junit.Assert.assertEquals;

import dev.stressgate.example.core.Calculator;
import java.util.Arrays;
import java.util.Collection;
import org.junit.BeforeClass;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/** JUnit 4 Parameterized: one identity per invocation, e.g. {@code adds[0: 1+1]}. */
@RunWith(Parameterized.class)
public class AdditionTest {
    @Parameters(name = "{index}: {0}+{1}")
    public static Collection<Object[]> data() {
        return Arrays.asList(new Object[][] {
            {1, 1, 2},
            {2, 2, 4},
            {3, 3, 6},
        });
    }

    private final int a;
    private final int b;
    private final int sum;

    public AdditionTest(int a, int b, int sum) {
        this.a = a;
        this.b = b;
        this.sum = sum;
    }

    @BeforeClass
    public static void jvm() {
        TestJvm.print();
    }

    @Test
    public void adds() {
        assertEquals(sum, new Calculator().add(a, b));
    }
}
