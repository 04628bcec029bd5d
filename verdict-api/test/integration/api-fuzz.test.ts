// Property-based fuzzing of every API route with fast-check: thousands of generated bodies,
// valid and invalid (numbers beyond a column's range, shard indexes not below their total,
// oversized strings, wrong types, random JSON). The properties: no response is a 5xx, and every
// 4xx names the offending field. Runs on embedded chDB (the real engine, the same SQL as the
// server); the figures are printed at the end.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { openTestDatabase, type TestDatabase } from '../support/engines.js';
import { type ProjectHandle, seedProject, testApp } from '../support/api.js';

const OPERATOR = 'fuzz-operator-'.padEnd(40, 'z');
const RUNS_PER_ROUTE = Number(process.env['STRESS_GATE_FUZZ_RUNS'] ?? 150);

// Values that break columns and schemas: beyond UInt32/UInt16, negative, fractional, huge, wrong types.
const nasty = fc.oneof(
  fc.constantFrom(4_294_967_296, 2 ** 53, -1, 0.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER, 65_536, '', 'x'.repeat(5000), null, true, [], {}, '\u0000', '\ud800', '1', '2026-13-45T00:00:00Z'),
  fc.jsonValue({ maxDepth: 2 }),
);
const name = fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom('a'.repeat(5000), 'with\ttab', "quote'", 'back\\slash', 'ünïcödé'));
const rep = fc.record({ repetition: fc.integer({ min: 1, max: 12 }), status: fc.constantFrom('success', 'failure'), durationMs: fc.double({ min: 0, max: 1e6, noNaN: true }) });
const shard = fc.record({ index: fc.integer({ min: 0, max: 5 }), total: fc.integer({ min: 1, max: 5 }) });
const runId = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,20}$/);

