package archetypes;
/** Shared by the archetypes: the known failure probability and whether this is a first pass. */
final class Archetype {
  static final double P = Double.parseDouble(System.getProperty("archetype.p", "0.2"));
  /** The first pass (Gradle's own test task): archetypes pass, as every stressed candidate did. */
  static boolean firstPass() {
    String task = System.getProperty("archetype.task", "test");
    return !(task.startsWith("stressGate") || task.equals("retry"));
  }
  private Archetype() {}
}
