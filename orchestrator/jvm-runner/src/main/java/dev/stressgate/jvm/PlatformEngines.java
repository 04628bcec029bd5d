package dev.stressgate.jvm;

import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.platform.engine.TestEngine;

/**
 * Says why the JUnit Platform found no test for a unique ID, in words that hold for every candidate
 * of the same class path: the test engines it has (as the launcher finds them, through
 * ServiceLoader) and whether the engine the unique ID names is among them. A project that declares
 * only junit-jupiter-api gets its Jupiter engine from Surefire at run time, so a JVM started from
 * the test class path alone has none.
 */
final class PlatformEngines {
    private static final Pattern ENGINE = Pattern.compile("^\\[engine:([^\\]]+)\\]");

    /** Engine id to its version ("" when it has none). */
    private Map<String, String> engines;

    /** The unrunnable cause for {@code uniqueId} (which the sentence does not repeat). */
    String noSuchTest(String uniqueId) {
        Map<String, String> found = engines();
        StringBuilder b = new StringBuilder("the JUnit Platform found no such test; test engines on the class path: ");
        if (found.isEmpty()) b.append("none");
        String sep = "";
        for (Map.Entry<String, String> e : found.entrySet()) {
            b.append(sep).append(e.getKey()).append(e.getValue().isEmpty() ? "" : " " + e.getValue());
            sep = ", ";
        }
        Matcher named = ENGINE.matcher(uniqueId);
        if (named.find() && !found.containsKey(named.group(1))) b.append(" (no ").append(named.group(1)).append(" engine, which the unique ID names)");
        return b.toString();
    }

    private Map<String, String> engines() {
        if (engines != null) return engines;
        engines = new TreeMap<>();
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        Iterator<TestEngine> it = ServiceLoader.load(TestEngine.class, loader != null ? loader : PlatformEngines.class.getClassLoader()).iterator();
        // Bounded: a provider that fails on every call must not hold the JVM.
        for (int i = 0; i < 100; i++) {
            TestEngine engine;
            try {
                if (!it.hasNext()) break;
                engine = it.next();
            } catch (ServiceConfigurationError | LinkageError broken) {
                // Listed in META-INF/services but not loadable: the launcher cannot use it either.
                engines.put("(an engine that cannot be loaded: " + broken + ")", "");
                continue;
            }
            engines.put(engine.getId(), version(engine));
        }
        return engines;
    }

    /** The engine's version; engines built before the platform had getVersion(), or that fail in it, have none. */
    private static String version(TestEngine engine) {
        try {
            Optional<String> v = engine.getVersion();
            return v != null && v.isPresent() ? v.get() : "";
        } catch (RuntimeException | LinkageError e) {
            return "";
        }
    }
}
