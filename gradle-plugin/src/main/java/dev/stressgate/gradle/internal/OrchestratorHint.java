package dev.stressgate.gradle.internal;

import dev.stressgate.gradle.StressNewTestsExtension;
import java.util.List;
import org.gradle.api.Action;
import org.gradle.api.initialization.Settings;
import org.gradle.api.logging.Logging;

/**
 * A build run without the orchestrator (plain {@code gradle test}) whose settings block sets a
 * mode: one lifecycle line says that the gate runs only through stress-orchestrator and how to
 * call it. The build itself is never changed.
 */
final class OrchestratorHint {

    private OrchestratorHint() {
    }

    /** Registers the check; the block is read once the settings script has set it. */
    static void register(Settings settings, final StressNewTestsExtension extension) {
        settings.getGradle().settingsEvaluated(new Action<Settings>() {
            @Override
            public void execute(Settings evaluated) {
                String line = message(extension.getMode(), evaluated.getStartParameter().getTaskNames());
                if (line != null) {
                    Logging.getLogger(OrchestratorHint.class).lifecycle(line);
                }
            }
        });
    }

    /** The line for a block's mode and the requested tasks, or null when the block asks for no gate. */
    static String message(String mode, List<String> taskNames) {
        if (mode == null || "off".equals(mode)) {
            return null;
        }
        StringBuilder command = new StringBuilder("npx stress-orchestrator gradle");
        if (taskNames.isEmpty()) {
            command.append(" test");
        }
        for (String task : taskNames) {
            command.append(' ').append(task);
        }
        command.append(" --stress-new-tests ").append(mode);
        return "stress gate: stressNewTests mode '" + mode + "' applies only when stress-orchestrator runs the build;"
                + " this build runs unchanged. Run the gate with: " + command;
    }
}
