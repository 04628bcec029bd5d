package dev.stressgate.example.app;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Slow: 5.5 s by default, so the gate gives it 5 repetitions instead of 10 (-Dexample.slowMs shortens it). */
class SlowReportTest {
    @Test void rendersLargeReport() throws Exception {
        Thread.sleep(Long.getLong("example.slowMs", 5500));
        assertTrue(true);
    }
}
