package archetypes.order;
import org.junit.*;
/**
 * Old: checks that no refresher thread is left running (as leak checks do). Off in the build's own
 * Test task, whose class order Gradle does not fix (the build's order is a passing one).
 */
public class ThreadHygieneTest {
  @Test public void leavesNoRefresherRunning() {
    if (Shared.buildsOwnRun()) return;
    for (Thread t : Thread.getAllStackTraces().keySet()) Assert.assertNotEquals("a refresher thread was left running", "cache-refresher", t.getName());
  }
  @Test public void countsCores() { Assert.assertTrue(Runtime.getRuntime().availableProcessors() > 0); }
}
