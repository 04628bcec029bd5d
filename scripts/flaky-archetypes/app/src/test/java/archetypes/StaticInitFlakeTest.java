package archetypes;
import org.junit.Test;
import static org.junit.Assert.*;
/** Per-process seed: static initialisation draws once per JVM; a bad draw fails every execution in it. */
public class StaticInitFlakeTest {
  static final boolean BAD_PROCESS = new java.util.Random().nextDouble() < Archetype.P;
  @Test public void dependsOnAPerProcessDraw() {
    if (Archetype.firstPass()) return;
    assertFalse("this process drew the bad seed", BAD_PROCESS);
  }
}
