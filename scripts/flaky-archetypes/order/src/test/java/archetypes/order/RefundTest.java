package archetypes.order;
import org.junit.*;
/** Old and stable: the rest of the module, sampled like any class. */
public class RefundTest {
  @Test public void refundsInFull() { Assert.assertEquals(1, 0 + 1); }
  @Test public void refundsPartially() { Assert.assertEquals(2, 1 + 1); }
  @Test public void rejectsLateRefund() { Assert.assertEquals(3, 2 + 1); }
}
