package dev.stressgate.gradle.internal;

import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Collection;
import java.util.concurrent.ConcurrentHashMap;
import org.gradle.api.GradleException;
import org.gradle.api.reporting.Report;
import org.gradle.api.tasks.testing.Test;
import org.gradle.api.tasks.testing.TestDescriptor;
import org.gradle.api.tasks.testing.TestFilter;

/**
 * Calls to Gradle APIs that changed between 4.4 and 8.x, done by reflection: the newer API when
 * the running Gradle has it, else the 4.4 one (which later versions removed).
 */
final class GradleCompat {

    private GradleCompat() {
    }

    /** The directory a report writes to: {@code getOutputLocation()} (6.1+), else {@code getDestination()} (removed in 8). */
    static File reportDestination(Report report) {
        Object location = invokeIfPresent(report, "getOutputLocation");
        if (location != null) {
            return asFile(invoke(location, "getOrNull"));
        }
        return asFile(invoke(report, "getDestination"));
    }

    /** Points a report at a directory: {@code getOutputLocation().set(File)}, else {@code setDestination(File)}. */
    static void setReportDestination(Report report, File dir) {
        Object location = invokeIfPresent(report, "getOutputLocation");
        if (location != null) {
            setFileProperty(location, dir);
        } else {
            invoke(report, "setDestination", new Class<?>[] {File.class}, dir);
        }
    }

    /** Turns a report off: {@code getRequired().set(false)} (6.1+), else {@code setEnabled(false)} (removed in 8). */
    static void disableReport(Report report) {
        Object required = invokeIfPresent(report, "getRequired");
        if (required != null) {
            invoke(required, "set", new Class<?>[] {Object.class}, Boolean.FALSE);
        } else {
            invoke(report, "setEnabled", new Class<?>[] {boolean.class}, Boolean.FALSE);
        }
    }

    /**
     * Sets where a Test task keeps its binary results: {@code getBinaryResultsDirectory().set(File)}
     * (the only API in 8.x). Gradle 4.4 has that property too, but its task runs with the
     * convention-mapped {@code getBinResultsDir()}, which ignores a value set on the property; so
     * when the old getter still disagrees, the old setter (removed in 8) is called as well.
     */
    static void setBinaryResultsDir(Test task, File dir) {
        Object property = invokeIfPresent(task, "getBinaryResultsDirectory");
        if (property != null) {
            setFileProperty(property, dir);
        }
        Method oldGetter = findMethod(task, "getBinResultsDir");
        if (oldGetter != null && !dir.equals(call(oldGetter, task))) {
            invoke(task, "setBinResultsDir", new Class<?>[] {File.class}, dir);
        }
    }

    /**
     * Selects exactly one test method: {@code includeTest(className, methodName)} (Gradle 5+) when
     * present. Gradle 4.4's {@code includeTestsMatching} turns the pattern into a regex by
     * splitting on '*' and {@code Pattern.quote}-ing every other part, then full-matches it against
     * {@code className + "." + methodName} (or the class name alone): '.', '$', '[', ']', spaces,
     * quotes, '+', parentheses and non-ASCII are all literal there, so {@code suite + "." + name}
     * selects exactly that test. Only '*' stays a wildcard; it can only widen the selection (the
     * orchestrator reads the candidates it asked for from the XML by identity). Later versions'
     * {@code includeTestsMatching} treat '.' and upper-case initials specially, hence includeTest.
     */
    static void includeTest(TestFilter filter, String className, String methodName) {
        Method m = findMethod(filter, "includeTest", String.class, String.class);
        if (m != null) {
            call(m, filter, className, methodName);
        } else {
            filter.includeTestsMatching(className + "." + methodName);
        }
    }

    /**
     * Keeps one test out of a Test task: {@code excludeTest} (Gradle 5.0+). Gradle 4.4's filter can
     * only include, so there it returns false and the caller says so; a class pattern would drop
     * the class's other tests with it.
     */
    static boolean excludeTest(TestFilter filter, String className, String methodName) {
        Method m = findMethod(filter, "excludeTest", String.class, String.class);
        if (m == null) {
            return false;
        }
        call(m, filter, className, methodName);
        return true;
    }

    /**
     * Makes the repetition task use the same test framework as the original. {@code getTestFramework()}
     * returns an internal type and {@code useJUnitPlatform()} does not exist in 4.4, so the framework
     * is recognised by its class name and switched by reflection; JUnit 4 is the fallback.
     */
    static void copyTestFramework(Test original, Test copy) {
        Object framework = invokeIfPresent(original, "getTestFramework");
        String name = framework == null ? "" : framework.getClass().getName();
        if (name.contains("JUnitPlatform")) {
            invoke(copy, "useJUnitPlatform", new Class<?>[0]);
        } else if (name.contains("TestNG")) {
            copy.useTestNG();
        } else {
            copy.useJUnit();
        }
    }

    /** "junit", "junit-platform" or "testng": the framework a Test task runs, by its class name. */
    static String testFrameworkName(Test task) {
        Object framework = invokeIfPresent(task, "getTestFramework");
        String name = framework == null ? "" : framework.getClass().getName();
        return name.contains("JUnitPlatform") ? "junit-platform" : name.contains("TestNG") ? "testng" : "junit";
    }

