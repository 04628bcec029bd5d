// Loads the quarantine before the first pass: from the verdict API when one is configured by
// flag or environment (the settings block is only known after the first pass), unless the user
// asked to ignore it. A fetch failure is a warning and everything runs, unmasked.
import type { Config } from '../config/config.js';
import type { Logger } from '../base/log.js';
import { createHttpQuarantineSource } from './http-quarantine-source.js';
import { emptyQuarantine, type QuarantineLists, type QuarantineSource } from './quarantine-source.js';
import { splitFilterable } from './filterable.js';
import { terminalSafe } from '../format/terminal-safe.js';

/** What loading needs: the early configuration, the switch, an override source (tests), output. */
export interface LoadQuarantineDeps {
  skipQuarantine: boolean;
  source?: QuarantineSource;
  fetch?: typeof globalThis.fetch;
  logger: Logger;
  err: (text: string) => void;
}

/** The lists to apply to this run: empty when ignored, unconfigured or unreachable. */
export async function loadQuarantine(early: Config, deps: LoadQuarantineDeps): Promise<QuarantineLists> {
  if (deps.skipQuarantine) return emptyQuarantine();
  let source = deps.source;
  if (!source) {
    if (!early.serverUrl || !early.project || !early.token) return emptyQuarantine();
    source = createHttpQuarantineSource({
      serverUrl: early.serverUrl,
      project: early.project,
      token: early.token,
      timeoutMs: early.requestTimeoutSeconds * 1000,
      logger: deps.logger,
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
    });
  }
  const fetched = await source.lists().catch((e: Error) => ({ ok: false as const, problem: e.message }));
  if (fetched.ok) {
    // Checked here, before any build writes them into its test filter (filterable.ts).
    const { filterable, refused } = splitFilterable(fetched.value.skippedTests);
    if (refused.length) {
      const named = refused.slice(0, 3).map((t) => terminalSafe(`${t.module.slice(0, 120)} ${JSON.stringify(t.suite).slice(0, 120)} ${JSON.stringify(t.name).slice(0, 120)}`)).join('; ');
      deps.err(
        `stress-gate: warning: ${refused.length} quarantined test(s) marked skip cannot be kept out of the build: their identity is not a plain class and method name ` +
          `(a newline, a wildcard or another character a test filter reads as a pattern): ${named}${refused.length > 3 ? '; …' : ''}. They run, and their results are ignored.\n`,
      );
    }
    return { ...fetched.value, skippedTests: filterable };
  }
  deps.err(`stress-gate: warning: could not fetch the quarantine list (${terminalSafe(fetched.problem)}); nothing is muted or skipped.\n`);
  return emptyQuarantine();
}
