// The two bodies that carry up to 100,000 test cases (a verdict request, a run upload) are checked
// by hand first: for a valid body the result is exactly valibot's output, built in a tenth of the
// time (valibot's parse was a tenth of a verdict's cost under load, scripts/bench-load.ts). Any
// doubt returns null, and the caller runs the valibot schema, which names the first bad field.
// fast-parse.test.ts checks both against the schemas on generated bodies, valid and broken.
import * as v from 'valibot';
import { Fingerprint, MAX_IDENTITIES, MAX_REPETITIONS, Repetition, RunId, RunUpload, TestCaseIdentity, TestCaseRunUpload, type VerdictRequest } from '../contract.js';

// The parsed bodies, as parse-body.ts names them (it calls this module first, so it is not imported here).
type ParsedRunUpload = v.InferOutput<typeof RunUpload>;
type ParsedVerdictRequest = v.InferOutput<typeof VerdictRequest>;

/**
 * The requirement of the last `type` action in a contract schema's pipe (a maximum, a pattern):
 * the limits checked here are read from the contract's schemas, never restated.
 */
function requirement<T>(schema: unknown, type: string): T {
  const pipe = (schema as { pipe?: readonly { type: string; requirement?: unknown }[] }).pipe ?? [];
  const action = pipe.findLast((a) => a.type === type);
  if (action === undefined) throw new Error(`fast-parse: the contract's schema has no ${type} action`);
  return action.requirement as T;
}

const MAX_MODULE = requirement<number>(TestCaseIdentity.entries.module, 'max_length');
const MAX_SUITE = requirement<number>(TestCaseIdentity.entries.suite, 'max_length');
const MAX_NAME = requirement<number>(TestCaseIdentity.entries.name, 'max_length');
const MAX_DURATION_MS = requirement<number>(TestCaseRunUpload.entries.durationMs, 'max_value');
const MAX_REPETITION = requirement<number>(Repetition.entries.repetition, 'max_value');
const RUN_ID = requirement<RegExp>(RunId, 'regex');
const FINGERPRINT = requirement<RegExp>(Fingerprint, 'regex');

type Obj = Record<string, unknown>;

const isObject = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);
const isText = (x: unknown, max: number): x is string => typeof x === 'string' && x.length >= 1 && x.length <= max && x.isWellFormed();
const isDuration = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x) && x >= 0 && x <= MAX_DURATION_MS;
/** An optional fingerprint as the contract has it: absent (undefined) or null, or 32 lowercase hex digits. */
const isFingerprint = (x: unknown): x is string | null | undefined => x === undefined || x === null || (typeof x === 'string' && FINGERPRINT.test(x));

