package archetypes;
import org.junit.Test;
/** An old test that leaves a file behind; LeftoverReaderTest (new) silently depends on it. */
public class LeftoverWriterTest {
  @Test public void writesLeftover() throws Exception {
    java.io.File f = new java.io.File(System.getProperty("archetype.root"), "build/archetype-leftover.txt");
    f.getParentFile().mkdirs();
    java.nio.file.Files.write(f.toPath(), "state".getBytes());
  }
}
