// Verdict latency: POST /api/v1/projects/:p/verdict over a real loopback port, on embedded chDB
// and on clickhouse-server 18.16, with test_case_branch_presence holding --rows rows (default
// 10,000,000 over 1,000 projects). Prints p50/p99/max, then where the time goes (per stage).
// With --fingerprints N (default 20; 0: off) test_case_fingerprints holds one row per known
// identity of every project (as many rows as presence), and each size runs twice, side by side:
// without fingerprints (today's requests), and with the first N new identities of each request
// fingerprinted, 3 of them matching a known identity the request does not post (renames).
//   npm run bench:verdict -- [--engine embedded|server|both] [--rows N] [--small 200] [--large 50] [--warmup 10] [--fingerprints 20]
import { createHash } from 'node:crypto';
import { sql } from '../verdict-api/dist/sql/bind.js';
import { knownFingerprints } from '../verdict-api/dist/verdict/renames.js';
import { authenticate } from '../verdict-api/dist/http/auth.js';
import { parseVerdictRequest } from '../verdict-api/dist/validation/parse-body.js';
import { testCaseId } from '../verdict-api/dist/identity/test-case-id.js';
import { rejectDuplicates } from '../verdict-api/dist/ingest/duplicates.js';
import { inventorySize, presentIds } from '../verdict-api/dist/presence/presence.js';
import { verdict } from '../verdict-api/dist/verdict/verdict.js';
import type { EngineKind } from '../verdict-api/dist/storage/engine.js';
import {
  type Bench,
  countPresence,
  fillPresence,
  IDENTITIES_PER_PROJECT,
  intFlag,
  knownIdentity,
  log,
  ms,
  newIdentity,
  openBench,
  parseOptions,
  summarize,
} from './bench-common.js';

const { engines, rows, flags } = parseOptions(process.argv.slice(2), { rows: 10_000_000 });
const SIZES = [
  { identities: 1_000, requests: intFlag(flags, 'small', 200), targetP99: 100 },
  { identities: 20_000, requests: intFlag(flags, 'large', 50), targetP99: 500 },
];
const WARMUP = intFlag(flags, 'warmup', 10);
const PROFILE_SAMPLES = intFlag(flags, 'profile', 15);
const FINGERPRINTED = intFlag(flags, 'fingerprints', 20);
/** Of a request's fingerprinted identities, those with the body of a known identity it does not post. */
const RENAMES = 3;

/** The body fingerprint of the benchmarked project's known identity i (the fill's, and a rename's). */
const knownFingerprint = (i: number): string => createHash('md5').update(`bench-fp-own-${i}`).digest('hex');
/** A fingerprint no known identity has. */
const freshFingerprint = (k: number, j: number): string => createHash('md5').update(`bench-fp-new-${k}-${j}`).digest('hex');

/**
 * Request k of a size: half known identities (a window rotating over the 10,000), half never seen.
 * `fingerprinted`: the first so many new identities carry a fingerprint, the first RENAMES of them
 * a known identity's just past the window (not posted, unless the window is all 10,000).
 */
function body(identities: number, k: number, fingerprinted = 0): string {
  const half = identities / 2;
  const known = Math.min(half, IDENTITIES_PER_PROJECT);
  const testCases = [];
  for (let j = 0; j < known; j++) testCases.push({ ...knownIdentity((k * known + j) % IDENTITIES_PER_PROJECT), durationMs: duration(j) });
  for (let j = 0; j < identities - known; j++) {
    const fingerprint = j >= fingerprinted ? undefined : j < RENAMES ? knownFingerprint((k * known + known + j * 7) % IDENTITIES_PER_PROJECT) : freshFingerprint(k, j);
    testCases.push({ ...newIdentity(k * identities + j), durationMs: duration(j + 1), ...(fingerprint ? { fingerprint } : {}) });
  }
  return JSON.stringify({ testCases });
}

/**
 * Fills test_case_fingerprints as ingestion of default-branch CI runs would: one row per known
 * identity of every project of the presence fill (the benchmarked project's from JS with its real
 * ids, the others in SQL), then OPTIMIZE FINAL. Returns the ms it took.
 */
