// The end of a gated run: the report printed, the JSON report and job summary written, the gated
// observation uploaded, the exit code returned. Also builds reports for the early stops.
import type { Config } from '../config/config.js';
import type { FirstPass } from '../first-pass/first-pass.js';
import { buildGateUpload } from '../gated-observation/build-gate-upload.js';
import type { GateReport, GateStop } from '../report/gate-report.js';
import { renderReport } from '../report/render-report.js';
import { runPageUrl } from '../report/report-document.js';
import { renderStepSummary } from '../report/step-summary.js';
import { postRunComment } from '../comment/post-run-comment.js';
import { appendStepSummary, writeJsonReport } from '../report/write-reports.js';
import type { VerdictClient } from '../verdict/verdict-client.js';
import { exitCodeForSignal } from './cancellation.js';
import { terminalSafe } from '../format/terminal-safe.js';

type Mode = GateReport['mode'];

/** The first pass's part of the report. */
export function firstPassSummary(first: FirstPass): GateReport['firstPass'] {
  return {
    exitCode: first.exitCode,
    passed: first.passed,
    testCases: first.cases.length,
    failures: first.failures,
    maskedFailures: first.maskedFailures,
  };
}

/** A report for a run the gate stopped before it had candidates to judge. */
export function stoppedReport(mode: Mode, config: Config, first: FirstPass, stop: GateStop): GateReport {
  const outcomes: Record<GateStop['kind'], GateReport['outcome']> = {
    first_pass_failed: 'skipped',
    not_configured: 'not_configured',
    server_unavailable: 'server_unavailable',
    broken_results: 'broken_results',
    not_entitled: 'not_entitled',
    no_candidates: 'no_candidates',
    gate_error: 'gate_error',
    cancelled: 'cancelled',
  };
  // Broken XML or the gate's own error: it cannot trust its candidate set, so it never reports
  // green, and it never blocks either: the first pass's result stands.
  return {
    mode,
    runId: config.runId,
    outcome: outcomes[stop.kind],
    stop,
    firstPass: firstPassSummary(first),
    slowLimitMs: null,
    ceilingSeconds: null,
    guard: null,
    candidates: [],
    counts: { examined: 0, stressed: 0, excluded: 0, notStressed: 0, errors: 0 },
    stressPass: null,
    problems: [],
    notes: first.notes,
    blocked: false,
    wouldHaveBlocked: false,
    exitCode: stop.kind === 'cancelled' ? exitCodeForSignal(stop.signal) : first.exitCode,
  };
}

/** The outputs finishGate writes to. */
export interface FinishDeps {
  env: NodeJS.ProcessEnv;
  fetch?: typeof globalThis.fetch;
  out: (text: string) => void;
  err: (text: string) => void;
}

/**
 * Prints, writes and uploads the report; returns its exit code. Never throws: each output is
 * attempted on its own, and one that fails is a warning (the gate's trouble never blocks).
 */
export async function finishGate(report: GateReport, client: VerdictClient | null, config: Config, deps: FinishDeps): Promise<number> {
  const problems: (string | null)[] = [];
  const attempt = async (what: string, fn: () => Promise<string | null | void> | string | null | void) => {
    try {
      problems.push((await fn()) ?? null);
    } catch (e) {
      problems.push(`${what} failed: ${(e as Error).message ?? String(e)}`);
    }
  };
  // The dashboard's run page exists once the run was uploaded (a client means it was attempted).
  const runPage = client ? runPageUrl(config.serverUrl, config.project, config.runId) : null;
  await attempt('printing the report', () => {
    const text = renderReport(report, runPage);
    if (text) deps.out(text);
  });
  await attempt('writing the JSON report', () => writeJsonReport(config.reportFile, report));
  await attempt('writing the job summary', () => appendStepSummary(deps.env, report, runPage));
  await attempt('uploading the gated observation', async () => {
    const upload = client ? buildGateUpload(report, { index: config.shardIndex, total: config.shardTotal }) : null;
    if (!client || !upload) return null;
    const result = await client.uploadGate(config.runId, upload);
    return result.ok ? null : `the gated observation was not uploaded: ${result.problem}`;
  });
  if (config.comment) {
    await attempt('posting the merge-request comment', () =>
      postRunComment({
        env: deps.env,
        serverUrl: config.serverUrl,
        project: config.project,
        token: config.token,
        runId: config.runId,
        runPage,
        fallback: renderStepSummary(report, null),
        ...(deps.fetch ? { fetch: deps.fetch } : {}),
      }),
    );
  }
  for (const p of problems) if (p) deps.err(`stress-gate: warning: ${terminalSafe(p)}\n`);
  return report.exitCode;
}
