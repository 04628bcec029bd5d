// The adapters one gated run needs (the build tool, git, HTTP, output, clock), passed in by the
// entry point or by a test.
import type { GitRunner } from '../ci-env/detect-ci-env.js';
import type { GitExec } from '../diff/merge-base.js';
import type { Logger } from '../base/log.js';
import type { QuarantineSource } from '../quarantine/quarantine-source.js';
import type { BuildAdapter } from './build-adapter.js';

/** The build tool of this run (Gradle or Maven). */
export interface BuildSystem {
  /** Prepares the adapter for this invocation. */
  prepare: (deps: GateDeps, projectDir: string) => Promise<BuildAdapter>;
  /** The build's output folder, where the JSON report goes by default (Gradle's: `build`). */
  outputDir: string;
  /** What configuration errors put before a settings key (Gradle's: `stressNewTests.`). */
  settingsPrefix: string;
  /** The build tool as the reproduce command names it: `gradle`, `mvn`, `./mvnw` (with `--maven-executable …`). */
  tool: readonly string[];
}

/** The adapters one run needs. */
export interface GateDeps {
  env: NodeJS.ProcessEnv;
  cwd: string;
  out: (text: string) => void;
  err: (text: string) => void;
  logger: Logger;
  git: (cwd: string) => GitRunner;
  /** git with its stderr, for the diff analysis (diff/); absent: no diff analysis, no fingerprints. */
  gitExec?: (cwd: string) => GitExec;
  /** The build tool. */
  build: BuildSystem;
  /** Where the quarantine comes from; default: the verdict API configured by flag or environment. */
  quarantine?: QuarantineSource;
  fetch?: typeof globalThis.fetch;
  now: () => number;
  /** When this process started (deps.now()'s clock): the report's overhead counts from it. */
  processStartedAt?: number;
  /** stderr is a terminal: progress is one live line rather than a line per batch. */
  errIsTTY?: boolean;
  /** Aborted with 'SIGINT' or 'SIGTERM' when the CI job is cancelled. */
  signal?: AbortSignal;
}