const validRun = fc.record({
  runId,
  branch: fc.constantFrom('main', 'feature/x'),
  commit: fc.stringMatching(/^[0-9a-f]{0,40}$/),
  isCi: fc.boolean(),
  status: fc.constantFrom('success', 'failure'),
  durationMs: fc.integer({ min: 0, max: 1e7 }),
  shard,
  testCases: fc.uniqueArray(fc.record({ ...{ module: fc.constant(':app'), suite: fc.constant('S'), name }, status: fc.constantFrom('success', 'failure', 'skipped'), durationMs: fc.nat(9999), repetitions: fc.array(rep, { maxLength: 3 }) }), { maxLength: 4, selector: (t) => t.name }),
});
const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });
const failure = fc.record({
  repetition: fc.integer({ min: 1, max: 12 }),
  kind: fc.constantFrom('failure', 'crash'),
  type: maybe(fc.oneof(fc.constantFrom('java.lang.AssertionError', 'x.<!--Evil'), fc.string({ minLength: 1, maxLength: 20 }))),
  message: maybe(fc.oneof(fc.constantFrom('', 'expected 30 but was 27', '```\n<!-- x\n|a|b|', '\u0000\t\\'), fc.string({ maxLength: 40 }))),
  stackTrace: maybe(fc.string({ maxLength: 80 })),
  framesOmitted: fc.nat(50),
  stdoutTail: maybe(fc.string({ maxLength: 40 })),
  stderrTail: maybe(fc.string({ maxLength: 40 })),
  durationMs: fc.nat(9999),
  exitCode: maybe(fc.integer({ min: -1000, max: 1000 })),
  signal: maybe(fc.constantFrom('SIGKILL', 'SIGSEGV', 'SIGABRT')),
  hsErrFile: maybe(fc.string({ minLength: 1, maxLength: 30 })),
  truncated: fc.boolean(),
});
const failureGroup = fc.record({
  signature: fc.string({ minLength: 1, maxLength: 30 }),
  type: maybe(fc.string({ minLength: 1, maxLength: 20 })),
  location: maybe(fc.string({ minLength: 1, maxLength: 20 })),
  count: fc.nat(10),
  repetitions: fc.array(fc.integer({ min: 1, max: 12 }), { maxLength: 4 }),
});
/** The evidence of a gate candidate's failures (issue 29); absent, as older clients send, now and then. */
const evidence = fc.record(
  {
    failures: fc.uniqueArray(failure, { maxLength: 3, selector: (f) => f.repetition }),
    failureGroups: fc.array(failureGroup, { maxLength: 2 }),
    failuresOmitted: fc.nat(5),
    reproduceCommand: maybe(fc.string({ minLength: 1, maxLength: 40 })),
    // The reproduce command's parts (issue 36): the server quotes them with the stored identity.
    reproduce: maybe(
      fc.record({
        launcher: fc.oneof(fc.constant({ kind: 'local' }), fc.record({ kind: fc.constant('package'), version: fc.constantFrom('0.1.0', '1.2.3-rc.1') })),
        tool: fc.constantFrom(['gradle'], ['mvn'], ['./mvnw', '--maven-executable', "/opt/it's maven/bin/mvn"]),
        buildArgs: fc.array(fc.string({ maxLength: 20 }).filter((w) => !w.includes('\0')), { maxLength: 4 }),
        repetitions: fc.integer({ min: 1, max: 1000 }),
      }),
    ),
    // Failed side by side, passed alone (refused when its strip has a failure or its evidence a higher number).
    timingSensitive: maybe(fc.record({ failures: fc.integer({ min: 1, max: 3 }), repetitions: fc.integer({ min: 3, max: 12 }) })),
  },
  { requiredKeys: [] },
);
const validGate = fc.record({
  shard,
  mode: fc.constantFrom('report', 'enforce'),
  outcome: fc.constantFrom('passed', 'failed', 'guarded', 'incomplete', 'skipped', 'gate_error', 'cancelled'),
  candidatesExamined: fc.nat(10),
  stressed: fc.nat(10),
  excluded: fc.nat(10),
  guard: fc.option(fc.record({ name: fc.constantFrom('premise', 'bulk_change', 'candidate_cap', 'ceiling'), count: fc.nat(), reason: fc.string({ maxLength: 50 }) })),
  blocked: fc.boolean(),
  wouldHaveBlocked: fc.boolean(),
  timing: fc.option(fc.record({ wallClockMs: fc.option(fc.nat(600_000)), predictedMs: fc.nat(600_000), jvmStartMs: fc.nat(5_000), cut: fc.boolean() })),
  testCases: fc.uniqueArray(
    fc.tuple(fc.record({ module: fc.constant(':app'), suite: fc.constant('S'), name, outcome: fc.constantFrom('passed', 'failed', 'not_stressed', 'error'), repetitions: fc.array(rep, { maxLength: 3 }) }), evidence).map(([t, e]) => ({ ...t, ...e })),
    { maxLength: 3, selector: (t) => t.name },
  ),
});
const validVerdict = fc.record({ testCases: fc.uniqueArray(fc.record({ module: fc.constant(':app'), suite: fc.constant('S'), name, durationMs: fc.nat(400_000) }), { maxLength: 5, selector: (t) => t.name }) });
const validQuarantine = fc.record({ ...{ module: fc.constant(':app'), suite: fc.constant('S'), name }, state: fc.constantFrom('enabled', 'muted', 'skipped'), owner: fc.string({ minLength: 1, maxLength: 20 }), reason: fc.string({ minLength: 1, maxLength: 20 }) });
const validSettings = fc.record({ stress: fc.record({ candidateCap: fc.integer({ min: 1, max: 1000 }), ceilingSeconds: fc.integer({ min: 1, max: 3600 }), bulkChangeRatio: fc.double({ min: 0.01, max: 1, noNaN: true }), timingSensitiveBlocks: fc.boolean() }, { requiredKeys: [] }), flakyPolicy: fc.record({ cooldownDays: fc.nat(90), autoMarkThreshold: fc.integer({ min: 1, max: 10 }) }, { requiredKeys: [] }) }, { requiredKeys: [] });

