package archetypes.order;
import org.junit.*;
import org.junit.runners.MethodSorters;
/** Victim, same class: the new a_needsNoOwner fails after the old m_claimsOwner (the build runs a_ first: NAME_ASCENDING). */
@FixMethodOrder(MethodSorters.NAME_ASCENDING)
public class OwnerTest {
  @Test public void a_needsNoOwner() { Assert.assertNull("owner left by another test", Shared.owner); }
  @Test public void c_adds() { Assert.assertEquals(4, 2 + 2); }
  @Test public void m_claimsOwner() { Shared.owner = "cart"; }
}
