// The few errors the orchestrator throws when it cannot go on. Each has a stable `code`; only
// the entry point (cli.ts) maps codes to exit codes. Expected outcomes are values, not these.

/** Stable codes of the errors below. */
export type ErrorCode = 'USAGE' | 'CONFIG' | 'BUILD_NOT_RUNNABLE' | 'PLUGIN_MISSING';

/** Base class: a message meant for the user and a stable code. */
export class StressGateError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The command line cannot be understood (unknown command, bad option value). */
export class UsageError extends StressGateError {
  constructor(message: string) {
    super('USAGE', message);
  }
}

/** The resolved configuration is invalid; the message is `path: message` lines. */
export class ConfigError extends StressGateError {
  constructor(message: string) {
    super('CONFIG', message);
  }
}

/** The build tool (./gradlew, gradle, ./mvnw, mvn) could not be started at all. */
export class BuildNotRunnableError extends StressGateError {
  constructor(message: string) {
    super('BUILD_NOT_RUNNABLE', message);
  }
}

/** The Gradle plugin jar or its init-script template is not where it should be. */
export class PluginMissingError extends StressGateError {
  constructor(message: string) {
    super('PLUGIN_MISSING', message);
  }
}

/** Exit codes by error code: 2 for what the user typed or configured, 3 for a broken install. */
export function exitCodeFor(code: ErrorCode): number {
  switch (code) {
    case 'USAGE':
    case 'CONFIG':
      return 2;
    case 'BUILD_NOT_RUNNABLE':
    case 'PLUGIN_MISSING':
      return 3;
  }
}
