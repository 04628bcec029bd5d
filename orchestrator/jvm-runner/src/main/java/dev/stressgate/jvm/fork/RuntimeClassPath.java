package dev.stressgate.jvm.fork;

import java.io.File;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A test JVM's runtime class path as seen from inside it: what its tests could load, which is more
 * than the build's test class path. Surefire adds its provider's own class path at run time (the
 * JUnit Platform launcher and the Jupiter engine of a project that declares only
 * junit-jupiter-api) and starts the fork from a manifest-only jar, so {@code
 * surefire.test.class.path} misses them; a repetition started from it found no Jupiter engine.
 *
 * <p>It starts from {@code surefire.real.class.path} when set, else {@code java.class.path};
 * replaces each manifest-only jar with its manifest's entries (resolved against the jar's own
 * location); then takes out the build tool's harness (see {@link EntryContent#HARNESS_PACKAGES}).
 * An entry that does not exist stays, for the orchestrator to report.
 */
public final class RuntimeClassPath {
    /** The entries a repetition needs, in the JVM's order. */
    public final List<String> runtime;
    /** The entries taken out as the build tool's own (Surefire's booter and provider, Gradle's worker, the gate's jars). */
    public final List<String> harness;

    private RuntimeClassPath(List<String> runtime, List<String> harness) {
        this.runtime = Collections.unmodifiableList(runtime);
        this.harness = Collections.unmodifiableList(harness);
    }

    /** The runtime class path of the JVM whose system properties are {@code properties}. */
    public static RuntimeClassPath of(Map<String, String> properties) {
        String real = properties.get("surefire.real.class.path");
        if (real == null || real.isEmpty()) return of(properties.get("java.class.path"));
        // What the project's own test class path holds is the project's, whatever its packages (a
        // project that tests Surefire itself has org.apache.maven.surefire classes of its own).
        String test = properties.get("surefire.test.class.path");
        Set<String> own = new HashSet<>();
        if (test != null) for (String e : test.split(File.pathSeparator)) if (!e.isEmpty()) own.add(new File(e).getAbsolutePath());
        return of(real, own);
    }

    /** The runtime class path of a JVM started with {@code classPath} (entries joined with File.pathSeparator). */
    public static RuntimeClassPath of(String classPath) {
        return of(classPath, Collections.<String>emptySet());
    }

    /** The same, never counting as harness an entry whose absolute path is in {@code own}. */
    static RuntimeClassPath of(String classPath, Set<String> own) {
        Set<String> expanded = new LinkedHashSet<>();
        if (classPath != null) {
            for (String entry : classPath.split(File.pathSeparator)) {
                if (!entry.isEmpty()) expand(entry, expanded, new HashSet<String>());
            }
        }
        List<String> runtime = new ArrayList<>();
        List<String> harness = new ArrayList<>();
        for (String entry : expanded) {
            boolean tool = !own.contains(new File(entry).getAbsolutePath()) && EntryContent.of(new File(entry)).harness;
            (tool ? harness : runtime).add(entry);
        }
        return new RuntimeClassPath(runtime, harness);
    }

    /** {@code entries} joined with File.pathSeparator. */
    public static String join(List<String> entries) {
        StringBuilder b = new StringBuilder();
        for (String e : entries) b.append(b.length() > 0 ? File.pathSeparator : "").append(e);
        return b.toString();
    }

    /** Adds {@code entry}, or the entries of its manifest when it is a manifest-only jar (so does the JVM). */
    private static void expand(String entry, Set<String> out, Set<String> visiting) {
        File file = new File(entry);
        String manifestClassPath = EntryContent.of(file).manifestClassPath;
        if (manifestClassPath == null || !visiting.add(file.getAbsolutePath())) {
            out.add(entry);
            return;
        }
        for (String url : manifestClassPath.trim().split("\\s+")) expand(resolve(file, url), out, visiting);
        visiting.remove(file.getAbsolutePath());
    }

    /**
     * A manifest {@code Class-Path} URL as a path: relative to the jar's own directory, URL-decoded
     * ({@code %20}); a directory ({@code ../test-classes/}) loses its trailing slash as a path does.
     */
    static String resolve(File jar, String url) {
        try {
            URI uri = jar.getAbsoluteFile().toURI().resolve(new URI(url));
            return "file".equals(uri.getScheme()) ? new File(uri).getPath() : uri.toString();
        } catch (URISyntaxException | IllegalArgumentException e) {
            // Not a URI (an unescaped character): the JVM would not load it; kept as a relative path.
            return new File(jar.getAbsoluteFile().getParentFile(), url).getPath();
        }
    }
}
