// One CI run of the gate (DESIGN "The flow of one CI run"), with every adapter passed in.
import { rm } from 'node:fs/promises';
import type { ToolFlags } from '../args/parse-args.js';
import { detectCiEnv } from '../ci-env/detect-ci-env.js';
import { resolveConfig, type Config } from '../config/config.js';
import { organicRepetitions } from '../first-pass/organic-retries.js';
import { runFirstPass, type FirstPass } from '../first-pass/run-first-pass.js';
import type { GradleSetup } from '../gradle/gradle-setup.js';
import type { Logger } from '../log.js';
import { mutedCheck } from '../quarantine/quarantine-source.js';
import { createVerdictClient, type VerdictClient } from '../verdict/verdict-client.js';
import { decideOnVerdict } from './decide-on-verdict.js';
import type { GateDeps } from './gate-deps.js';
import { finishGate, stoppedReport } from './finish-gate.js';


/** Runs the gate; returns the process exit code. Throws only StressGateErrors (usage, install). */
export async function runGate(flags: ToolFlags, gradleArgs: readonly string[], deps: GateDeps): Promise<number> {
  // A bad mode in a flag or the environment is a usage error before Gradle runs.
  const early = resolveConfig(flags, deps.env, null, deps.cwd);
  if (flags.token !== undefined) {
    deps.err('stress-gate: warning: --token shows in the process list and shell history; prefer STRESS_GATE_TOKEN.\n');
  }
  const setup = await deps.prepareGradle(deps.env);
  try {
    return await gateWithSetup(flags, gradleArgs, early, setup, deps);
  } finally {
    // The init script, manifest, plan and repetition XML are this invocation's only. (After a
    // ceiling cut the cancelling daemon may still append a line to the results log: a stray file.)
    if (!deps.env['STRESS_GATE_KEEP_TEMP']) await rm(setup.workDir, { recursive: true, force: true }).catch(() => undefined);
  }
}

async function gateWithSetup(flags: ToolFlags, gradleArgs: readonly string[], early: Config, setup: GradleSetup, deps: GateDeps): Promise<number> {
  const log = deps.logger.child({ module: 'run-gate' });
  const executable = await deps.gradleExecutable(early.projectDir);
  const muted = await deps.quarantine.fetch().catch((e: Error) => {
    deps.err(`stress-gate: warning: could not fetch the quarantine list (${e.message}); nothing is muted.\n`);
    return new Set<string>();
  });
  const first = await runFirstPass(gradleArgs, {
    runGradle: deps.runGradle,
    executable,
    setup,
    projectDir: early.projectDir,
    env: deps.env,
    isMuted: mutedCheck(muted),
    now: deps.now,
    logger: deps.logger,
  });
  const config = resolveConfig(flags, { ...deps.env, STRESS_GATE_RUN_ID: early.runId }, first.manifest?.settings ?? null, deps.cwd);
  // With the gate on the problem is reported in the gate's section below.
  if (first.manifestProblem && first.gradleExitCode === 0 && config.mode === 'off') {
    deps.err(`stress-gate: warning: ${first.manifestProblem}\n`);
  }
  const client = clientFor(config, deps, log);
  if (client) await uploadRun(client, config, first, deps);
  if (config.mode === 'off') return first.exitCode;

  for (const note of first.notes) deps.err(`stress-gate: note: ${note}\n`);
  const mode = config.mode;
  if (!first.passed) return finishGate(stoppedReport(mode, config, first, { kind: 'first_pass_failed' }), client, config, deps);
  // No manifest after a passing build means the plugin did not run: the gate knows no Test task,
  // and saying nothing would look exactly like "this branch adds no tests".
  const broken = first.manifest ? first.errors : [first.manifestProblem ?? 'the Gradle plugin did not report the build'];
  if (broken.length) return finishGate(stoppedReport(mode, config, first, { kind: 'broken_results', errors: broken }), client, config, deps);
  if (!client) {
    const missing = [!config.serverUrl && 'server URL', !config.project && 'project', !config.token && 'token'].filter(Boolean) as string[];
    return finishGate(stoppedReport(mode, config, first, { kind: 'not_configured', missing }), null, config, deps);
  }
  const report = await decideOnVerdict({ mode, config, first, client, setup, executable, gradleArgs, muted }, deps);
  return finishGate(report, client, config, deps);
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
  });
}

async function uploadRun(client: VerdictClient, config: Config, first: FirstPass, deps: GateDeps): Promise<void> {
  const ci = await detectCiEnv(deps.env, deps.git(config.projectDir), config.projectDir);
  if (ci.warning) deps.err(`stress-gate: warning: ${ci.warning}\n`);
  const result = await client.uploadRun({
    runId: config.runId,
    branch: ci.branch,
    commit: ci.commit,
    isCi: ci.isCi,
    status: first.passed ? 'success' : 'failure',
    durationMs: first.wallClockMs,
    startedAt: first.startedAt.toISOString(),
    shard: { index: config.shardIndex, total: config.shardTotal },
    testCases: first.cases.map((c) => ({
      module: c.module,
      suite: c.suite,
      name: c.name,
      status: c.status,
      durationMs: c.durationMs,
      muted: c.muted,
      ...(c.executions ? { repetitions: organicRepetitions(c.executions) } : {}),
    })),
  });
  if (!result.ok) deps.err(`stress-gate: warning: the run was not uploaded: ${result.problem}\n`);
}
