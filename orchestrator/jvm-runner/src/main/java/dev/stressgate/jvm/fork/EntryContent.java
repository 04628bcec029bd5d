package dev.stressgate.jvm.fork;

import java.io.File;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Enumeration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * What one class path entry holds, as far as the runtime class path needs to know: whether it is
 * only a build tool's harness (every class it holds lies under a harness package) and, for a jar
 * with no classes at all, its manifest's {@code Class-Path}. Decided by content, never by name:
 * only a jar's central directory and manifest are read, and a directory is walked until its first
 * class outside the harness.
 */
final class EntryContent {
    /**
     * The packages of the build tools' own code in a test JVM: Surefire's booter, API and providers,
     * Gradle's worker (relocated under {@code worker/} in gradle-worker.jar) and the gate's own jars
     * (its runner and agent: {@code dev/stressgate/jvm/}; a project's own {@code dev.stressgate.*}
     * packages are not the gate).
     */
    static final String[] HARNESS_PACKAGES = {
        "org/apache/maven/surefire/", "org/apache/maven/plugin/surefire/", "org/gradle/", "worker/org/gradle/", "dev/stressgate/jvm/",
    };

    private static final String VERSIONED = "META-INF/versions/";
    private static final Map<String, EntryContent> CACHE = new ConcurrentHashMap<>();

    /** At least one class, and every class under {@link #HARNESS_PACKAGES}. */
    final boolean harness;
    /** The manifest's {@code Class-Path} of a jar with no classes (a manifest-only jar), else null. */
    final String manifestClassPath;

    private EntryContent(boolean harness, String manifestClassPath) {
        this.harness = harness;
        this.manifestClassPath = manifestClassPath;
    }

    /** The content of {@code entry}, read once per path in this JVM. */
    static EntryContent of(File entry) {
        return CACHE.computeIfAbsent(entry.getAbsolutePath(), k -> read(entry));
    }

    private static EntryContent read(File entry) {
        try {
            if (entry.isDirectory()) return ofDirectory(entry.toPath());
            if (entry.isFile()) return ofJar(entry);
        } catch (IOException | RuntimeException e) {
            // Unreadable (or not a zip at all): kept as it is, as the JVM would try it.
        }
        return new EntryContent(false, null);
    }

    private static EntryContent ofJar(File file) throws IOException {
        boolean anyClass = false;
        try (JarFile jar = new JarFile(file, false)) {
            for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                String name = e.nextElement().getName();
                if (!isClass(name)) continue;
                if (!isHarness(name)) return new EntryContent(false, null);
                anyClass = true;
            }
            if (anyClass) return new EntryContent(true, null);
            Manifest manifest = jar.getManifest();
            String classPath = manifest == null ? null : manifest.getMainAttributes().getValue(Attributes.Name.CLASS_PATH);
            return new EntryContent(false, classPath == null || classPath.trim().isEmpty() ? null : classPath);
        }
    }

    private static EntryContent ofDirectory(Path dir) throws IOException {
        final boolean[] anyClass = {false};
        final boolean[] other = {false};
        Files.walkFileTree(dir, new SimpleFileVisitor<Path>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                String name = dir.relativize(file).toString().replace(File.separatorChar, '/');
                if (!isClass(name)) return FileVisitResult.CONTINUE;
                if (!isHarness(name)) {
                    other[0] = true;
                    return FileVisitResult.TERMINATE;
                }
                anyClass[0] = true;
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
                return FileVisitResult.CONTINUE;
            }
        });
        return new EntryContent(anyClass[0] && !other[0], null);
    }

    /** A class file other than a module or package descriptor (which say nothing of whose code it is). */
    private static boolean isClass(String name) {
        return name.endsWith(".class") && !name.endsWith("module-info.class") && !name.endsWith("package-info.class");
    }

    /** Under a harness package, also inside a multi-release jar's {@code META-INF/versions/<n>/}. */
    static boolean isHarness(String name) {
        String path = name;
        if (path.startsWith(VERSIONED)) {
            int slash = path.indexOf('/', VERSIONED.length());
            path = slash < 0 ? path : path.substring(slash + 1);
        }
        for (String p : HARNESS_PACKAGES) if (path.startsWith(p)) return true;
        return false;
    }
}
