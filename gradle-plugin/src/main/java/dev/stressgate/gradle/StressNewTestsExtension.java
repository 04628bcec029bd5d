package dev.stressgate.gradle;

import org.gradle.api.InvalidUserDataException;

/**
 * The {@code stressNewTests { … }} block of {@code settings.gradle(.kts)}: the repository's
 * settings for the stress gate. Every property is optional; the orchestrator's CLI flag and the
 * {@code STRESS_NEW_TESTS} environment variable take precedence over this block. There is no
 * token property on purpose: API tokens never live in the repository.
 */
public class StressNewTestsExtension {

    private String mode;
    private String serverUrl;
    private String project;
    private Integer requestTimeoutSeconds;
    private String executor;

    /**
     * What the gate does with the tests a branch adds: {@code "report"} (stress them and report,
     * the build result is the first pass's), {@code "enforce"} (fail when a new test disagrees with
     * itself) or {@code "off"}. Default: {@code null}, which means off.
     */
    public String getMode() {
        return mode;
    }

    /**
     * Sets {@link #getMode()}; anything but {@code report}, {@code enforce}, {@code off} (or
     * {@code null}, the default) is rejected, never silently treated as off.
     */
    public void setMode(String mode) {
        if (mode != null && !"report".equals(mode) && !"enforce".equals(mode) && !"off".equals(mode)) {
            throw new InvalidUserDataException(
                    "stressNewTests.mode: expected one of report, enforce, off; got '" + mode + "'");
        }
        this.mode = mode;
    }

    /** Base URL of the verdict API, e.g. {@code https://stress.example.com}. Default: {@code null} (no server). */
    public String getServerUrl() {
        return serverUrl;
    }

    /** Sets {@link #getServerUrl()}. */
    public void setServerUrl(String serverUrl) {
        this.serverUrl = serverUrl;
    }

    /** The project's handle on the verdict API, e.g. {@code acme/shop}. Default: {@code null}. */
    public String getProject() {
        return project;
    }

    /** Sets {@link #getProject()}. */
    public void setProject(String project) {
        this.project = project;
    }

    /**
     * Timeout of each request to the verdict API, in seconds. Default: {@code null}, which means
     * the orchestrator's own default.
     */
    public Integer getRequestTimeoutSeconds() {
        return requestTimeoutSeconds;
    }

    /** Sets {@link #getRequestTimeoutSeconds()}. */
    public void setRequestTimeoutSeconds(Integer requestTimeoutSeconds) {
        this.requestTimeoutSeconds = requestTimeoutSeconds;
    }

    /**
     * How the stress pass runs repetitions: {@code "direct"} (the orchestrator starts each
     * repetition's fresh JVM itself, with the Test task's own fork settings, as many at a time as
     * there are cores) or {@code "gradle"} (one Test task per repetition, one after another: the
     * reference). The {@code STRESS_GATE_EXECUTOR} environment variable takes precedence.
     * Default: {@code null}, which means {@code direct}.
     */
    public String getExecutor() {
        return executor;
    }

    /** Sets {@link #getExecutor()}; anything but {@code direct}, {@code gradle} (or {@code null}) is rejected. */
    public void setExecutor(String executor) {
        if (executor != null && !"direct".equals(executor) && !"gradle".equals(executor)) {
            throw new InvalidUserDataException(
                    "stressNewTests.executor: expected one of direct, gradle; got '" + executor + "'");
        }
        this.executor = executor;
    }
}
