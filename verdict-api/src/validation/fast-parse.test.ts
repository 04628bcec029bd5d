import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import * as v from 'valibot';
import { MAX_REPETITIONS, RunUpload, VerdictRequest } from '../contract.js';
import { fastRunUpload, fastVerdictRequest } from './fast-parse.js';

// Values at and beyond every bound the schemas set, mixed with ordinary ones.
const text = fc.oneof(
  { weight: 3, arbitrary: fc.string({ minLength: 1, maxLength: 12 }) },
  fc.constantFrom('', 'x'.repeat(1024), 'x'.repeat(1025), 'x'.repeat(4096), 'x'.repeat(4097), 'a\uD800b', '\uDC00', '😀', 5, null, undefined, ['a']),
);
const duration = fc.oneof(
  { weight: 4, arbitrary: fc.double({ min: 0, max: 1e6, noNaN: true }) },
  fc.constantFrom(0, -0, -1, 31_536_000_000, 31_536_000_001, Number.NaN, Infinity, -Infinity, '5', null, undefined, 1.5),
);
const runId = fc.oneof(fc.constantFrom('run-1', 'a'.repeat(128), 'a'.repeat(129), '-x', '', 'a b', 'r:1._-'), fc.constant(undefined), fc.integer());
/** Usually `valid`, sometimes one of `others`. */
const mostly = (valid: fc.Arbitrary<unknown>, ...others: unknown[]) => fc.oneof({ weight: 6, arbitrary: valid }, fc.constantFrom(...others));
/** An object with some keys left out, undefined or extra. */
function loose<T extends Record<string, fc.Arbitrary<unknown>>>(model: T): fc.Arbitrary<Record<string, unknown>> {
  return fc.tuple(fc.record(model, { requiredKeys: [] }), fc.boolean(), fc.boolean()).map(([o, extra, whole]) => {
    // Usually every key is given, so valid bodies are common.
    const out: Record<string, unknown> = whole ? { ...Object.fromEntries(Object.keys(model).map((k) => [k, o[k]])), ...o } : { ...o };
    if (extra) out.extra = 'ignored';
    return out;
  });
}