async function fillFingerprints(b: Bench, rows: number): Promise<number> {
  const t0 = performance.now();
  const own = Math.min(rows, IDENTITIES_PER_PROJECT);
  const seenAt = '2026-11-01 00:00:00';
  const ownRows = Array.from({ length: own }, (_, i) => {
    const identity = knownIdentity(i);
    return { project_id: b.project.projectId, git_branch: 'main', fingerprint: knownFingerprint(i), test_case_id: testCaseId(b.project.projectId, identity), ...identity, last_seen_at: seenAt };
  });
  if (ownRows.length > 0) await b.db.engine.insert(b.db.t('test_case_fingerprints'), ownRows);
  const others = rows - own;
  if (others > 0) {
    await b.bulk.command(sql`
      INSERT INTO ${b.db.t('test_case_fingerprints')} (project_id, git_branch, fingerprint, test_case_id, module, suite, name, last_seen_at)
      SELECT
        toUUID(UUIDNumToString(MD5(concat('bench-project-', toString(intDiv(number, ${IDENTITIES_PER_PROJECT})))))),
        'main',
        lower(hex(MD5(concat('bench-fp-', toString(number))))),
        toUUID(UUIDNumToString(MD5(concat('bench-case-', toString(number))))),
        concat(':module', toString(number % 7)),
        concat('com.acme.Suite', toString(intDiv(number, 20))),
        concat('test_', toString(number % 20), '()'),
        toDateTime('2026-11-01 00:00:00', 'UTC')
      FROM numbers(${others})`);
  }
  await b.bulk.command(sql`OPTIMIZE TABLE ${b.db.t('test_case_fingerprints')} FINAL`);
  return performance.now() - t0;
}

/** p50 and p99 of each size and mode, for the side-by-side table. */
const results = new Map<string, { p50: number; p99: number }>();
const duration = (j: number): number => ((j * 7919) % 40_000) + (j % 3) * 0.25 + 3;

async function post(b: Bench, text: string): Promise<{ status: number; bytes: ArrayBuffer }> {
  const res = await fetch(`${b.api.url}/api/v1/projects/${b.project.handle}/verdict`, {
    method: 'POST',
    headers: { authorization: `Bearer ${b.token}`, 'content-type': 'application/json' },
    body: text,
  });
  return { status: res.status, bytes: await res.arrayBuffer() };
}

async function latency(b: Bench, identities: number, requests: number, targetP99: number, fingerprinted = 0): Promise<void> {
  // Sanity: the answer counts the known half as known (the ids computed in JS match the fill), and
  // the fingerprinted identities whose known twin is not posted as renamed.
  const first = await post(b, body(identities, 0, fingerprinted));
  if (first.status !== 200) throw new Error(`verdict answered ${first.status}: ${Buffer.from(first.bytes).toString('utf8').slice(0, 500)}`);
  const answer = JSON.parse(Buffer.from(first.bytes).toString('utf8')) as { inventory: number; posted: number; candidates: unknown[]; renamed: unknown[] };
  const known = Math.min(identities / 2, IDENTITIES_PER_PROJECT);
  const renames = fingerprinted > 0 && known < IDENTITIES_PER_PROJECT ? Math.min(RENAMES, fingerprinted) : 0;
  const expectedNew = identities - known - renames;
  if (answer.candidates.length !== expectedNew) throw new Error(`expected ${expectedNew} candidates, got ${answer.candidates.length}`);
  if (answer.renamed.length !== renames) throw new Error(`expected ${renames} renamed, got ${answer.renamed.length}`);
  for (let k = 1; k < WARMUP; k++) await post(b, body(identities, k, fingerprinted));

  const samples: number[] = [];
  let bytesIn = 0;
  let bytesOut = 0;
  for (let k = 0; k < requests; k++) {
    const text = body(identities, WARMUP + k, fingerprinted); // built outside the timed section
    const t = performance.now();
    const r = await post(b, text);
    samples.push(performance.now() - t);
    if (r.status !== 200) throw new Error(`verdict answered ${r.status}`);
    bytesIn += text.length;
    bytesOut += r.bytes.byteLength;
  }
  const s = summarize(samples);
  const verdictMark = s.p99 < targetP99 ? 'MET' : 'MISSED';
  results.set(`${b.kind} ${identities} ${fingerprinted}`, s);
  log(
    `  ${b.kind.padEnd(8)} ${String(identities).padStart(6)} ids x ${String(requests).padStart(3)} req${fingerprinted ? `, ${fingerprinted} fingerprinted (${renames} renames)` : ''}:` +
      `  p50 ${ms(s.p50)}  p99 ${ms(s.p99)}  max ${ms(s.max)}  (target p99 < ${targetP99} ms: ${verdictMark};` +
      ` body ${(bytesIn / requests / 1024).toFixed(0)} KiB in, ${(bytesOut / requests / 1024).toFixed(0)} KiB out; inventory ${answer.inventory})`,
  );
}

