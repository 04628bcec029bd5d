package dev.stressgate.gradle.internal;

import dev.stressgate.gradle.StressNewTestsExtension;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gradle.api.GradleException;
import org.gradle.api.invocation.Gradle;
import org.gradle.api.tasks.testing.Test;

/** Writes the manifest: the settings block and every Test task with its JUnit XML directory. */
final class Manifest {

    /** The plugin's version, reported so the orchestrator can check compatibility. */
    static final String PLUGIN_VERSION = "0.1.0";

    private Manifest() {
    }

    static void write(File file, Gradle gradle, StressNewTestsExtension extension, List<Test> tests) {
        Map<String, Object> settings = new LinkedHashMap<String, Object>();
        settings.put("mode", extension.getMode());
        settings.put("serverUrl", extension.getServerUrl());
        settings.put("project", extension.getProject());
        settings.put("requestTimeoutSeconds", extension.getRequestTimeoutSeconds());
        settings.put("executor", extension.getExecutor());

        List<Object> testTasks = new ArrayList<Object>();
        for (Test test : tests) {
            Map<String, Object> t = new LinkedHashMap<String, Object>();
            t.put("path", test.getPath());
            t.put("projectPath", test.getProject().getPath());
            t.put("name", test.getName());
            File xml = GradleCompat.reportDestination(test.getReports().getJunitXml());
            t.put("junitXmlDir", xml == null ? null : xml.getAbsolutePath());
            testTasks.add(t);
        }

        Map<String, Object> root = new LinkedHashMap<String, Object>();
        root.put("pluginVersion", PLUGIN_VERSION);
        root.put("gradleVersion", gradle.getGradleVersion());
        root.put("rootDir", gradle.getRootProject().getRootDir().getAbsolutePath());
        root.put("settings", settings);
        root.put("testTasks", testTasks);
        try {
            Files8.write(file, Json.write(root) + "\n", false);
        } catch (IOException e) {
            throw new GradleException("stress gate: cannot write the manifest " + file + ": " + e.getMessage(), e);
        }
    }
}
