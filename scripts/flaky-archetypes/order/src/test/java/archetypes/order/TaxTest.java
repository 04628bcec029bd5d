package archetypes.order;
import org.junit.*;
/** Old and stable: the rest of the module, sampled like any class. */
public class TaxTest {
  @Test public void addsVat() { Assert.assertEquals(1, 0 + 1); }
  @Test public void exemptsFood() { Assert.assertEquals(2, 1 + 1); }
  @Test public void roundsTax() { Assert.assertEquals(3, 2 + 1); }
}
