package archetypes;
import org.junit.Test;
import static org.junit.Assert.*;
/** Time of day: fails in one 100 ms slot of every 500 ms (p = 0.2 at a random time). */
public class ClockFlakeTest {
  @Test public void failsInOneClockSlotOfFive() {
    if (Archetype.firstPass()) return;
    assertFalse("clock slot", (System.currentTimeMillis() / 100) % 5 == 0);
  }
}