// Fingerprints: valid, null, and just beside the pattern (upper case, one digit short or long, not hex, not a string).
const fingerprint = fc.oneof(
  { weight: 3, arbitrary: fc.stringMatching(/^[0-9a-f]{32}$/) },
  fc.constantFrom(null, undefined, 'A'.repeat(32), '0'.repeat(31), '0'.repeat(33), 'g'.repeat(32), '', 7, ['0'.repeat(32)]),
);
const verdictCase = loose({ module: text, suite: text, name: text, durationMs: duration, fingerprint });
const suiteFingerprints = mostly(fc.array(fingerprint, { maxLength: 4 }), 'no', null, [undefined], ['0'.repeat(32)]);
const suiteTests = mostly(fc.array(loose({ name: text, durationMs: duration }), { maxLength: 4 }), 'no', null, [null], [['a']]);
const suiteNames = mostly(fc.array(text, { maxLength: 4 }), 'no', null, [null]);
const suiteDurations = mostly(fc.array(duration, { maxLength: 4 }), 'no', null, [null]);
// Either list of a suite's tests, both, or neither; the names beside durations of the same length usually.
const verdictSuite = fc.oneof(
  loose({ module: text, suite: text, tests: suiteTests }),
  loose({ module: text, suite: text, names: suiteNames, durationsMs: suiteDurations }),
  fc.tuple(fc.constantFrom(':app', ''), fc.array(fc.tuple(text, duration), { maxLength: 4 })).map(([module, tests]) => ({ module, suite: 'S', names: tests.map((t) => t[0]), durationsMs: tests.map((t) => t[1]) })),
  // Fingerprints beside the names, usually as many as the tests.
  fc.tuple(fc.constantFrom(':app', ''), fc.array(fc.tuple(text, duration, fingerprint), { maxLength: 4 }), fc.boolean(), fc.boolean()).map(([module, tests, asTests, short]) => ({
    module,
    suite: 'S',
    ...(asTests ? { tests: tests.map((t) => ({ name: t[0], durationMs: t[1] })) } : { names: tests.map((t) => t[0]), durationsMs: tests.map((t) => t[1]) }),
    fingerprints: tests.slice(short ? 1 : 0).map((t) => t[2]),
  })),
  loose({ module: text, suite: text, names: suiteNames, durationsMs: suiteDurations, fingerprints: suiteFingerprints }),
  loose({ module: text, suite: text, tests: suiteTests, names: suiteNames, durationsMs: suiteDurations }),
);
const verdictBody = fc.oneof(
  loose({ runId, mode: fc.constantFrom('report', 'enforce', 'other', undefined), testCases: fc.array(verdictCase, { maxLength: 5 }) }),
  loose({ runId, mode: fc.constantFrom('report', 'enforce', undefined), suites: mostly(fc.array(verdictSuite, { maxLength: 3 }), 'no', null, [null]) }),
  loose({ testCases: fc.array(verdictCase, { maxLength: 2 }), suites: fc.array(verdictSuite, { maxLength: 2 }) }),
  fc.constantFrom(null, [], 'x', { testCases: 'no' }, { suites: 'no' }),
);
const repetition = loose({
  repetition: mostly(fc.integer({ min: 1, max: 10_000 }), 0, -1, 10_001, 1.5, '2', null),
  status: mostly(fc.constantFrom('success', 'failure'), 'skipped', undefined),
  durationMs: duration,
});
const uploadCase = loose({
  module: text,
  suite: text,
  name: text,
  durationMs: duration,
  status: mostly(fc.constantFrom('success', 'failure', 'skipped'), 'passed', undefined),
  muted: mostly(fc.constantFrom(true, false, undefined), 'yes', 0),
  fingerprint,
  repetitions: mostly(fc.oneof(fc.constant(undefined), fc.array(repetition, { maxLength: 3 })), [], 'none', [null], [[]]),
});
const uploadBody = loose({
  runId: mostly(fc.constantFrom('run-1', 'a'.repeat(128), 'r:1._-'), 'a'.repeat(129), '-x', '', 'a b', undefined, 3),
  branch: text,
  commit: mostly(fc.constantFrom('abc', '', 'c'.repeat(256), undefined), 'c'.repeat(257), 7, null),
  isCi: mostly(fc.boolean(), 'true', undefined),
  status: mostly(fc.constantFrom('success', 'failure'), 'ok', undefined),
  durationMs: duration,
  startedAt: mostly(fc.constantFrom(undefined, '2026-11-30T10:00:00.000Z'), 'yesterday', '2026-13-01T00:00:00Z', 5),
  shard: mostly(fc.constantFrom(undefined, { index: 0, total: 2 }, { index: 1, total: 2 }), { index: 3, total: 2 }, { index: 0 }, { index: 0, total: 0 }, 'first'),
  testCases: fc.array(uploadCase, { maxLength: 5 }),
});

/** The fast check never accepts what valibot rejects, and when it accepts, its output is valibot's. */
function agrees<S extends v.GenericSchema>(schema: S, fast: (input: unknown) => unknown, input: unknown): 'fast' | 'valibot' {
  const slow = v.safeParse(schema, input, { abortEarly: true });
  const quick = fast(input);
  if (quick === null) return 'valibot';
  expect(slow.success).toBe(true);
  expect(quick).toStrictEqual(slow.output);
  return 'fast';
}

