package dev.stressgate.example.core;

import static org.junit.Assert.assertEquals;

import org.junit.BeforeClass;
import org.junit.Test;

public class TextTest {
    @BeforeClass
    public static void jvm() {
        TestJvm.print();
    }

    @Test
    public void shouts() {
        assertEquals("HI!", Text.shout("hi"));
    }

    @Test
    public void testÜnïcødé() {
        assertEquals("ÜBER!", Text.shout("über"));
    }
}
