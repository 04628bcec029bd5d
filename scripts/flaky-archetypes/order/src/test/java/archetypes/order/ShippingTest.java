package archetypes.order;
import org.junit.*;
/** Old and stable: the rest of the module, sampled like any class. */
public class ShippingTest {
  @Test public void chargesByWeight() { Assert.assertEquals(1, 0 + 1); }
  @Test public void shipsFreeAbove() { Assert.assertEquals(2, 1 + 1); }
}
