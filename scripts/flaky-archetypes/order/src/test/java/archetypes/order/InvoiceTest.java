package archetypes.order;
import org.junit.*;
/** Old and stable: the rest of the module, sampled like any class. */
public class InvoiceTest {
  @Test public void totalsLines() { Assert.assertEquals(1, 0 + 1); }
  @Test public void appliesRounding() { Assert.assertEquals(2, 1 + 1); }
  @Test public void numbersInvoices() { Assert.assertEquals(3, 2 + 1); }
  @Test public void datesInvoices() { Assert.assertEquals(4, 3 + 1); }
}