    /**
     * The java executable a Test task forks: {@code getJavaLauncher().get().getExecutablePath()}
     * (6.7+, toolchains) when set, else {@code getExecutable()} (4.4+), else the running JVM's.
     */
    static String javaExecutable(Test task) {
        Object launcher = invokeIfPresent(task, "getJavaLauncher");
        if (launcher != null && Boolean.TRUE.equals(invokeIfPresent(launcher, "isPresent"))) {
            Object path = invokeIfPresent(invoke(launcher, "get"), "getExecutablePath");
            if (path != null) {
                return asFile(path).getAbsolutePath();
            }
        }
        if (task.getExecutable() != null) {
            return task.getExecutable();
        }
        return new File(new File(System.getProperty("java.home"), "bin"), "java").getAbsolutePath();
    }

    /** Copies the launcher/executable: {@code getJavaLauncher()} (6.7+, toolchains) else {@code executable}. */
    static void copyJavaExecutable(Test original, Test copy) {
        Object launcher = invokeIfPresent(original, "getJavaLauncher");
        if (launcher != null) {
            Object target = invoke(copy, "getJavaLauncher");
            Method set = findMethod(target, "set", findProviderType(launcher));
            if (set != null) {
                call(set, target, launcher);
                return;
            }
        }
        if (original.getExecutable() != null) {
            copy.setExecutable(original.getExecutable());
        }
    }

    /** Copies {@code jvmArgumentProviders} (Gradle 4.6+, e.g. JaCoCo's agent). */
    @SuppressWarnings("unchecked")
    static void copyJvmArgumentProviders(Test original, Test copy) {
        Object from = invokeIfPresent(original, "getJvmArgumentProviders");
        Object to = invokeIfPresent(copy, "getJvmArgumentProviders");
        if (from instanceof Collection && to instanceof Collection) {
            for (Object provider : (Collection<Object>) from) {
                if (!((Collection<Object>) to).contains(provider)) {
                    ((Collection<Object>) to).add(provider);
                }
            }
        }
    }

    /** {@code TestDescriptor.getDisplayName()} exists from Gradle 4.10; before that, the name. */
    static String displayName(TestDescriptor descriptor) {
        // Looked up once per descriptor class: on Gradle 4.4 the method is absent, and a failed
        // lookup per test (a NoSuchMethodException each) cost about 0.3 s per 50,000 tests.
        Class<?> type = descriptor.getClass();
        Object method = DISPLAY_NAME_METHODS.get(type);
        if (method == null) {
            Method found = findMethod(descriptor, "getDisplayName");
            method = found == null ? NO_METHOD : found;
            DISPLAY_NAME_METHODS.put(type, method);
        }
        Object name = method == NO_METHOD ? null : call((Method) method, descriptor);
        return name == null ? descriptor.getName() : name.toString();
    }

    private static final Object NO_METHOD = new Object();
    private static final ConcurrentHashMap<Class<?>, Object> DISPLAY_NAME_METHODS = new ConcurrentHashMap<Class<?>, Object>();

    private static Class<?> findProviderType(Object launcher) {
        try {
            return Class.forName("org.gradle.api.provider.Provider", false, launcher.getClass().getClassLoader());
        } catch (ClassNotFoundException e) {
            return Object.class;
        }
    }

    private static void setFileProperty(Object property, File file) {
        Method m = findMethod(property, "set", File.class);
        if (m == null) {
            m = findMethod(property, "set", Object.class);
        }
        if (m == null) {
            throw new GradleException("stress gate: cannot set " + property.getClass().getName() + " to a file");
        }
        call(m, property, file);
    }

    private static File asFile(Object value) {
        if (value == null || value instanceof File) {
            return (File) value;
        }
        Object file = invokeIfPresent(value, "getAsFile"); // Directory / RegularFile
        return file instanceof File ? (File) file : new File(value.toString());
    }

    private static Object invokeIfPresent(Object target, String name) {
        Method m = findMethod(target, name);
        return m == null ? null : call(m, target);
    }

    private static Object invoke(Object target, String name) {
        return invoke(target, name, new Class<?>[0]);
    }

    private static Object invoke(Object target, String name, Class<?>[] types, Object... args) {
        Method m = findMethod(target, name, types);
        if (m == null) {
            throw new GradleException("stress gate: " + target.getClass().getName() + " has no method " + name);
        }
        return call(m, target, args);
    }

    private static Method findMethod(Object target, String name, Class<?>... types) {
        try {
            Method m = target.getClass().getMethod(name, types);
            try {
                m.setAccessible(true); // public method of a non-public implementation class
            } catch (RuntimeException ignored) {
                // inaccessible module: the public method may still be callable
            }
            return m;
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    private static Object call(Method m, Object target, Object... args) {
        try {
            return m.invoke(target, args);
        } catch (IllegalAccessException e) {
            throw new GradleException("stress gate: cannot call " + m, e);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException) {
                throw (RuntimeException) cause;
            }
            throw new GradleException("stress gate: " + m + " failed", cause);
        }
    }
}