/** A valid body with one field (at any depth) replaced by a nasty value, or one deleted. */
function mutated<T>(valid: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.tuple(valid, nasty, fc.nat(), fc.boolean()).map(([body, value, pick, drop]) => {
    const copy = JSON.parse(JSON.stringify(body)) as unknown;
    const slots: [Record<string, unknown>, string][] = [];
    const walk = (o: unknown) => {
      if (o && typeof o === 'object') for (const k of Object.keys(o)) { slots.push([o as Record<string, unknown>, k]); walk((o as Record<string, unknown>)[k]); }
    };
    walk(copy);
    if (slots.length === 0) return value;
    const [holder, key] = slots[pick % slots.length]!;
    if (drop) delete holder[key];
    else holder[key] = value;
    return copy;
  });
}
const bodyOf = <T>(valid: fc.Arbitrary<T>) => fc.oneof({ arbitrary: valid, weight: 2 }, { arbitrary: mutated(valid), weight: 5 }, { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 1 });

describe('the API under fuzzing (embedded chDB)', () => {
  let t: TestDatabase;
  let call: ReturnType<typeof testApp>['call'];
  let p: ProjectHandle;
  const statuses = new Map<number, number>();
  let requests = 0;
  beforeAll(async () => {
    t = await openTestDatabase('embedded');
    call = testApp(t.db, { operatorToken: OPERATOR }).call;
    p = await seedProject(t.db, 'fuzz');
  });
  afterAll(async () => {
    process.stdout.write(`fuzz: ${requests} requests; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}\n`);
    await t.close();
  });

  const check = async (method: string, path: string, token: string, body: unknown) => {
    const res = await call(method, path, token, body === undefined ? undefined : JSON.stringify(body));
    requests++;
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    if (res.status >= 500) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(res.body)} for ${JSON.stringify(body)?.slice(0, 400)}`);
    if (res.status >= 400) {
      const field = res.body?.['error']?.field;
      if (typeof field !== 'string' || field === '') throw new Error(`${method} ${path} → ${res.status} without a field: ${JSON.stringify(res.body)}`);
    }
  };
  const base = () => `/api/v1/projects/${p.handle}`;
  const tc = fc.constantFrom('00000000-0000-4000-8000-000000000000', 'not-a-uuid', 'ABCDEF00-0000-4000-8000-000000000000');

  const routes: [string, () => fc.Arbitrary<[string, string, unknown]>][] = [
    ['POST runs', () => bodyOf(validRun).map((b) => ['POST', `${base()}/runs`, b])],
    ['POST verdict', () => bodyOf(validVerdict).map((b) => ['POST', `${base()}/verdict`, b])],
    ['POST runs/:id/gate', () => fc.tuple(fc.oneof(runId, fc.string()), bodyOf(validGate)).map(([id, b]) => ['POST', `${base()}/runs/${encodeURIComponent(id)}/gate`, b])],
    ['GET runs/:id', () => fc.oneof(runId, fc.string()).map((id) => ['GET', `${base()}/runs/${encodeURIComponent(id)}`, undefined])],
    ['GET runs/:id/report.md', () => runId.map((id) => ['GET', `${base()}/runs/${encodeURIComponent(id)}/report.md`, undefined])],
    ['PATCH settings', () => bodyOf(validSettings).map((b) => ['PATCH', `${base()}/settings`, b])],
    ['POST quarantine', () => bodyOf(validQuarantine).map((b) => ['POST', `${base()}/quarantine`, b])],
    ['PUT quarantine/:id', () => fc.tuple(tc, bodyOf(validQuarantine)).map(([id, b]) => ['PUT', `${base()}/quarantine/${id}`, b])],
    ['DELETE quarantine/:id', () => fc.tuple(tc, fc.option(fc.record({ reason: nasty }))).map(([id, b]) => ['DELETE', `${base()}/quarantine/${id}`, b ?? undefined])],
    ['GET quarantine', () => fc.tuple(fc.oneof(fc.nat(2000).map(String), fc.string()), fc.option(fc.oneof(tc, fc.string()))).map(([l, cur]) => ['GET', `${base()}/quarantine?limit=${encodeURIComponent(l)}${cur ? `&cursor=${encodeURIComponent(cur)}` : ''}`, undefined])],
    ['GET test-cases/:id', () => tc.map((id) => ['GET', `${base()}/test-cases/${id}`, undefined])],
    ['POST webhooks', () => bodyOf(fc.record({ url: fc.constantFrom('http://127.0.0.1:9/h', 'ftp://x'), secret: fc.string({ minLength: 16, maxLength: 30 }) })).map((b) => ['POST', `${base()}/webhooks`, b])],
    ['GET webhooks/deliveries', () => fc.oneof(fc.nat(2000).map(String), fc.string()).map((l) => ['GET', `${base()}/webhooks/deliveries?limit=${encodeURIComponent(l)}`, undefined])],
    ['POST tokens', () => bodyOf(fc.record({ name: fc.string({ minLength: 1, maxLength: 20 }) })).map((b) => ['POST', `${base()}/tokens`, b])],
    ['DELETE tokens/:id', () => tc.map((id) => ['DELETE', `${base()}/tokens/${id}`, undefined])],
    ['POST admin/accounts', () => bodyOf(fc.record({ name: fc.string({ minLength: 1, maxLength: 20 }), entitled: fc.boolean() })).map((b) => ['POST', '/api/v1/admin/accounts', b])],
    ['PUT admin/accounts/:id/entitlement', () => fc.tuple(tc, bodyOf(fc.record({ entitled: fc.boolean() }))).map(([id, b]) => ['PUT', `/api/v1/admin/accounts/${id}/entitlement`, b])],
    ['POST accounts/:id/projects', () => bodyOf(fc.record({ handle: fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/), defaultBranch: fc.constantFrom('main', null) })).map((b) => ['POST', `/api/v1/accounts/${p.accountId}/projects`, b])],
  ];

  it.each(routes)('%s: never 5xx, every 4xx names its field', async (_label, arb) => {
    await fc.assert(
      fc.asyncProperty(arb(), fc.constantFrom('admin', 'admin', 'admin', 'ci', 'operator', 'bogus'), async ([method, path, body], who) => {
        const token = who === 'admin' ? p.admin : who === 'ci' ? p.token : who === 'operator' ? OPERATOR : 'sg_bogus';
        await check(method, path, path.startsWith('/api/v1/admin') && who === 'admin' ? OPERATOR : token, body);
      }),
      { numRuns: RUNS_PER_ROUTE },
    );
  }, 300_000);

  it('reads back every gate it accepted, evidence and all, as the run JSON and the run report: never 5xx', async () => {
    let read = 0;
    let drawn = 0;
    await fc.assert(
      // Half of validGate's shards are out of range on purpose (index not below total); here every
      // shard is in range, so that the valid draws are read back, not refused on their shard.
      fc.asyncProperty(runId, validRun, bodyOf(validGate.map((g) => ({ ...g, shard: { ...g.shard, index: g.shard.index % g.shard.total } }))), async (drawnId, upload, gate) => {
        // A run id of its own per draw: the generator repeats short ids, and a run's gate result is
        // written once (a second, different one is a 409), which would leave few gates to read back.
        const id = `${drawnId}-${drawn++}`;
        await check('POST', `${base()}/runs`, p.token, { ...upload, runId: id });
        const posted = await call('POST', `${base()}/runs/${encodeURIComponent(id)}/gate`, p.token, JSON.stringify(gate));
        if (posted.status >= 500) throw new Error(`gate → ${posted.status} ${JSON.stringify(posted.body)} for ${JSON.stringify(gate).slice(0, 400)}`);
        if (posted.status !== 201) return;
        read++;
        await check('GET', `${base()}/runs/${encodeURIComponent(id)}`, p.token, undefined);
        await check('GET', `${base()}/runs/${encodeURIComponent(id)}/report.md`, p.token, undefined);
      }),
      { numRuns: RUNS_PER_ROUTE },
    );
    // Valid bodies are two in eight of bodyOf's draws (some of them refused all the same, e.g. on a
    // 5,000-character name): far more than none were read back.
    expect(read).toBeGreaterThan(RUNS_PER_ROUTE / 10);
  }, 300_000);

  it('counts what it sent', () => {
    expect(requests).toBeGreaterThanOrEqual(routes.length * RUNS_PER_ROUTE);
    expect([...statuses.keys()].every((s) => s < 500)).toBe(true);
  });
});
