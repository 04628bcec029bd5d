package archetypes;
import org.junit.Test;
/**
 * A resource leaked across tests: binds a fixed port and never closes it. Alone in a fresh JVM it
 * always passes; any later test in the same JVM that binds the port fails (the polluter case).
 */
public class LeakedPortTest {
  static final java.util.List<java.net.ServerSocket> LEAKED = new java.util.ArrayList<>();
  @Test public void bindsAndNeverCloses() throws Exception {
    LEAKED.add(new java.net.ServerSocket(Integer.getInteger("archetype.port", 47613), 1, java.net.InetAddress.getLoopbackAddress()));
  }
}
