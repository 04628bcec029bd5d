package dev.stressgate.example.app;

import static org.junit.Assert.assertTrue;

import org.junit.Test;

/** A slow new test: about 5.5 s, so the gate prices it at 5 repetitions (<10 s), not 10 (<=5 s). */
public class SlowReportTest {
    @Test
    public void rendersLargeReport() throws InterruptedException {
        long start = System.nanoTime();
        Thread.sleep(5500);
        assertTrue(System.nanoTime() - start >= 5_500_000_000L);
    }
}
