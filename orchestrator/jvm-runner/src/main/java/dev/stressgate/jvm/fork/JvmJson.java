package dev.stressgate.jvm.fork;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The JSON lines that describe a JVM from inside it: a test JVM's {@code fork} line (written by the
 * JUnit Platform listener and by the fork agent) and a repetition's {@code jvm} line (the stress
 * runner's). One serializer for all three, so that the orchestrator can compare a repetition with
 * its fork field by field.
 */
public final class JvmJson {
    private JvmJson() {}

    /**
     * A fork line: {@code {"event":"fork",<agentFields>"javaHome","userDir","basedir","testClassPath",
     * "launcherJar","runtimeClassPath","harnessClassPath","absentClassPath","inputArguments","systemProperties",
     * "environment","configurationParameters"}}. {@code agentFields}: the agent's own fields, each
     * led by a comma, or "".
     */
    public static String forkLine(String agentFields, Map<String, String> properties, List<String> inputArguments,
                                  String launcherJar, Map<String, String> configurationParameters) {
        RuntimeClassPath classPath = RuntimeClassPath.of(properties);
        String testClassPath = properties.containsKey("surefire.test.class.path")
            ? properties.get("surefire.test.class.path")
            : properties.get("java.class.path");
        return "{\"event\":\"fork\"" + agentFields
            + place(properties)
            + ",\"basedir\":" + Json.str(properties.get("basedir"))
            + ",\"testClassPath\":" + Json.str(testClassPath)
            + ",\"launcherJar\":" + Json.str(launcherJar)
            + ",\"runtimeClassPath\":" + Json.str(RuntimeClassPath.join(classPath.runtime))
            + ",\"harnessClassPath\":" + Json.str(RuntimeClassPath.join(classPath.harness))
            + ",\"absentClassPath\":" + Json.str(RuntimeClassPath.join(absent(classPath.runtime)))
            + settings(properties, inputArguments)
            + ",\"configurationParameters\":" + Json.map(configurationParameters)
            + "}";
    }

    /**
     * The entries of {@code classPath} that do not exist while the fork runs (Surefire names
     * target/classes of a module without main sources): a repetition missing them differs in nothing.
     */
    static List<String> absent(List<String> classPath) {
        List<String> out = new ArrayList<>();
        for (String e : classPath) if (!new File(e).exists()) out.add(e);
        return out;
    }

    /**
     * A repetition JVM's own line: {@code {"event":"jvm","javaHome","userDir","classPath",
     * "inputArguments","systemProperties","environment"}}, the class path as the JVM loads classes
     * from it (read before the fork's system properties were set: Surefire's booter sets
     * java.class.path to the test class path, and the runner does the same for its tests).
     */
    public static String jvmLine(Map<String, String> properties, String classPath, List<String> inputArguments) {
        return "{\"event\":\"jvm\""
            + place(properties)
            + ",\"classPath\":" + Json.str(classPath)
            + settings(properties, inputArguments)
            + "}";
    }

    /** A snapshot of system properties, sorted by name. */
    public static Map<String, String> sorted(Properties properties) {
        Map<String, String> sorted = new TreeMap<>();
        for (String name : properties.stringPropertyNames()) {
            String value = properties.getProperty(name);
            if (value != null) sorted.put(name, value);
        }
        return sorted;
    }

    private static String place(Map<String, String> properties) {
        return ",\"javaHome\":" + Json.str(properties.get("java.home"))
            + ",\"userDir\":" + Json.str(properties.get("user.dir"));
    }

    private static String settings(Map<String, String> properties, List<String> inputArguments) {
        return ",\"inputArguments\":" + Json.list(inputArguments)
            + ",\"systemProperties\":" + Json.map(properties)
            + ",\"environment\":" + Json.map(new TreeMap<>(System.getenv()));
    }
}