/** The verdict request as valibot would output it, or null when valibot must decide. */
export function fastVerdictRequest(input: unknown): ParsedVerdictRequest | null {
  if (!isObject(input)) return null;
  const { runId, mode, testCases, suites } = input;
  if (runId !== undefined && !(typeof runId === 'string' && RUN_ID.test(runId))) return null;
  if (mode !== undefined && mode !== 'report' && mode !== 'enforce') return null;
  const parsed: ParsedVerdictRequest = {} as ParsedVerdictRequest;
  // Optional keys without a default are in valibot's output when in the input, even as undefined.
  if ('runId' in input) parsed.runId = runId as string | undefined;
  if ('mode' in input) parsed.mode = mode as 'report' | 'enforce' | undefined;
  if (testCases !== undefined) {
    if (!Array.isArray(testCases) || testCases.length > MAX_IDENTITIES) return null;
    const out: NonNullable<ParsedVerdictRequest['testCases']> = new Array(testCases.length);
    for (let i = 0; i < testCases.length; i++) {
      const t: unknown = testCases[i];
      if (!isObject(t)) return null;
      const { module, suite, name, durationMs, fingerprint } = t;
      if (!isText(module, MAX_MODULE) || !isText(suite, MAX_SUITE) || !isText(name, MAX_NAME) || !isDuration(durationMs) || !isFingerprint(fingerprint)) return null;
      out[i] = { module, suite, name, durationMs, fingerprint: fingerprint ?? null };
    }
    parsed.testCases = out;
  } else if ('testCases' in input) parsed.testCases = undefined;
  if (suites !== undefined) {
    if (!Array.isArray(suites)) return null;
    const out: NonNullable<ParsedVerdictRequest['suites']> = new Array(suites.length);
    for (let i = 0; i < suites.length; i++) {
      const s: unknown = suites[i];
      if (!isObject(s)) return null;
      const { module, suite, tests, names, durationsMs, fingerprints } = s;
      if (!isText(module, MAX_MODULE) || !isText(suite, MAX_SUITE)) return null;
      // Beside the names, as long as them; each null or a fingerprint (the list is the output as it is).
      if (fingerprints !== undefined) {
        if (!Array.isArray(fingerprints) || fingerprints.length !== (Array.isArray(tests) ? tests : Array.isArray(names) ? names : []).length) return null;
        for (let k = 0; k < fingerprints.length; k++) if (fingerprints[k] === undefined || !isFingerprint(fingerprints[k])) return null;
      }
      const printed = (fingerprints ?? null) as (string | null)[] | null;
      if (tests !== undefined) {
        if (!Array.isArray(tests) || names !== undefined || durationsMs !== undefined) return null;
        const testNames: string[] = new Array(tests.length);
        const durations: number[] = new Array(tests.length);
        for (let k = 0; k < tests.length; k++) {
          const t: unknown = tests[k];
          if (!isObject(t)) return null;
          const { name, durationMs } = t;
          if (!isText(name, MAX_NAME) || !isDuration(durationMs)) return null;
          testNames[k] = name;
          durations[k] = durationMs;
        }
        out[i] = { module, suite, listed: 'tests', names: testNames, durationsMs: durations, fingerprints: printed };
      } else {
        // The lists are the output as they are: checked, not copied.
        if (!Array.isArray(names) || !Array.isArray(durationsMs) || names.length !== durationsMs.length) return null;
        for (let k = 0; k < names.length; k++) if (!isText(names[k], MAX_NAME) || !isDuration(durationsMs[k])) return null;
        out[i] = { module, suite, listed: 'names', names: names as string[], durationsMs: durationsMs as number[], fingerprints: printed };
      }
    }
    parsed.suites = out;
  } else if ('suites' in input) parsed.suites = undefined;
  return parsed;
}

/** The run upload as valibot would output it, or null when valibot must decide. */
export function fastRunUpload(input: unknown): ParsedRunUpload | null {
  if (!isObject(input)) return null;
  const { testCases } = input;
  if (!Array.isArray(testCases) || testCases.length > MAX_IDENTITIES) return null;
  // The run's own fields (a few, and small: ids, timestamps, the shard) are valibot's to check,
  // on the body without its test cases; only the test cases are checked by hand.
  const top = v.safeParse(RunUpload, { ...input, testCases: [] }, { abortEarly: true });
  if (!top.success) return null;
  const out: ParsedRunUpload['testCases'] = new Array(testCases.length);
  for (let i = 0; i < testCases.length; i++) {
    const t: unknown = testCases[i];
    if (!isObject(t)) return null;
    const { module, suite, name, status: s, durationMs: d, muted, fingerprint, repetitions } = t;
    if (!isText(module, MAX_MODULE) || !isText(suite, MAX_SUITE) || !isText(name, MAX_NAME) || !isDuration(d) || !isFingerprint(fingerprint)) return null;
    if (s !== 'success' && s !== 'failure' && s !== 'skipped') return null;
    if (muted !== undefined && typeof muted !== 'boolean') return null;
    let reps: ParsedRunUpload['testCases'][number]['repetitions'] = [];
    if (repetitions !== undefined) {
      if (!Array.isArray(repetitions) || repetitions.length > MAX_REPETITIONS) return null;
      reps = new Array(repetitions.length);
      for (let k = 0; k < repetitions.length; k++) {
        const r: unknown = repetitions[k];
        if (!isObject(r)) return null;
        const { repetition, status, durationMs } = r;
        if (!(Number.isInteger(repetition) && (repetition as number) >= 1 && (repetition as number) <= MAX_REPETITION)) return null;
        if ((status !== 'success' && status !== 'failure') || !isDuration(durationMs)) return null;
        reps[k] = { repetition: repetition as number, status, durationMs };
      }
    }
    out[i] = { module, suite, name, status: s, durationMs: d, muted: muted ?? false, fingerprint: fingerprint ?? null, repetitions: reps };
  }
  top.output.testCases = out;
  return top.output;
}
