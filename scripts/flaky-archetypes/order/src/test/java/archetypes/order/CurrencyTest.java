package archetypes.order;
import org.junit.*;
/** Old: switchesToEuro sets the currency and never restores it. */
public class CurrencyTest {
  @Test public void switchesToEuro() { Shared.currency = "EUR"; }
  @Test public void parsesCodes() { Assert.assertEquals(3, "USD".length()); }
}
