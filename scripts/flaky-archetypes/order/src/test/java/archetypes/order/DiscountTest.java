package archetypes.order;
import org.junit.*;
/** Old and stable: the rest of the module, sampled like any class. */
public class DiscountTest {
  @Test public void capsDiscount() { Assert.assertEquals(1, 0 + 1); }
  @Test public void stacksCoupons() { Assert.assertEquals(2, 1 + 1); }
  @Test public void ignoresExpired() { Assert.assertEquals(3, 2 + 1); }
  @Test public void appliesPercent() { Assert.assertEquals(4, 3 + 1); }
}
