package archetypes.order;
import org.junit.*;
/** Ten stable new tests: the probe must never flag them. */
public class StableNewTest {
  @Test public void addsNumbers() { Assert.assertEquals(4, 2 + 2); }
  @Test public void joinsStrings() { Assert.assertEquals("ab", String.join("", "a", "b")); }
  @Test public void sortsList() { java.util.List<Integer> l = new java.util.ArrayList<>(java.util.Arrays.asList(3, 1, 2)); java.util.Collections.sort(l); Assert.assertEquals(java.util.Arrays.asList(1, 2, 3), l); }
  @Test public void reversesList() { Assert.assertEquals("cba", new StringBuilder("abc").reverse().toString()); }
  @Test public void hashesText() { Assert.assertEquals("abc".hashCode(), "abc".hashCode()); }
  @Test public void parsesInts() { Assert.assertEquals(42, Integer.parseInt("42")); }
  @Test public void formatsDates() { Assert.assertEquals("2026-01-02", java.time.LocalDate.of(2026, 1, 2).toString()); }
  @Test public void splitsWords() { Assert.assertEquals(3, "a b c".split(" ").length); }
  @Test public void mapsKeys() { java.util.Map<String, Integer> m = new java.util.HashMap<>(); m.put("k", 1); Assert.assertEquals(Integer.valueOf(1), m.get("k")); }
  @Test public void roundsHalfUp() { Assert.assertEquals(3, Math.round(2.5)); }
}
