package archetypes.order;
/** State in test code that the order archetypes leave behind or depend on (one field per pair). */
public final class Shared {
  public static String owner;
  public static String mode;
  public static String currency;
  /** The build's own Test task (`test`, set at execution by build.gradle), not the gate's JVMs. */
  static boolean buildsOwnRun() {
    return "test".equals(System.getProperty("archetype.task"));
  }
  private Shared() {}
}
