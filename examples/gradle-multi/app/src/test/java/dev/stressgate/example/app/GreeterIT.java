package dev.stressgate.example.app;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** Run by the second Test task, :app:integrationTest. */
public class GreeterIT {
    @Test
    public void greetsManyPeople() {
        Greeter greeter = new Greeter();
        for (int i = 0; i < 100; i++) {
            assertEquals("Hello, p" + i, greeter.greet(" p" + i + " "));
        }
    }
}
