package archetypes;
import org.junit.runner.JUnitCore;
import org.junit.runner.Request;
import org.junit.runner.Result;
/**
 * What same-process retrying tools do: run a test, then r more times in the same JVM. Args:
 * r Class#method...; prints per test "FIRST_FAILED" (its first execution failed: not a candidate)
 * or the number of the r retries that failed.
 */
public class SameProcessRetry {
  public static void main(String[] args) throws Exception {
    System.setProperty("archetype.task", "retry");
    int r = Integer.parseInt(args[0]);
    JUnitCore core = new JUnitCore();
    for (int i = 1; i < args.length; i++) {
      String[] cm = args[i].split("#");
      Class<?> c = Class.forName(cm[0]);
      Result first = core.run(Request.method(c, cm[1]));
      if (!first.wasSuccessful()) { System.out.println(args[i] + " FIRST_FAILED"); continue; }
      int failed = 0;
      for (int k = 0; k < r; k++) if (!core.run(Request.method(c, cm[1])).wasSuccessful()) failed++;
      System.out.println(args[i] + " " + failed);
    }
  }
}
