// One CI run of the gate (DESIGN "The flow of one CI run"), with every adapter passed in. After
// the first pass the gate fails open: any trouble of its own ends in a visible report and the
// first pass's exit code, never in a changed one.
import { rm } from 'node:fs/promises';
import type { ToolFlags } from '../args/parse-args.js';
import { detectCiEnv } from '../ci-env/detect-ci-env.js';
import { resolveConfig, type Config } from '../config/config.js';
import { booleanEnv, buildEnvironment, checkEnvironment } from '../config/environment.js';
import { StressGateError } from '../base/errors.js';
import { failingTests } from '../first-pass/failed-on-new.js';
import type { FirstPass } from '../first-pass/first-pass.js';
import type { Logger } from '../base/log.js';
import { loadQuarantine } from '../quarantine/load-quarantine.js';
import { mutedCheck, type MutedCheck } from '../quarantine/quarantine-source.js';
import { createVerdictClient, type VerdictClient } from '../verdict/verdict-client.js';
import type { BuildAdapter } from './build-adapter.js';
import { askVerdict } from './ask-verdict.js';
import { decideOnVerdict, type VerdictContext } from './decide-on-verdict.js';
import { uploadRun, type UploadedRun } from './upload-run.js';
import { cancelled, exitCodeForSignal } from './cancellation.js';
import type { GateDeps } from './gate-deps.js';
import type { GateReport } from '../report/gate-report.js';
import { finishGate, stoppedReport } from './finish-gate.js';
import { terminalSafe } from '../format/terminal-safe.js';
import { diffSources } from '../diff/diff-sources.js';

/** Runs the gate; returns the process exit code. Throws only StressGateErrors (usage, install). */
export async function runGate(flags: ToolFlags, buildArgs: readonly string[], deps: GateDeps): Promise<number> {
  // A bad mode or any other bad value in a flag or the environment is a usage error before the build runs.
  checkEnvironment(deps.env);
  const early = resolveConfig(flags, deps.env, null, deps.cwd, deps.build);
  if (flags.token !== undefined) {
    deps.err('stress-gate: warning: --token shows in the process list and shell history; prefer STRESS_GATE_TOKEN.\n');
  }
  // The build runs with the environment minus the gate's credentials (environment.ts).
  const build = await deps.build.prepare({ ...deps, env: buildEnvironment(deps.env) }, early.projectDir);
  try {
    return await gateWithBuild(flags, buildArgs, early, build, deps);
  } finally {
    // The class archive being made reads its class list from the temp dir (class-archive.ts).
    await build.settle?.();
    // The init script, manifest, plan and repetition XML are this invocation's only. (After a
    // ceiling cut the cancelling daemon may still append a line to the results log: a stray file.)
    if (!booleanEnv(deps.env, 'STRESS_GATE_KEEP_TEMP')) await rm(build.workDir, { recursive: true, force: true }).catch(() => undefined);
  }
}

