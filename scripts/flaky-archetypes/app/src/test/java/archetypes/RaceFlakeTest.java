package archetypes;
import org.junit.Test;
import static org.junit.Assert.*;
/** A thread race: a worker finishes after a uniform 0-250 ms; the test reads its result after 200 ms. */
public class RaceFlakeTest {
  @Test public void readsBeforeTheWorkerFinishes() throws Exception {
    if (Archetype.firstPass()) return;
    final long delay = (long) (new java.util.Random().nextDouble() * 250);
    final java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
    Thread worker = new Thread(() -> {
      try { Thread.sleep(delay); } catch (InterruptedException e) { return; }
      done.set(true);
    });
    worker.start();
    worker.join(200);
    boolean ok = done.get();
    worker.interrupt();
    assertTrue("read before the worker finished", ok);
  }
}
