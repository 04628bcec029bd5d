package archetypes.order;
import org.junit.*;
import org.junit.runners.MethodSorters;
/** Polluter, same class: the new z_setsMode leaves a mode that breaks the old b_defaultMode (the build runs z_ last). */
@FixMethodOrder(MethodSorters.NAME_ASCENDING)
public class ModeTest {
  @Test public void b_defaultMode() { Assert.assertNull("mode was set by a test before this one", Shared.mode); }
  @Test public void c_counts() { Assert.assertEquals(3, "abc".length()); }
  @Test public void z_setsMode() { Shared.mode = "fast"; }
}
