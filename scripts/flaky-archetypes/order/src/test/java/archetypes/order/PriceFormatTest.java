package archetypes.order;
import org.junit.*;
/**
 * Victim, another class: the new formatsInDollars needs the default currency, which the old
 * CurrencyTest.switchesToEuro leaves at EUR. The build's own order is a passing one (a failing
 * first pass is never stressed): the check is off in the build's own Test task, whose class
 * order Gradle does not fix.
 */
public class PriceFormatTest {
  @Test public void formatsInDollars() {
    if (Shared.buildsOwnRun()) return;
    Assert.assertNull("currency left by another test", Shared.currency);
  }
}
