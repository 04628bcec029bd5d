package dev.stressgate.jvm.fork;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The JSON lines that describe a JVM from inside it: a test JVM's {@code fork} line (written by the
 * JUnit Platform listener and by the fork agent) and a repetition's {@code jvm} line (the stress
 * runner's). One serializer for all three, so that the orchestrator can compare a repetition with
 * its fork field by field.
 */
public final class JvmJson {
    private JvmJson() {}

    /**
     * Environment variable names whose values are secrets: the same pattern as the orchestrator's
     * (orchestrator/src/jvm/secret-name.ts; a test there reads this line to keep them equal).
     */
    public static final Pattern SECRET_NAME = Pattern.compile("TOKEN|SECRET|PASSW|CREDENTIAL|API_?KEY|ACCESS_?KEY|PRIVATE|AUTH|SESSION|COOKIE|JWT", Pattern.CASE_INSENSITIVE);

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
            + ",\"environment\":" + Json.map(new TreeMap<>(System.getenv()))
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
     * "inputArguments","systemProperties","environment","secretEnvironment"}}, the class path as the
     * JVM loads classes from it (read before the fork's system properties were set: Surefire's
     * booter sets java.class.path to the test class path, and the runner does the same for its
     * tests). The line is kept in the project's build folder (build/stress-gate/repetitions), which
     * CI jobs archive: a secret-looking variable is in {@code secretEnvironment} as the SHA-256 of
     * its value, never the value. (The fork line keeps values: the repetitions are started with
     * them, and it is written to the gate's own temp folder, private and removed after the run.)
     */
    public static String jvmLine(Map<String, String> properties, String classPath, List<String> inputArguments) {
        Map<String, String> plain = new TreeMap<>();
        Map<String, String> secret = new TreeMap<>();
        for (Map.Entry<String, String> e : System.getenv().entrySet()) {
            if (SECRET_NAME.matcher(e.getKey()).find()) secret.put(e.getKey(), sha256(e.getValue()));
            else plain.put(e.getKey(), e.getValue());
        }
        return "{\"event\":\"jvm\""
            + place(properties)
            + ",\"classPath\":" + Json.str(classPath)
            + settings(properties, inputArguments)
            + ",\"environment\":" + Json.map(plain)
            + ",\"secretEnvironment\":" + Json.map(secret)
            + "}";
    }

    /** The SHA-256 of a string's UTF-8 bytes, in lower-case hex. */
    static String sha256(String value) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
            StringBuilder b = new StringBuilder(64);
            for (byte x : digest) b.append(String.format("%02x", x & 0xff));
            return b.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
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
            + ",\"systemProperties\":" + Json.map(properties);
    }
}
