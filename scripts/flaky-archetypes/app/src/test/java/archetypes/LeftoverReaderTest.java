package archetypes;
import org.junit.Test;
import static org.junit.Assert.*;
/** Order: depends on the file :base's LeftoverWriterTest leaves behind; fails on a clean checkout. */
public class LeftoverReaderTest {
  @Test public void needsAnotherTestsLeftover() {
    java.io.File f = new java.io.File(System.getProperty("archetype.root", "."), "build/archetype-leftover.txt");
    assertTrue("no leftover from LeftoverWriterTest", f.exists());
  }
}
