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
        // The scoped package (an unscoped `npx stress-orchestrator` could run a stranger's package),
        // the CLI's options, then `--` and the build's own arguments, each a word every shell reads alike.
        StringBuilder command = new StringBuilder("npx -p @stress-gate/orchestrator stress-orchestrator gradle --stress-new-tests ")
                .append(shellWord(mode)).append(" --");
        if (taskNames.isEmpty()) {
            command.append(" test");
        }
        for (String task : taskNames) {
            command.append(' ').append(shellWord(task));
        }
        return "stress gate: stressNewTests mode '" + mode + "' applies only when stress-orchestrator runs the build;"
                + " this build runs unchanged. Run the gate with: " + command;
    }

    /**
     * One word for sh, bash, dash, zsh and fish, as the CLI's reproduce command quotes it: bare when
     * plainly safe, else single-quoted with each {@code '} and {@code \} written outside the quotes
     * as {@code "'"} and {@code "\\"} (fish reads both as escapes inside single quotes).
     */
    static String shellWord(String word) {
        if (word.matches("[A-Za-z0-9_/.:@+,-][A-Za-z0-9_/.:=@+,-]*")) {
            return word;
        }
        if (word.isEmpty()) {
            return "''";
        }
        StringBuilder out = new StringBuilder();
        StringBuilder run = new StringBuilder();
        for (int i = 0; i < word.length(); i++) {
            char c = word.charAt(i);
            if (c == '\'' || c == '\\') {
                if (run.length() > 0) {
                    out.append('\'').append(run).append('\'');
                    run.setLength(0);
                }
                out.append(c == '\'' ? "\"'\"" : "\"\\\\\"");
            } else {
                run.append(c);
            }
        }
        if (run.length() > 0) {
            out.append('\'').append(run).append('\'');
        }
        return out.toString();
    }
}