async function gateWithBuild(flags: ToolFlags, buildArgs: readonly string[], early: Config, build: BuildAdapter, deps: GateDeps): Promise<number> {
  const log = deps.logger.child({ module: 'run-gate' });
  const quarantine = await loadQuarantine(early, {
    skipQuarantine: flags.skipQuarantine === true || booleanEnv(deps.env, 'STRESS_GATE_SKIP_QUARANTINE'),
    ...(deps.quarantine ? { source: deps.quarantine } : {}),
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    logger: deps.logger,
    err: deps.err,
  });
  const muted = quarantine.muted;
  // Built when the results are read, so a bad list is the gate's trouble after the first pass.
  let check: MutedCheck | undefined;
  let skipCheck: MutedCheck | undefined;
  const firstPass = build.firstPass(buildArgs, {
    isMuted: (id, projectId) => (check ??= mutedCheck(muted))(id, projectId),
    isSkipped: (id, projectId) => (skipCheck ??= mutedCheck(quarantine.skipped))(id, projectId),
    skippedTests: quarantine.skippedTests,
    now: deps.now,
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
  // The branch and commit of the upload, found while the build runs (git, env-ci) rather than after,
  // so the upload (the longest request after a large first pass) leaves as soon as the results are read.
  const ciEnv = new Promise<void>((r) => setTimeout(r, 0))
    .then(() => detectCiEnv(deps.env, deps.git(early.projectDir), early.projectDir))
    .then((ci) => ({ ok: true as const, ci }), (error: unknown) => ({ ok: false as const, error }));
  // The merge request's diff (merge base, touched files) is read while the build runs, too.
  const sources = diffSources(deps.gitExec?.(early.projectDir) ?? null, early.projectDir, deps.env);
  if (early.mode !== 'off') void ciEnv.then((ci) => sources.prepare({ headBranch: ci.ok ? ci.ci.branch : null, defaultBranch: null }));
  const first = await firstPass;
  // A bad mode in the settings block is the user's configuration: a usage error, as before the build.
  const config = resolveConfig(flags, { ...deps.env, STRESS_GATE_RUN_ID: early.runId }, first.settings, deps.cwd, deps.build);
  for (const notice of config.notices) deps.err(`stress-gate: warning: ${terminalSafe(notice)}\n`);
  if (config.mode !== 'off' && cancelled(deps.signal)) {
    return finishGate(stoppedReport(config.mode, config, first, { kind: 'cancelled', signal: cancelled(deps.signal)! }), null, config, deps);
  }
  if (cancelled(deps.signal)) return exitCodeForSignal(cancelled(deps.signal)!);
  let client: VerdictClient | null = null;
  try {
    client = await during('uploading the run', () => clientFor(config, deps, log));
    // A failure to detect the CI environment fails the upload (a gate error), not the verdict request.
    const ci = await ciEnv;
    const uploader = client;
    // The run's upload (in every mode, when a server is configured), started when called. The run
    // must be stored before the gated observation refers to it, so the upload is awaited before
    // the gated observation and the report (a bug in it is a gate error), and by a CI run of the
    // default branch before it asks again (decide-on-verdict.ts).
    const startUpload = (defaultBranch?: string | null): Promise<UploadedRun | null> => {
      if (!uploader) return Promise.resolve(null);
      const upload = during('uploading the run', () => {
        if (!ci.ok) throw ci.error;
        return uploadRun(uploader, config, first, ci.ci, deps, sources, defaultBranch);
      });
      upload.catch(() => undefined); // awaited later; meanwhile its failure is not an unhandled rejection
      return upload;
    };
    if (config.mode === 'off') return (await startUpload(), first.exitCode);
    const mode = config.mode;
    const recordedOn = uploader && ci.ok ? { branch: ci.ci.branch, isCi: ci.ci.isCi } : null;
    const run = { build, buildArgs, muted, recordedOn, diff: sources };
    const report = await during('deciding on the verdict', () => gateAfterFirstPass(mode, config, first, uploader, run, startUpload, deps));
    return await during('writing the report', () => finishGate(report, client, config, deps));
  } catch (e) {
    if (isUsersError(e)) throw e;
    // The gate's own trouble (a bug, an unreadable file, a failed write): it never blocks.
    const trouble = e instanceof GateTrouble ? e : new GateTrouble('running the gate', e);
    log.error({ err: trouble.cause }, 'the gate could not run');
    if (config.mode === 'off') {
      deps.err(`stress-gate: warning: ${terminalSafe(trouble.message)}\n`);
      return first.exitCode;
    }
    return finishGate(stoppedReport(config.mode, config, first, { kind: 'gate_error', problem: trouble.message }), client, config, deps);
  }
}

type GatedMode = Exclude<Config['mode'], 'off'>;

/**
 * The gated run after the first pass, in this order: the stops before the verdict; the verdict
 * asked; the run's upload started once it is answered; the decision, handed a way to wait for the
 * upload; the upload awaited, as the gated observation refers to the run.
 */
async function gateAfterFirstPass(
  mode: GatedMode,
  config: Config,
  first: FirstPass,
  client: VerdictClient | null,
  run: Pick<VerdictContext, 'build' | 'buildArgs' | 'muted' | 'recordedOn' | 'diff'>,
  startUpload: (defaultBranch?: string | null) => Promise<UploadedRun | null>,
  deps: GateDeps,
): Promise<GateReport> {
  const stop = stopBeforeVerdict(mode, config, first, client, deps);
  if (stop) return (await startUpload(), stop);
  const question = { mode, config, first, client: client!, recordedOn: run.recordedOn, diff: run.diff }; // a run with no client stopped above
  const asked = await askVerdict(question, deps);
  // The upload leaves once the verdict is answered (or is not asked): the stress pass waits for
  // the verdict, not for the upload, and an upload sent beside the verdict request held up its
  // answer on the API (a 50,000-identity verdict: 0.18-0.58 s beside a 50,000-case upload,
  // 0.11-0.19 s alone; the time from the build's end to the decision in scripts/bench-overhead.ts
  // fell from 0.93 s to 0.81 s). The answer names the default branch: a CI run of it uploads its
  // tests' fingerprints.
  const uploaded = startUpload(asked.answer.ok ? asked.answer.value.defaultBranch : undefined);
  const report = await decideOnVerdict({ ...run, ...question, asked, awaitUpload: () => uploaded }, deps);
  await uploaded;
  return report;
}

/** A report when the gate stops before it asks the verdict; null when it goes on to ask. */
function stopBeforeVerdict(mode: GatedMode, config: Config, first: FirstPass, client: VerdictClient | null, deps: GateDeps): GateReport | null {
  for (const note of first.notes) deps.err(`stress-gate: note: ${note}\n`);
  if (first.readProblem) return stoppedReport(mode, config, first, { kind: 'gate_error', problem: `reading the first pass's results: ${first.readProblem}` });
  // No report of the build after it passed means the stress gate's part of it did not run (the
  // adapter says why): the gate knows no test task, and saying nothing would look exactly like
  // "this branch adds no tests".
  const broken = first.settings ? first.errors : [first.unreported ?? 'the build tool did not report the build'];
  // A failed build goes on only when tests failed it, and only to learn whether they are all new
  // (decide-on-verdict.ts); otherwise the gate skips, as it always did.
  if (!first.passed && (failingTests(first).length === 0 || broken.length || !client)) return stoppedReport(mode, config, first, { kind: 'first_pass_failed' });
  if (broken.length) return stoppedReport(mode, config, first, { kind: 'broken_results', errors: broken });
  if (!client) {
    const missing = [!config.serverUrl && 'server URL', !config.project && 'project', !config.token && 'token'].filter(Boolean) as string[];
    return stoppedReport(mode, config, first, { kind: 'not_configured', missing });
  }
  return null;
}

/** The gate's own trouble at one step of the run: the report says "<step>: <message>". */
class GateTrouble extends Error {
  constructor(step: string, cause: unknown) {
    super(`${step}: ${(cause as Error | null)?.message ?? String(cause)}`, { cause });
  }
}

/** Runs one step of the run, its own trouble labelled with the step (a label given inside stands). */
async function during<T>(step: string, work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    throw e instanceof GateTrouble || isUsersError(e) ? e : new GateTrouble(step, e);
  }
}

/** A usage or configuration error: the user's to fix, never the gate's own trouble. */
function isUsersError(e: unknown): boolean {
  return e instanceof StressGateError && (e.code === 'USAGE' || e.code === 'CONFIG');
}

function clientFor(config: Config, deps: GateDeps, log: Logger): VerdictClient | null {
  if (!config.serverUrl || !config.project || !config.token) {
    log.debug('no verdict API configured');
    return null;
  }
  return createVerdictClient({
    serverUrl: config.serverUrl,
    project: config.project,
    token: config.token,
    timeoutMs: config.requestTimeoutSeconds * 1000,
    logger: deps.logger,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
}