/** The same work, stage by stage, in this process (no HTTP): where a request's time goes. */
async function profile(b: Bench, identities: number): Promise<void> {
  const stages = new Map<string, number[]>();
  const time = async <T>(name: string, f: () => T | Promise<T>): Promise<T> => {
    const t = performance.now();
    const out = await f();
    (stages.get(name) ?? stages.set(name, []).get(name)!).push(performance.now() - t);
    return out;
  };
  const scope = { projectId: b.project.projectId, branch: 'main', isCi: true };
  for (let k = 0; k < PROFILE_SAMPLES; k++) {
    const text = body(identities, 1000 + k);
    const principal = await time('auth (3 FINAL reads)', () => authenticate(b.db, `Bearer ${b.token}`, b.project.handle));
    const raw = await time('JSON.parse body', () => JSON.parse(text) as unknown);
    const request = await time('valibot parse', () => parseVerdictRequest(raw));
    const posted = request.testCases ?? []; // this body is one entry per test case
    await time('rejectDuplicates', () => rejectDuplicates(posted, 'testCases'));
    const ids = await time('testCaseId x N (sha1)', () => posted.map((t) => testCaseId(b.project.projectId, t)));
    await time('SQL presentIds', () => presentIds(b.db, scope, ids));
    await time('SQL inventorySize', () => inventorySize(b.db, scope));
    await time('SQL both in parallel', () => Promise.all([presentIds(b.db, scope, ids), inventorySize(b.db, scope)]));
    if (FINGERPRINTED > 0) {
      const printed = (JSON.parse(body(identities, 1000 + k, FINGERPRINTED)) as { testCases: { fingerprint?: string }[] }).testCases.flatMap((t) => t.fingerprint ?? []);
      await time(`SQL knownFingerprints x${printed.length}`, () => knownFingerprints(b.db, b.project.projectId, 'main', printed));
    }
    const answer = await time('verdict() total', () => verdict(b.db, principal.project, principal.account, request));
    await time('JSON.stringify answer', () => JSON.stringify(answer));
  }
  log(`  ${b.kind} profile, ${identities} ids (p50 / max of ${PROFILE_SAMPLES}):`);
  for (const [name, samples] of stages) {
    const s = summarize(samples);
    log(`    ${name.padEnd(24)} ${ms(s.p50).padStart(10)} ${ms(s.max).padStart(10)}`);
  }
}

async function run(kind: EngineKind): Promise<void> {
  log(`\n== ${kind} ==`);
  const t = performance.now();
  const b = await openBench(kind);
  log(`  started engine + API on ${b.api.url} in ${ms(performance.now() - t)}`);
  try {
    const fill = await fillPresence(b, rows);
    const n = await countPresence(b);
    log(
      `  fill: ${n.toLocaleString('en-US')} presence rows in ${(fill.total / 1000).toFixed(1)} s` +
        ` (benchmarked project from JS ${(fill.jsMs / 1000).toFixed(1)} s, other projects in SQL ${(fill.sqlMs / 1000).toFixed(1)} s,` +
        ` OPTIMIZE FINAL ${(fill.optimizeMs / 1000).toFixed(1)} s)`,
    );
    if (FINGERPRINTED > 0) log(`  fill: ${rows.toLocaleString('en-US')} fingerprint rows in ${((await fillFingerprints(b, rows)) / 1000).toFixed(1)} s (with OPTIMIZE FINAL)`);
    for (const size of SIZES) {
      await latency(b, size.identities, size.requests, size.targetP99);
      if (FINGERPRINTED > 0) await latency(b, size.identities, size.requests, size.targetP99, FINGERPRINTED);
    }
    if (FINGERPRINTED > 0) {
      log(`  side by side (without fingerprints → with ${FINGERPRINTED} fingerprinted identities a request):`);
      for (const size of SIZES) {
        const without = results.get(`${b.kind} ${size.identities} 0`)!;
        const withFp = results.get(`${b.kind} ${size.identities} ${FINGERPRINTED}`)!;
        const change = (a: number, c: number) => `${c >= a ? '+' : ''}${(((c - a) / a) * 100).toFixed(0)}%`;
        log(
          `    ${String(size.identities).padStart(6)} ids: p50 ${ms(without.p50)} → ${ms(withFp.p50)} (${change(without.p50, withFp.p50)}),` +
            ` p99 ${ms(without.p99)} → ${ms(withFp.p99)} (${change(without.p99, withFp.p99)}; within 20%: ${withFp.p99 <= without.p99 * 1.2 ? 'yes' : 'NO'})`,
        );
      }
    }
    if (PROFILE_SAMPLES > 0) for (const size of SIZES) await profile(b, size.identities);
  } finally {
    await b.close();
  }
}

log(`verdict benchmark: engines ${engines.join(', ')}; ${rows.toLocaleString('en-US')} presence rows; node ${process.version}`);
for (const kind of engines) await run(kind);
