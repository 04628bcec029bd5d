package dev.stressgate.gradle;

import dev.stressgate.gradle.internal.StressGateBuild;
import org.gradle.api.GradleException;
import org.gradle.api.Plugin;
import org.gradle.api.initialization.Settings;
import org.gradle.api.plugins.ExtensionAware;

/**
 * Settings plugin of the stress gate: adds the {@code stressNewTests { … }} block and, when the
 * orchestrator passes {@code -PstressGate.manifest=…} or {@code -PstressGate.plan=…}, describes
 * the build's test tasks and creates the stress pass's repetition tasks.
 */
public class StressNewTestsPlugin implements Plugin<Settings> {

    /** The name of the settings block. */
    public static final String EXTENSION_NAME = "stressNewTests";

    @Override
    public void apply(Settings settings) {
        // Settings is ExtensionAware at runtime in every Gradle version (it is a decorated object),
        // but its interface only declares it from Gradle 5 on.
        if (!(settings instanceof ExtensionAware)) {
            throw new GradleException("stress gate: this Gradle version's Settings has no extensions");
        }
        ExtensionAware aware = (ExtensionAware) settings;
        if (aware.getExtensions().findByName(EXTENSION_NAME) != null) {
            return; // already applied, e.g. by settings.gradle and again by the orchestrator's init script
        }
        StressNewTestsExtension extension =
                aware.getExtensions().create(EXTENSION_NAME, StressNewTestsExtension.class);
        StressGateBuild.install(settings, extension);
    }
}