describe('the hand-written checks of the large bodies', () => {
  it('agree with the verdict request schema on generated bodies, valid and broken', () => {
    let fast = 0;
    fc.assert(fc.property(verdictBody, (body) => void (agrees(VerdictRequest, fastVerdictRequest, body) === 'fast' && fast++)), { numRuns: 10_000 });
    // The fast path is taken often enough that the comparison means something.
    expect(fast).toBeGreaterThan(100);
  });

  it('agree with the run upload schema on generated bodies, valid and broken', () => {
    let fast = 0;
    fc.assert(fc.property(uploadBody, (body) => void (agrees(RunUpload, fastRunUpload, body) === 'fast' && fast++)), { numRuns: 10_000 });
    expect(fast).toBeGreaterThan(50);
  });

  it("take the fast path at exactly the contract's bounds (read from its schemas, not restated)", () => {
    const identity = { module: 'm'.repeat(1024), suite: 's'.repeat(4096), name: 'n'.repeat(4096) };
    const verdict = { runId: 'r'.repeat(128), testCases: [{ ...identity, durationMs: 31_536_000_000 }] };
    expect(fastVerdictRequest(verdict)).toStrictEqual(v.parse(VerdictRequest, verdict));
    const upload = {
      runId: 'r'.repeat(128),
      branch: 'main',
      isCi: true,
      status: 'success',
      durationMs: 1,
      testCases: [{ ...identity, status: 'success', durationMs: 31_536_000_000, repetitions: [{ repetition: MAX_REPETITIONS, status: 'success', durationMs: 31_536_000_000 }] }],
    };
    expect(fastRunUpload(upload)).toStrictEqual(v.parse(RunUpload, upload));
  });

  it('take the fast path for an ordinary verdict request and run upload', () => {
    const identity = { module: ':app', suite: 'com.acme.InvoiceTest', name: 'computesTotal()' };
    expect(fastVerdictRequest({ runId: 'r1', mode: 'enforce', testCases: [{ ...identity, durationMs: 12 }] })).toStrictEqual({
      runId: 'r1',
      mode: 'enforce',
      testCases: [{ ...identity, durationMs: 12, fingerprint: null }],
    });
    const grouped = { mode: 'report', suites: [{ module: ':app', suite: 'com.acme.InvoiceTest', tests: [{ name: 'computesTotal()', durationMs: 12 }, { name: 'rounds()', durationMs: 3 }] }] };
    expect(fastVerdictRequest(grouped)).toStrictEqual(v.parse(VerdictRequest, grouped));
    expect(fastVerdictRequest(grouped)).not.toBeNull();
    // The CLI's form and the older one parse to the same lists; only `listed` tells them apart.
    const sideBySide = { mode: 'report', suites: [{ module: ':app', suite: 'com.acme.InvoiceTest', names: ['computesTotal()', 'rounds()'], durationsMs: [12, 3] }] };
    expect(fastVerdictRequest(sideBySide)).toStrictEqual(v.parse(VerdictRequest, sideBySide));
    expect(fastVerdictRequest(sideBySide)).toStrictEqual({ mode: 'report', suites: [{ module: ':app', suite: 'com.acme.InvoiceTest', listed: 'names', names: ['computesTotal()', 'rounds()'], durationsMs: [12, 3], fingerprints: null }] });
    expect({ ...fastVerdictRequest(grouped)!.suites![0], listed: 'names' }).toStrictEqual(fastVerdictRequest(sideBySide)!.suites![0]);
    expect(fastRunUpload({ runId: 'r1', branch: 'main', isCi: true, status: 'success', durationMs: 5, testCases: [{ ...identity, status: 'skipped', durationMs: 0 }] })).toStrictEqual(
      v.parse(RunUpload, { runId: 'r1', branch: 'main', isCi: true, status: 'success', durationMs: 5, testCases: [{ ...identity, status: 'skipped', durationMs: 0 }] }),
    );
    // The orchestrator's own uploads: a start time, a shard, organic retries.
    const gate = {
      runId: 'r2',
      branch: 'feature/x',
      commit: 'c0ffee',
      isCi: true,
      status: 'failure',
      durationMs: 5,
      startedAt: '2026-11-30T10:00:00.000Z',
      shard: { index: 1, total: 2 },
      testCases: [{ ...identity, status: 'success', durationMs: 3, repetitions: [{ repetition: 1, status: 'failure', durationMs: 4 }, { repetition: 2, status: 'success', durationMs: 3 }] }],
    };
    expect(fastRunUpload(gate)).not.toBeNull();
    expect(fastRunUpload(gate)).toStrictEqual(v.parse(RunUpload, gate));
    // Each bound of a repetition, just beyond it: the fast check defers, and valibot refuses.
    for (const bad of [{ repetition: 0 }, { repetition: 10_001 }, { repetition: 1.5 }, { status: 'skipped' }, { durationMs: -1 }, { durationMs: 31_536_000_001 }]) {
      const body = { ...gate, testCases: [{ ...gate.testCases[0]!, repetitions: [{ repetition: 1, status: 'failure', durationMs: 4, ...bad }] }] };
      expect(fastRunUpload(body)).toBeNull();
      expect(v.safeParse(RunUpload, body).success).toBe(false);
    }
  });

  it('take the fast path with fingerprints, and leave a malformed one to valibot, which names it', () => {
    const fp = '0123456789abcdef0123456789abcdef';
    const identity = { module: ':app', suite: 'com.acme.InvoiceTest', name: 'computesTotal()' };
    const flat = { testCases: [{ ...identity, durationMs: 12, fingerprint: fp }, { ...identity, name: 'rounds()', durationMs: 3, fingerprint: null }] };
    expect(fastVerdictRequest(flat)).toStrictEqual(v.parse(VerdictRequest, flat));
    expect(fastVerdictRequest(flat)!.testCases![0]!.fingerprint).toBe(fp);
    const grouped = { suites: [{ module: ':app', suite: 'S', names: ['a', 'b', 'c', 'd'], durationsMs: [1, 2, 3, 4], fingerprints: [fp, null, fp, null] }] };
    expect(fastVerdictRequest(grouped)).toStrictEqual(v.parse(VerdictRequest, grouped));
    expect(fastVerdictRequest(grouped)!.suites![0]!.fingerprints).toEqual([fp, null, fp, null]);
    const upload = { runId: 'r1', branch: 'main', isCi: true, status: 'success', durationMs: 5, testCases: [{ ...identity, status: 'success', durationMs: 1, fingerprint: fp }] };
    expect(fastRunUpload(upload)).toStrictEqual(v.parse(RunUpload, upload));
    const field = (schema: v.GenericSchema, body: unknown) => {
      const r = v.safeParse(schema, body, { abortEarly: true });
      return r.success ? null : r.issues[0].path!.map((p) => p.key).join('/');
    };
    for (const bad of [fp.toUpperCase(), fp.slice(1), `${fp}0`, 'z'.repeat(32), 7]) {
      const badGrouped = { suites: [{ ...grouped.suites[0]!, fingerprints: [fp, null, fp, bad] }] };
      expect(fastVerdictRequest(badGrouped)).toBeNull();
      expect(field(VerdictRequest, badGrouped)).toBe('suites/0/fingerprints/3');
      const badFlat = { testCases: [flat.testCases[0], { ...flat.testCases[1]!, fingerprint: bad }] };
      expect(fastVerdictRequest(badFlat)).toBeNull();
      expect(field(VerdictRequest, badFlat)).toBe('testCases/1/fingerprint');
      const badUpload = { ...upload, testCases: [{ ...upload.testCases[0]!, fingerprint: bad }] };
      expect(fastRunUpload(badUpload)).toBeNull();
      expect(field(RunUpload, badUpload)).toBe('testCases/0/fingerprint');
    }
    const short = { suites: [{ ...grouped.suites[0]!, fingerprints: [fp, null, fp] }] };
    expect(fastVerdictRequest(short)).toBeNull();
    expect(field(VerdictRequest, short)).toBe('suites/0/fingerprints');
  });
});
