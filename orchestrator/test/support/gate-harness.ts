// Runs the whole CLI (main) with a fake Gradle and a fake verdict API: the harness of the gate's
// flow tests. Faults are fed in through the same adapters.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { VerdictResponse } from '@stress-gate/verdict-api/contract';
import { main, realDeps } from '../../src/cli.js';
import { identityKey } from '../../src/identity/identity-key.js';
import { silentLogger } from '../../src/base/log.js';
import { emptyQuarantine, type QuarantineSource } from '../../src/quarantine/quarantine-source.js';
import { cannedVerdict, postedTestCases } from './fake-verdict-server.js';
import { fakeGradle, type FakeCase } from './fake-gradle.js';

/** The suite of the default first pass. */
export const S = 'com.shop.CheckoutTest';
/** The default first pass: one old test, two new ones, one skipped. */
export const cases: FakeCase[] = [
  { suite: S, name: 'old' },
  { suite: S, name: 'appliesDiscount' },
  { suite: S, name: 'clearsCart' },
  { suite: S, name: 'ignored', status: 'skipped' },
];
/** What the default fake verdict calls new. */
export const isNew = (p: { name: string }) => p.name !== 'old';

/** What to fake, and how. */
export interface Setup {
  firstPass?: FakeCase[];
  exitCode?: number;
  rawXml?: string;
  repStatus?: (name: string, k: number) => 'success' | 'failure' | 'missing' | 'crash';
  after?: (kind: 'first' | 'stress', args: string[]) => Promise<void>;
  noStressLog?: boolean;
  /** The runner throws this when asked for the stress pass. */
  stressThrows?: Error;
  git?: () => Promise<string | null>;
  signal?: AbortSignal;
  verdict?: (posted: never[]) => VerdictResponse | Response | Promise<VerdictResponse | Response>;
  env?: Record<string, string>;
  quarantine?: QuarantineSource;
  settings?: Record<string, unknown>;
  /** Status for the run and gate uploads. */
  uploadStatus?: number;
  /** The run upload is answered only once this settles. */
  holdRunUpload?: Promise<unknown>;
  /** Called with the project directory before the CLI runs (e.g. to make it a git repository). */
  prepare?: (dir: string) => Promise<void>;
  /** Real git for the diff analysis (diff/); default: none, so no diff analysis. */
  realGit?: boolean;
}

/** Runs `stress-orchestrator gradle test …args` against the fakes; returns what it said and did. */
export async function run(args: string[], s: Setup = {}) {
  const gradle = await fakeGradle({
    firstPass: s.firstPass ?? cases,
    exitCode: s.exitCode,
    rawXml: s.rawXml,
    repStatus: s.repStatus,
    settings: s.settings,
    after: s.after,
    noStressLog: s.noStressLog,
  });
  await s.prepare?.(gradle.dir);
  const runner: typeof gradle.runner = async (exe, args, options) => {
    const stress = args.some((a) => a.startsWith('-PstressGate.plan='));
    if (s.stressThrows && stress) throw s.stressThrows;
    events.push(stress ? 'stress pass starts' : 'first pass starts');
    return gradle.runner(exe, args, options);
  };
  const requests: { url: string; body: unknown }[] = [];
  // What happened, in the order it happened: requests sent, the run upload answered, Gradle runs.
  const events: string[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    const body = JSON.parse(String(init.body));
    requests.push({ url: String(url), body });
    events.push(`sent ${String(url).replace(/.*\/projects\/[^/]+/, '')}`);
    if (s.holdRunUpload && String(url).endsWith('/runs')) await s.holdRunUpload.then(() => events.push('run upload answered'));
    if (String(url).endsWith('/verdict')) {
      const answer = await (s.verdict ?? ((p: never[]) => cannedVerdict(p, isNew)))(postedTestCases(body) as never[]);
      events.push('verdict answered');
      return answer instanceof Response ? answer : Response.json(answer);
    }
    if (s.uploadStatus && !String(url).endsWith('/verdict')) return new Response('nope', { status: s.uploadStatus });
    if (String(url).endsWith('/runs')) return Response.json({ runId: body.runId, shard: { index: 0, total: 1 }, testCases: 1, newTestCases: 0, duplicate: false });
    return new Response('{}', { status: 201 });
  }) as unknown as typeof globalThis.fetch;
  const out: string[] = [];
  const err: string[] = [];
  // The fake API answers plain http on a made-up host: allowed as a user would (STRESS_GATE_ALLOW_HTTP).
  const env = { STRESS_GATE_URL: 'http://api.test', STRESS_GATE_ALLOW_HTTP: '1', STRESS_GATE_PROJECT: 'shop', STRESS_GATE_TOKEN: 'tok', STRESS_GATE_REQUEST_TIMEOUT_SECONDS: '1', STRESS_GATE_EXECUTOR: 'gradle', ...s.env };
  const code = await main(['gradle', 'test', '--report-file', path.join(gradle.dir, 'report.json'), ...args], {
    env,
    cwd: gradle.dir,
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    logger: silentLogger(),
    gradle: { prepare: gradle.setup, executable: async () => 'gradle' },
    runBuild: runner,
    git: () => s.git ?? (async () => null),
    ...(s.realGit ? { gitExec: realDeps().gitExec! } : {}),
    quarantine: s.quarantine ?? quarantineOf(),
    fetch,
    now: () => Date.now() - 60_000,
    ...(s.signal ? { signal: s.signal } : {}),
  });
  const report = await readFile(path.join(gradle.dir, 'report.json'), 'utf8').then(JSON.parse, () => null);
  // Requests in protocol order, whatever order they left in (`events` keeps that order).
  requests.sort((a, b) => protocolRank(a.url) - protocolRank(b.url));
  // Warnings wrap at 80 columns; `flat` joins the continuation lines for matching.
  const text = out.join('');
  return { code, out: text, flat: text.replace(/\n {3}/g, ' '), err: err.join(''), calls: gradle.calls, requests, report, events };
}


/** A quarantine source listing `muted` and `skipped` (identityKey strings or test_case_ids). */
export function quarantineOf(muted: Set<string> = new Set(), skipped: { module: string; suite: string; name: string }[] = []): QuarantineSource {
  const lists = emptyQuarantine();
  for (const m of muted) lists.muted.add(m);
  for (const t of skipped) lists.skipped.add(identityKey(t));
  lists.skippedTests = skipped;
  lists.count = lists.muted.size + skipped.length;
  return { lists: async () => ({ ok: true, value: lists }) };
}

/** The quarantine list, then runs (upload), then verdict, then anything else (the gate upload); stable within a rank. */
export function protocolRank(url: string): number {
  return url.includes('/quarantine') ? -1 : url.endsWith('/runs') ? 0 : url.endsWith('/verdict') ? 1 : 2;
}
