package archetypes;
import org.junit.Test;
import static org.junit.Assert.*;
/**
 * A temp file shared between processes: each JVM takes the next number from a counter file in
 * java.io.tmpdir (once, at class initialisation) and every fifth process fails (p = 0.2 a process).
 */
public class SharedTempFileTest {
  static final int TICKET = take();
  static int take() {
    try {
      java.io.File f = new java.io.File(System.getProperty("java.io.tmpdir"), System.getProperty("archetype.counter", "stress-gate-archetype.count"));
      int n = f.exists() ? Integer.parseInt(new String(java.nio.file.Files.readAllBytes(f.toPath())).trim()) : 0;
      java.nio.file.Files.write(f.toPath(), String.valueOf(n + 1).getBytes());
      return n;
    } catch (Exception e) { throw new RuntimeException(e); }
  }
  @Test public void assumesTheTempFileIsItsOwn() {
    if (Archetype.firstPass()) return;
    assertTrue("ticket " + TICKET, TICKET % 5 != 4);
  }
}
