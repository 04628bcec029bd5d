package archetypes.order;
import org.junit.*;
/** A leaked resource, another class: the new test starts a refresher thread and never stops it. */
public class CacheWarmerTest {
  @Test public void startsRefresherAndForgets() {
    Thread t = new Thread(() -> { try { Thread.sleep(Long.MAX_VALUE); } catch (InterruptedException e) { } }, "cache-refresher");
    t.setDaemon(true);
    t.start();
  }
}
