// `--run-order`: the order probe's reproduce command. The user's build runs (the first pass), then
// exactly the named tests run in one fresh JVM, each on its own, in the order named (`--repetitions
// N`: N such JVMs), as the probe ran them. Exit 1 when a test failed, 0 when all passed, 70 when one
// could not run. What a blocked author runs to see a victim fail after its polluter.
import type { ToolFlags } from '../args/parse-args.js';
import { checkEnvironment } from '../config/environment.js';
import { UsageError } from '../base/errors.js';
import { failureEvidence, firstFailureText } from '../evidence/failure-evidence.js';
import { formatDuration, plural } from '../format/format.js';
import { terminalSafe } from '../format/terminal-safe.js';
import { probeTest } from '../order-probe/order-findings.js';
import type { ProbeTest } from '../order-probe/plan-probe.js';
import { parseSelector, selected } from '../reproduce/test-selector.js';
import { cancelled, exitCodeForSignal } from './cancellation.js';
import type { GateDeps } from './gate-deps.js';
import { NOT_STRESSED_EXIT_CODE, withLocalBuild } from './local-build.js';
import { repetitionsFlag } from './run-stress-tests.js';

/** Runs `--run-order`; returns the exit code. Throws UsageError for what was typed. */
export async function runOrder(flags: ToolFlags, buildArgs: readonly string[], deps: GateDeps): Promise<number> {
  checkEnvironment(deps.env);
  if (flags.mode !== undefined) throw new UsageError('--run-order runs the tests you name in that order, with no gate and no server: leave out --stress-new-tests');
  if (flags.stressTests) throw new UsageError('--run-order and --stress-tests do different things: use one');
  if (flags.untilFailure) throw new UsageError('--until-failure goes with --stress-tests');
  const selectors = (flags.runOrder ?? []).map(parseSelector);
  if (selectors.some((s) => s.text.trim() === '')) throw new UsageError('--run-order needs a test, e.g. --run-order \':app shop.CartTest.leavesState\' --run-order \':app shop.CheckoutTest.appliesDiscount\'');
  const times = repetitionsFlag(flags.repetitions) ?? 1;
  return withLocalBuild(flags, buildArgs, deps, async (first, build) => {
    const ran = first.cases.filter((c) => c.status !== 'skipped');
    const order: ProbeTest[] = selectors.map((s) => {
      const matches = ran.filter((c) => selected([s], c));
      if (matches.length === 0) throw new UsageError(`no test that ran matches ${JSON.stringify(s.text)}; a test is named "[<module> ]<class>.<test>" as the report prints it (${ran.length} tests ran)`);
      if (matches.length > 1) throw new UsageError(`${JSON.stringify(s.text)} matches ${matches.length} tests (${matches.slice(0, 3).map((c) => `${c.suite}.${c.name}`).join(', ')}…): --run-order needs exactly one each`);
      return probeTest(matches[0]!);
    });
    deps.logger.debug({ tests: order.length, times }, 'running the named tests in order');
    const outcome = await build.runInOrder(Array.from({ length: times }, () => order), { concurrency: 1, deadlineMs: null, round: 'run-order', clear: 'run-order', ...(deps.signal ? { signal: deps.signal } : {}) });
    if (!outcome.ok) {
      deps.err(`stress-orchestrator: the tests cannot be run in a chosen order here: ${outcome.why}\n`);
      return NOT_STRESSED_EXIT_CODE;
    }
    if (outcome.cancelled || cancelled(deps.signal)) return exitCodeForSignal(cancelled(deps.signal) ?? 'SIGINT');
    const lines = [`Running ${plural(order.length, 'test')} in this order, each JVM fresh${times > 1 ? ` (${plural(times, 'JVM')})` : ''}`];
    const width = Math.max(...order.map((t) => `${t.suite}.${t.name}`.length));
    let failed = 0;
    let notRun = 0;
    outcome.runs.forEach((run, k) => {
      if (times > 1) lines.push(`  JVM ${k + 1}:`);
      run.steps.forEach((step, i) => {
        const t = order[i]!;
        const label = terminalSafe(`${t.suite}.${t.name}`).padEnd(width);
        if (step.status === 'failure') {
          failed++;
          const evidence = failureEvidence(t.suite, [{ repetition: k + 1, status: 'failure', durationMs: step.durationMs, failure: step.failure }])?.failures[0];
          lines.push(`  ${i + 1}. ${label}   FAILED (${formatDuration(step.durationMs)})`);
          if (evidence) lines.push(...terminalSafe(firstFailureText(evidence)).split('\n').map((l) => `       ${l}`));
        } else if (step.status === 'success') lines.push(`  ${i + 1}. ${label}   passed (${formatDuration(step.durationMs)})`);
        else if (step.status === 'skipped') lines.push(`  ${i + 1}. ${label}   skipped`);
        else {
          notRun++;
          lines.push(`  ${i + 1}. ${label}   did not run: ${terminalSafe(step.why)}`);
        }
      });
      lines.push(`     Files: ${run.dir}`);
    });
    lines.push(failed ? `  ${plural(failed, 'test')} failed in this order.` : notRun ? '  Not every test ran.' : '  Every test passed in this order.');
    deps.out(`${lines.join('\n')}\n`);
    return failed ? 1 : notRun ? NOT_STRESSED_EXIT_CODE : 0;
  });
}
