package archetypes.order;
import org.junit.*;
import org.junit.runners.MethodSorters;
/**
 * A leaked resource, same class: the new z_startsServerAndForgets binds the service port and never
 * closes it; the old b_bindsServicePort binds it (and closes it) and fails after it. A fixed port,
 * as such tests have: JVMs that run side by side collide on it too.
 */
@FixMethodOrder(MethodSorters.NAME_ASCENDING)
public class ServerTest {
  static final java.util.List<java.net.ServerSocket> LEAKED = new java.util.ArrayList<>();
  static int port() { return Integer.getInteger("archetype.port", 47613) + 1; }
  static java.net.ServerSocket bind() throws Exception { return new java.net.ServerSocket(port(), 1, java.net.InetAddress.getLoopbackAddress()); }
  @Test public void b_bindsServicePort() throws Exception { bind().close(); }
  @Test public void c_parsesPort() { Assert.assertEquals(8080, Integer.parseInt("8080")); }
  @Test public void z_startsServerAndForgets() throws Exception { LEAKED.add(bind()); }
}
