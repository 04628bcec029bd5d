package archetypes;
import org.junit.Test;
import static org.junit.Assert.*;
/** Random: each execution fails with probability p (new Random(), seeded from the clock). */
public class RandomFlakeTest {
  @Test public void failsWithProbabilityP() {
    if (Archetype.firstPass()) return;
    assertFalse("random flake", new java.util.Random().nextDouble() < Archetype.P);
  }
}
