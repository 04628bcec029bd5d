// The wire contract between the orchestrator and the verdict API: one valibot schema per
// request and response body. Both workspaces import this module, so they cannot disagree: the
// orchestrator as `#contract`, its build's copy of the compiled module (scripts/package-assets.mjs).
import * as v from 'valibot';

/** Largest number of identities one verdict request or one run upload may carry. */
export const MAX_IDENTITIES = 100_000;

const text = (max: number) =>
  v.pipe(
    v.string(),
    v.minLength(1, 'must not be empty'),
    v.maxLength(max, `must be at most ${max} characters`),
    v.check((s) => s.isWellFormed(), 'must be well-formed Unicode'),
  );
/** The largest value of a UInt32 column: every count is stored as one. */
export const MAX_UINT32 = 4_294_967_295;
const count = v.pipe(v.number(), v.integer('must be an integer'), v.minValue(0, 'must be >= 0'), v.maxValue(MAX_UINT32, `must be <= ${MAX_UINT32}`));
/** Durations are Float64 columns; a year is far beyond any test or run. */
const durationMs = v.pipe(v.number(), v.finite('must be finite'), v.minValue(0, 'must be >= 0'), v.maxValue(31_536_000_000, 'must be at most a year (31536000000 ms)'));

/** The identity of a test case: Gradle project path, JUnit XML classname, JUnit XML name. */
export const TestCaseIdentity = v.object({
  module: text(1024),
  suite: text(4096),
  name: text(4096),
});
export type TestCaseIdentity = v.InferOutput<typeof TestCaseIdentity>;

export const TestStatus = v.picklist(['success', 'failure', 'skipped']);
export type TestStatus = v.InferOutput<typeof TestStatus>;
export const RepetitionStatus = v.picklist(['success', 'failure']);
export type RepetitionStatus = v.InferOutput<typeof RepetitionStatus>;

/**
 * Repetitions of one test case in one upload at most, and so the highest repetition number
 * (numbered from 1): the stress curve gives at most 100 per bucket, and a build's own retries are a few.
 */
export const MAX_REPETITIONS = 100;
const repetitionNumber = v.pipe(count, v.minValue(1, 'must be >= 1'), v.maxValue(MAX_REPETITIONS, `must be <= ${MAX_REPETITIONS}`));

export const Repetition = v.object({
  repetition: repetitionNumber,
  status: RepetitionStatus,
  durationMs,
});
export type Repetition = v.InferOutput<typeof Repetition>;

/** Bounds of a failed repetition's evidence: the CLI cuts to them and says so (truncated), the API refuses more. */
export const FAILURE_BOUNDS = { type: 512, message: 4096, stackTrace: 16384, outputTail: 4096, signature: 1024, location: 512, hsErrFile: 4096, signal: 32, reproduceCommand: 8192, failuresPerCase: 20, groupsPerCase: 10 } as const;

/** Text from a test that may be empty (a message, a trace, an output tail): at most `max` characters, well-formed. */
const testText = (max: number) =>
  v.pipe(v.string(), v.maxLength(max, `must be at most ${max} characters`), v.check((s) => s.isWellFormed(), 'must be well-formed Unicode'));

/** One failed repetition of a candidate: what the author needs to see why. */
export const RepetitionFailure = v.object({
  repetition: repetitionNumber,
  /** failure: the test failed (an assertion or an exception); crash: its JVM died under it. */
  kind: v.picklist(['failure', 'crash']),
  /** The exception's class, e.g. java.lang.AssertionError. */
  type: v.nullable(text(FAILURE_BOUNDS.type)),
  message: v.nullable(testText(FAILURE_BOUNDS.message)),
  /** The cause chain kept; frames beyond the test's own trimmed (framesOmitted says how many). */
  stackTrace: v.nullable(testText(FAILURE_BOUNDS.stackTrace)),
  framesOmitted: v.optional(count, 0),
  stdoutTail: v.nullable(testText(FAILURE_BOUNDS.outputTail)),
  stderrTail: v.nullable(testText(FAILURE_BOUNDS.outputTail)),
  durationMs,
  /** A crash: the JVM's exit code. */
  exitCode: v.nullable(v.pipe(v.number(), v.integer('must be an integer'), v.minValue(-1000, 'must be >= -1000'), v.maxValue(1000, 'must be <= 1000'))),
  /** A crash: the signal that ended the JVM, e.g. SIGKILL. */
  signal: v.nullable(text(FAILURE_BOUNDS.signal)),
  /** A crash: where the JVM wrote its hs_err_pid*.log, if it did. */
  hsErrFile: v.nullable(text(FAILURE_BOUNDS.hsErrFile)),
  /** Some field was cut to its bound by the CLI. */
  truncated: v.optional(v.boolean(), false),
});
export type RepetitionFailure = v.InferOutput<typeof RepetitionFailure>;

/** Failed repetitions grouped by signature (exception type + first frame in test code). */
export const FailureGroup = v.object({
  /** e.g. "java.lang.AssertionError at shop.CheckoutTest.appliesDiscount(CheckoutTest.java:42)". */
  signature: text(FAILURE_BOUNDS.signature),
  type: v.nullable(text(FAILURE_BOUNDS.type)),
  /** e.g. "CheckoutTest.java:42". */
  location: v.nullable(text(FAILURE_BOUNDS.location)),
  count,
  repetitions: v.pipe(v.array(repetitionNumber), v.maxLength(MAX_REPETITIONS, `must hold at most ${MAX_REPETITIONS} repetitions`)),
});
export type FailureGroup = v.InferOutput<typeof FailureGroup>;

/**
 * A candidate that failed while its repetitions ran side by side (several JVMs at once) and passed
 * every repetition run again alone: a timing-sensitive test. How many of its side-by-side
 * repetitions failed, of how many; the failures' evidence goes in the test case's `failures` and
 * `failureGroups`, numbered as the side-by-side repetitions were (its strip is the alone run).
 */
export const TimingSensitive = v.pipe(
  v.object({
    failures: v.pipe(count, v.minValue(1, 'must be >= 1'), v.maxValue(MAX_REPETITIONS, `must be <= ${MAX_REPETITIONS}`)),
    repetitions: repetitionNumber,
  }),
  v.forward(
    v.check((t) => t.failures <= t.repetitions, 'must be at most repetitions'),
    ['failures'],
  ),
);
export type TimingSensitive = v.InferOutput<typeof TimingSensitive>;

/** The order probe's bounds on the wire: findings a candidate uploads. */
export const ORDER_BOUNDS = { findingsPerCase: 5 } as const;

/**
 * One order dependence the probe found and confirmed in fresh JVMs: the candidate (victim) failed
 * right after `other`, or `other` (polluter: an existing test) failed right after the candidate.
 * `failure` is the failing test's evidence in the last replay, as a failed repetition's.
 */
export const OrderFinding = v.object({
  role: v.picklist(['victim', 'polluter']),
  /** The other test of the pair. */
  other: TestCaseIdentity,
  /** Polluter: whether `other` passed alone in a fresh JVM; null for a victim (the candidate passed every repetition alone). */
  otherPassesAlone: v.nullable(v.boolean()),
  /** Fresh JVMs that replayed exactly the pair's order, and how many of them failed. */
  replays: v.pipe(count, v.minValue(1, 'must be >= 1'), v.maxValue(100, 'must be <= 100')),
  replayFailures: v.pipe(count, v.maxValue(100, 'must be <= 100')),
  failure: RepetitionFailure,
});
export type OrderFinding = v.InferOutput<typeof OrderFinding>;

/**
 * What the order probe did for one candidate that passed its repetitions: `probed` (every planned
 * pair ran), `cut` (its budget or the ceiling stopped it: some pairs did not run), `not_run` (why
 * says: the executor cannot choose an order, no other test ran in its JVM…). `seed` picks the
 * sampled classes; the same seed and the same build pick the same ones.
 */
export const OrderProbe = v.object({
  status: v.picklist(['probed', 'cut', 'not_run']),
  why: v.nullable(text(1024)),
  seed: v.pipe(v.string(), v.regex(/^[0-9]{1,10}$/, 'must be a decimal number below 2^32')),
  /** Other tests it ran beside (its class's and the sample's), and how many of them ran. */
  partners: count,
  partnersRun: count,
  /** Classes of its module sampled besides its own, of how many. */
  sampledClasses: count,
  moduleClasses: count,
  findings: v.pipe(v.array(OrderFinding), v.maxLength(ORDER_BOUNDS.findingsPerCase, `must hold at most ${ORDER_BOUNDS.findingsPerCase} findings`)),
  /** Findings left out by the bound. */
  findingsOmitted: v.optional(count, 0),
});
export type OrderProbe = v.InferOutput<typeof OrderProbe>;

/**
 * The method a parameterised invocation's name belongs to: its name up to the first `[`
 * (`adds(int)` of `adds(int)[3]`, `adds` of `adds[2: 1+1]` or `adds[0](1, 2)`); null for a plain
 * test. The CLI groups the invocations it stresses by it; the run page and the run report show a
 * method with two or more of them as one line.
 */
export function invocationMethod(name: string): string | null {
  const bracket = name.indexOf('[');
  return bracket > 0 ? name.slice(0, bracket) : null;
}

/** A client-chosen run id: a retried upload with the same id is the same run. */
export const RunId = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/, 'must be 1-128 characters of letters, digits, ".", "_", ":" or "-"'),
);

export const Shard = v.pipe(
  v.object({
    index: count,
    total: v.pipe(count, v.minValue(1, 'must be >= 1'), v.maxValue(10_000, 'must be <= 10000')),
  }),
  v.forward(
    v.check((s) => s.index < s.total, 'must be below the shard total'),
    ['index'],
  ),
);

/**
 * A test method's body fingerprint: the first 128 bits of the SHA-256 of its normalised source
 * (annotations, parameters and body as tokens, comments and layout dropped, its own name left
 * out), then the invocation's part of the name (`[1]`), as 32 lowercase hex digits. Two identities
 * with one fingerprint are the same test under two names (orchestrator/src/diff/fingerprint.ts).
 */
export const Fingerprint = v.pipe(v.string(), v.regex(/^[0-9a-f]{32}$/, 'must be 32 lowercase hex digits'));

export const TestCaseRunUpload = v.object({
  ...TestCaseIdentity.entries,
  status: TestStatus,
  durationMs,
  muted: v.optional(v.boolean(), false),
  /** Optional (older clients and tests the CLI did not find in the source send none): its body fingerprint. */
  fingerprint: v.optional(v.nullable(Fingerprint), null),
  repetitions: v.optional(v.pipe(v.array(Repetition), v.maxLength(MAX_REPETITIONS, `must hold at most ${MAX_REPETITIONS} repetitions`)), []),
});
export type TestCaseRunUpload = v.InferOutput<typeof TestCaseRunUpload>;

/** POST /api/v1/projects/:project/runs: one first pass (or one shard of it). */
export const RunUpload = v.object({
  runId: RunId,
  branch: text(1024),
  commit: v.optional(v.pipe(v.string(), v.maxLength(256)), ''),
  isCi: v.boolean(),
  status: v.picklist(['success', 'failure']),
  durationMs,
  startedAt: v.optional(v.pipe(v.string(), v.isoTimestamp('must be an ISO 8601 timestamp'))),
  shard: v.optional(Shard, { index: 0, total: 1 }),
  testCases: v.pipe(v.array(TestCaseRunUpload), v.maxLength(MAX_IDENTITIES, `must hold at most ${MAX_IDENTITIES} test cases`)),
});
export type RunUpload = v.InferInput<typeof RunUpload>;

export const RunUploadResult = v.object({
  runId: v.string(),
  shard: Shard,
  testCases: count,
  newTestCases: count,
  duplicate: v.boolean(),
});
export type RunUploadResult = v.InferOutput<typeof RunUploadResult>;

/** One bucket of the repetition curve: a duration within maxDurationMs gets `repetitions`. */
export const CurveBucket = v.object({
  maxDurationMs: v.pipe(v.number(), v.finite(), v.minValue(1, 'must be > 0')),
  bound: v.picklist(['inclusive', 'exclusive']),
  repetitions: v.pipe(count, v.minValue(1, 'must be >= 1'), v.maxValue(100, 'must be <= 100')),
});
export type CurveBucket = v.InferOutput<typeof CurveBucket>;

const Curve = v.pipe(
  v.array(CurveBucket),
  v.minLength(1, 'must have at least one bucket'),
  v.check(
    (c) => c.every((b, i) => i === 0 || b.maxDurationMs > c[i - 1]!.maxDurationMs),
    'buckets must be ordered by strictly increasing maxDurationMs',
  ),
  v.check(
    (c) => c.every((b, i) => i === 0 || b.repetitions <= c[i - 1]!.repetitions),
    'slower buckets must not get more repetitions than faster ones',
  ),
);

/** The stress parameters a project carries beside its flaky-test policy. */
export const StressParameters = v.object({
  curve: Curve,
  candidateCap: v.pipe(count, v.minValue(1, 'must be >= 1')),
  ceilingSeconds: v.pipe(count, v.minValue(1, 'must be >= 1')),
  bulkChangeRatio: v.pipe(v.number(), v.gtValue(0, 'must be in (0, 1]'), v.maxValue(1, 'must be in (0, 1]')),
  bulkChangeFloor: v.pipe(count, v.minValue(1, 'must be >= 1')),
  /**
   * A new test that failed while its repetitions ran side by side and passed every repetition run
   * again alone (timing-sensitive) fails the gate too. Default false: it is reported, not blocking.
   * Optional on the wire, so a CLI reads an older server's parameters.
   */
  timingSensitiveBlocks: v.optional(v.boolean(), false),
  /**
   * A new test the order probe found order-dependent (a victim or a polluter) fails the gate in
   * enforce. Default true; a project can make order findings report-only. Optional on the wire.
   */
  orderFindingsBlock: v.optional(v.boolean(), true),
  /**
   * A test the merge request modified (its own lines changed) that disagreed with itself fails the
   * gate in enforce. Default false: modified tests are stressed and reported in both modes, and
   * block only when a project turns this on. Optional on the wire.
   */
  modifiedTestsBlock: v.optional(v.boolean(), false),
});
export type StressParameters = v.InferOutput<typeof StressParameters>;

export const DEFAULT_STRESS_PARAMETERS: StressParameters = {
  curve: [
    { maxDurationMs: 5_000, bound: 'inclusive', repetitions: 10 },
    { maxDurationMs: 10_000, bound: 'exclusive', repetitions: 5 },
    { maxDurationMs: 30_000, bound: 'exclusive', repetitions: 3 },
    { maxDurationMs: 300_000, bound: 'exclusive', repetitions: 2 },
  ],
  candidateCap: 200,
  ceilingSeconds: 600,
  bulkChangeRatio: 0.3,
  bulkChangeFloor: 50,
  timingSensitiveBlocks: false,
  orderFindingsBlock: true,
  modifiedTestsBlock: false,
};

/** The project's flaky-test policy (consumers that attribute flakiness read it). */
export const FlakyPolicy = v.object({
  autoMarkFlaky: v.boolean(),
  autoMarkThreshold: v.pipe(count, v.minValue(1, 'must be >= 1')),
  cooldownDays: count,
  autoQuarantine: v.boolean(),
});
export type FlakyPolicy = v.InferOutput<typeof FlakyPolicy>;

export const DEFAULT_FLAKY_POLICY: FlakyPolicy = {
  autoMarkFlaky: true,
  autoMarkThreshold: 1,
  cooldownDays: 14,
  autoQuarantine: false,
};

/** GET/PATCH /api/v1/projects/:project/settings. */
export const ProjectSettings = v.object({
  defaultBranch: v.nullable(text(1024)),
  flakyPolicy: FlakyPolicy,
  stress: StressParameters,
});
export type ProjectSettings = v.InferOutput<typeof ProjectSettings>;

export const ProjectSettingsPatch = v.object({
  defaultBranch: v.optional(v.nullable(text(1024))),
  flakyPolicy: v.optional(v.partial(FlakyPolicy)),
  stress: v.optional(v.partial(StressParameters)),
});
export type ProjectSettingsPatch = v.InferInput<typeof ProjectSettingsPatch>;

/**
 * One suite's tests in a grouped verdict request: the module and suite are given once, and the
 * tests either as `tests` (one object each) or as `names` with `durationsMs` beside them, what the
 * CLI sends: a third fewer bytes, and no object per test for the API to parse and check. Parsed,
 * both are the lists side by side, with `listed` saying which the client sent (errors name its
 * fields).
 */
export const VerdictSuite = v.pipe(
  v.object({
    module: TestCaseIdentity.entries.module,
    suite: TestCaseIdentity.entries.suite,
    tests: v.optional(v.array(v.object({ name: TestCaseIdentity.entries.name, durationMs }))),
    names: v.optional(v.array(TestCaseIdentity.entries.name)),
    durationsMs: v.optional(v.array(durationMs)),
    /** Optional, beside `names`: each test's body fingerprint, or null (the CLI sends them only for tests in files the merge request changed). */
    fingerprints: v.optional(v.array(v.nullable(Fingerprint))),
  }),
  v.check(
    (s) => (s.tests !== undefined ? s.names === undefined && s.durationsMs === undefined : s.names !== undefined && s.durationsMs?.length === s.names.length),
    'give the tests either as tests, or as names with durationsMs of the same length',
  ),
  v.forward(
    v.check((s) => s.fingerprints === undefined || s.fingerprints.length === (s.names ?? s.tests ?? []).length, 'must be as long as the list of tests'),
    ['fingerprints'],
  ),
  v.transform((s) => ({
    module: s.module,
    suite: s.suite,
    listed: s.tests ? ('tests' as const) : ('names' as const),
    names: s.tests ? s.tests.map((t) => t.name) : s.names!,
    durationsMs: s.tests ? s.tests.map((t) => t.durationMs) : s.durationsMs!,
    fingerprints: s.fingerprints ?? null,
  })),
);

/**
 * POST /api/v1/projects/:project/verdict: the identities the first pass ran, either one entry per
 * test case (`testCases`) or grouped by suite (`suites`, what the CLI sends: half the bytes and a
 * third of the strings for the API to parse and hash; VerdictSuite). Exactly one of the two; at most
 * MAX_IDENTITIES test cases either way (parse-body.ts checks both).
 */
export const VerdictRequest = v.object({
  /** Telemetry only: the run this verdict is for and the gate's mode (the verdict log records them). */
  runId: v.optional(RunId),
  mode: v.optional(v.picklist(['report', 'enforce'])),
  testCases: v.optional(
    v.pipe(
      v.array(v.object({ ...TestCaseIdentity.entries, durationMs, fingerprint: v.optional(v.nullable(Fingerprint), null) })),
      v.maxLength(MAX_IDENTITIES, `must hold at most ${MAX_IDENTITIES} test cases`),
    ),
  ),
  suites: v.optional(v.array(VerdictSuite)),
});
export type VerdictRequest = v.InferInput<typeof VerdictRequest>;

export const Candidate = v.object({
  ...TestCaseIdentity.entries,
  testCaseId: v.string(),
  durationMs,
  /** Repetitions the curve gives this duration; null when excluded. */
  repetitions: v.nullable(count),
  excluded: v.nullable(v.object({ reason: v.literal('slow'), detail: v.string() })),
});
export type Candidate = v.InferOutput<typeof Candidate>;

export const PremiseGuard = v.object({
  fired: v.boolean(),
  reason: v.nullable(v.picklist(['no_default_branch', 'no_default_branch_history'])),
});
export const BulkChangeGuard = v.object({
  fired: v.boolean(),
  newCount: count,
  inventory: count,
  ratio: v.number(),
  floor: count,
});
export const CandidateCapGuard = v.object({ fired: v.boolean(), count, cap: count });

/**
 * A posted identity with no default-branch history whose body fingerprint is that of an identity
 * with default-branch CI history that this request did not post (gone from the build): the same
 * test renamed or moved. It inherits that history, so it is no candidate and does not count as new.
 */
export const RenamedTest = v.object({
  ...TestCaseIdentity.entries,
  testCaseId: v.string(),
  from: v.object({ ...TestCaseIdentity.entries, testCaseId: v.string() }),
});
export type RenamedTest = v.InferOutput<typeof RenamedTest>;

export const VerdictResponse = v.object({
  projectId: v.string(),
  entitled: v.boolean(),
  defaultBranch: v.nullable(v.string()),
  parameters: StressParameters,
  inventory: count,
  posted: count,
  /** New identities ("never run in CI on the default branch"), sorted by identity. */
  candidates: v.array(Candidate),
  /** Optional (older servers send none): posted identities that are renames of known ones, not candidates. */
  renamed: v.optional(v.array(RenamedTest), []),
  guards: v.object({ premise: PremiseGuard, bulkChange: BulkChangeGuard, candidateCap: CandidateCapGuard }),
});
export type VerdictResponse = v.InferOutput<typeof VerdictResponse>;

export const GateMode = v.picklist(['report', 'enforce']);
export type GateMode = v.InferOutput<typeof GateMode>;

/** The gate's outcome on a run shard; gate_error and cancelled say it could not finish (never a block). */
export const GateOutcome = v.picklist(['passed', 'failed', 'guarded', 'incomplete', 'skipped', 'not_entitled', 'no_candidates', 'gate_error', 'cancelled']);
export type GateOutcome = v.InferOutput<typeof GateOutcome>;

export const GuardName = v.picklist(['premise', 'bulk_change', 'candidate_cap', 'ceiling']);
export type GuardName = v.InferOutput<typeof GuardName>;

/**
 * Telemetry of the stress pass for tuning the curve and the ceiling: its wall clock (null when no
 * pass ran, e.g. a guard refused), the ceiling prediction made before it and the JVM start used.
 */
export const StressTiming = v.object({
  wallClockMs: v.optional(v.nullable(durationMs), null),
  predictedMs: durationMs,
  jvmStartMs: durationMs,
  cut: v.optional(v.boolean(), false),
});
export type StressTiming = v.InferOutput<typeof StressTiming>;

/** Bounds of a reproduce command's parts: words of the build tool and of the build's arguments. */
export const REPRODUCE_BOUNDS = { word: 4096, buildArgs: 256, chars: 8192, repetitions: 1000 } as const;

/** One word of a command line: any text a process can take as an argument (no NUL), within the bound. */
const commandWord = v.pipe(
  v.string(),
  v.maxLength(REPRODUCE_BOUNDS.word, `must be at most ${REPRODUCE_BOUNDS.word} characters`),
  v.check((s) => s.isWellFormed(), 'must be well-formed Unicode'),
  v.check((s) => !s.includes('\0'), 'must not contain NUL'),
);

/**
 * How to rerun a candidate as the gate did, in parts: the server quotes them, with the stored test
 * identity, into the command the run page and the run report show (reproduce-command.ts).
 */
export const ReproduceParts = v.pipe(
  v.object({
    /** local: installed in the project (`npx --no stress-orchestrator`); package: the scoped package at `version`. */
    launcher: v.variant('kind', [
      v.object({ kind: v.literal('local') }),
      v.object({ kind: v.literal('package'), version: v.pipe(v.string(), v.regex(/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]{1,64})?$/, 'must be a version such as 1.2.3')) }),
    ]),
    /** The build tool as the CLI's first words: gradle, mvn or ./mvnw, then optionally --maven-executable <path>. */
    tool: v.pipe(
      v.array(commandWord),
      v.check(
        (t) => (t.length === 1 && ['gradle', 'mvn', './mvnw'].includes(t[0]!)) || (t.length === 3 && ['mvn', './mvnw'].includes(t[0]!) && t[1] === '--maven-executable' && t[2] !== ''),
        'must be ["gradle"], ["mvn"] or ["./mvnw"], optionally followed by "--maven-executable" and a path',
      ),
    ),
    /** The build's arguments, as the CLI passed them to the build tool. */
    buildArgs: v.pipe(v.array(commandWord), v.maxLength(REPRODUCE_BOUNDS.buildArgs, `must hold at most ${REPRODUCE_BOUNDS.buildArgs} words`)),
    repetitions: v.pipe(count, v.minValue(1, 'must be >= 1'), v.maxValue(REPRODUCE_BOUNDS.repetitions, `must be <= ${REPRODUCE_BOUNDS.repetitions}`)),
  }),
  v.check((p) => [...p.tool, ...p.buildArgs].reduce((n, w) => n + w.length + 1, 0) <= REPRODUCE_BOUNDS.chars, `tool and buildArgs must hold at most ${REPRODUCE_BOUNDS.chars} characters together`),
);
export type ReproduceParts = v.InferOutput<typeof ReproduceParts>;

/**
 * Why a candidate was chosen: `new` (never ran in CI on the default branch), `modified` (it ran
 * there, and the merge request changed its own lines), `diff` (the project has no default-branch
 * history yet: a test method the merge request added, "new (from the diff)").
 */
export const CandidateOrigin = v.picklist(['new', 'modified', 'diff']);
export type CandidateOrigin = v.InferOutput<typeof CandidateOrigin>;

/** Bounds of the diff analysis on the wire. */
export const DIFF_BOUNDS = { renamed: 1000, why: 1024, base: 256 } as const;

/**
 * What the CLI learnt from the merge request's diff: `analysed` (against `base`, the merge base's
 * commit), or `skipped` with why (a shallow clone without the merge base, no git, the default
 * branch itself…): then no test is `modified` and only the server's fingerprints found renames.
 */
export const DiffAnalysis = v.object({
  status: v.picklist(['analysed', 'skipped']),
  why: v.nullable(text(DIFF_BOUNDS.why)),
  base: v.nullable(text(DIFF_BOUNDS.base)),
  /** Test methods the diff added, modified, and those it touched the CLI could not find in the source. */
  added: v.optional(count, 0),
  modified: v.optional(count, 0),
});
export type DiffAnalysis = v.InferOutput<typeof DiffAnalysis>;

/** POST /api/v1/projects/:project/runs/:runId/gate: the stress pass as one gated observation. */
export const GateUpload = v.object({
  shard: v.optional(Shard, { index: 0, total: 1 }),
  mode: GateMode,
  outcome: GateOutcome,
  candidatesExamined: count,
  stressed: count,
  excluded: count,
  notStressed: v.optional(count, 0),
  guard: v.nullable(v.object({ name: GuardName, count, reason: v.pipe(v.string(), v.maxLength(4096, 'must be at most 4096 characters')) })),
  blocked: v.boolean(),
  wouldHaveBlocked: v.boolean(),
  /** Optional (older clients send none): telemetry of the pass. */
  timing: v.optional(v.nullable(StressTiming), null),
  /** Optional (older clients send none): the diff analysis behind modified and renamed tests. */
  diff: v.optional(v.nullable(DiffAnalysis), null),
  /** Optional: tests not stressed because they are renames of known tests (the verdict's, or the diff's on day one). */
  renamed: v.optional(v.pipe(v.array(v.object({ ...TestCaseIdentity.entries, from: TestCaseIdentity })), v.maxLength(DIFF_BOUNDS.renamed, `must hold at most ${DIFF_BOUNDS.renamed} renamed tests`)), []),
  testCases: v.pipe(
    v.array(
      v.object({
        ...TestCaseIdentity.entries,
        muted: v.optional(v.boolean(), false),
        /** Optional (older clients send none, meaning new): why it is a candidate. */
        origin: v.optional(CandidateOrigin, 'new'),
        /** Optional telemetry: the first pass's measured duration and the repetitions the curve gave. */
        durationMs: v.optional(v.nullable(durationMs), null),
        plannedRepetitions: v.optional(v.nullable(count), null),
        /** order_dependent: it passed every repetition, and the order probe found it a victim or a polluter (`orderProbe`). */
        outcome: v.picklist(['passed', 'failed', 'not_stressed', 'error', 'order_dependent']),
        repetitions: v.pipe(v.array(Repetition), v.maxLength(MAX_REPETITIONS, `must hold at most ${MAX_REPETITIONS} repetitions`)),
        /** Optional (older clients send none): the evidence of failed repetitions, within FAILURE_BOUNDS. */
        failures: v.optional(v.pipe(v.array(RepetitionFailure), v.maxLength(FAILURE_BOUNDS.failuresPerCase, `must hold at most ${FAILURE_BOUNDS.failuresPerCase} failures`)), []),
        failureGroups: v.optional(v.pipe(v.array(FailureGroup), v.maxLength(FAILURE_BOUNDS.groupsPerCase, `must hold at most ${FAILURE_BOUNDS.groupsPerCase} groups`)), []),
        /** Failed repetitions whose evidence was left out by the bound. */
        failuresOmitted: v.optional(count, 0),
        /** Older clients' text of the reproduce command: accepted, never stored or shown (the server builds the command from `reproduce`). */
        reproduceCommand: v.optional(v.nullable(text(FAILURE_BOUNDS.reproduceCommand)), null),
        /** How to rerun this candidate as the gate did (a failed or timing-sensitive one); the server builds the command from it and the identity. */
        reproduce: v.optional(v.nullable(ReproduceParts), null),
        /**
         * Optional (older clients send none): it failed side by side and passed every repetition run
         * again alone. Its `failures` and `failureGroups` are then the side-by-side ones.
         */
        timingSensitive: v.optional(v.nullable(TimingSensitive), null),
        /** Optional (older clients send none): the order probe's result for a candidate that passed its repetitions. */
        orderProbe: v.optional(v.nullable(OrderProbe), null),
      }),
    ),
    v.maxLength(MAX_IDENTITIES),
  ),
});
export type GateUpload = v.InferInput<typeof GateUpload>;

/** A candidate's price: its repetitions, or why it is excluded. */
export type Price = { repetitions: number; excluded: null } | { repetitions: null; excluded: { reason: 'slow'; detail: string } };

/**
 * Prices a duration on a repetition curve: the first bucket it fits gives the repetitions; slower
 * than every bucket is excluded. The server prices the verdict's candidates with it, and the CLI's
 * `--stress-tests` (no server) prices on the default curve the same way.
 */
export function price(durationMs: number, curve: readonly CurveBucket[]): Price {
  for (const bucket of curve) {
    const fits = bucket.bound === 'inclusive' ? durationMs <= bucket.maxDurationMs : durationMs < bucket.maxDurationMs;
    if (fits) return { repetitions: bucket.repetitions, excluded: null };
  }
  const last = curve[curve.length - 1];
  const limit = last ? `${last.bound === 'inclusive' ? 'over' : 'at or over'} ${formatDuration(last.maxDurationMs)}` : 'no curve';
  return { repetitions: null, excluded: { reason: 'slow', detail: `took ${formatDuration(durationMs)}, ${limit}` } };
}

/**
 * How both sides word a duration for people ("12ms", "4.2s", "6m 2s", "1h 2m 3s"): the CLI's
 * report, the run report and the server's exclusion details say it the same way.
 */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${Math.round(ms / 100) / 10}s`;
  const total = Math.round(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return [h ? `${h}h` : '', m ? `${m}m` : '', s ? `${s}s` : ''].filter(Boolean).join(' ');
}

/**
 * Detection power of a clean result: after `r` passing repetitions, the per-execution failure rate
 * ruled out at `confidence` (1 - (1-confidence)^(1/r): 26% for 10, 45% for 5). A bound on what
 * could pass, never a promise that a test is not flaky. The CLI's report and the run page share it.
 */
export function ruledOutFailureRate(r: number, confidence = 0.95): number {
  return r < 1 ? 1 : 1 - (1 - confidence) ** (1 / r);
}

/** Error bodies: a stable code, a message, and the offending field when there is one. */
export const ErrorBody = v.object({
  error: v.object({ code: v.string(), message: v.string(), field: v.optional(v.string()) }),
});
export type ErrorBody = v.InferOutput<typeof ErrorBody>;

/** A test case's quarantine state: enabled, muted (runs, failure masked) or skipped (not run). */
export const QuarantineState = v.picklist(['enabled', 'muted', 'skipped']);
export type QuarantineState = v.InferOutput<typeof QuarantineState>;

const QuarantineFields = {
  state: QuarantineState,
  owner: text(256),
  reason: text(4096),
  /** A link to the issue: http or https only (it is rendered as a link). */
  issueUrl: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(2048), v.url('must be a URL'), v.regex(/^https?:\/\//i, 'must be an http or https URL'))), null),
  expiresAt: v.optional(v.nullable(v.pipe(v.string(), v.isoTimestamp('must be an ISO 8601 timestamp'))), null),
};

/** PUT /api/v1/projects/:project/quarantine/:testCaseId: set a test case's quarantine. */
export const QuarantineWrite = v.object(QuarantineFields);
export type QuarantineWrite = v.InferInput<typeof QuarantineWrite>;

/** POST /api/v1/projects/:project/quarantine: the same, naming the test by its identity. */
export const QuarantineWriteByIdentity = v.object({ ...TestCaseIdentity.entries, ...QuarantineFields });
export type QuarantineWriteByIdentity = v.InferInput<typeof QuarantineWriteByIdentity>;

/** DELETE /api/v1/projects/:project/quarantine/:testCaseId: an optional reason for the audit. */
export const UnquarantineBody = v.object({ reason: v.optional(text(4096)) });

/** One quarantined test case as GET …/quarantine lists it. */
export const QuarantinedTest = v.object({
  ...TestCaseIdentity.entries,
  testCaseId: v.string(),
  state: v.picklist(['muted', 'skipped']),
  owner: v.string(),
  reason: v.string(),
  issueUrl: v.nullable(v.string()),
  expiresAt: v.nullable(v.string()),
  changedBy: v.string(),
  changedAt: v.string(),
});
export type QuarantinedTest = v.InferOutput<typeof QuarantinedTest>;

/** GET /api/v1/projects/:project/quarantine?limit=&cursor=: one page; nextCursor null on the last. */
export const QuarantineListResponse = v.object({
  tests: v.array(QuarantinedTest),
  nextCursor: v.nullable(v.string()),
});
export type QuarantineListResponse = v.InferOutput<typeof QuarantineListResponse>;

/** POST /api/v1/projects/:project/webhooks: where alerts go and the secret that signs them. */
export const WebhookCreate = v.object({
  url: v.pipe(v.string(), v.maxLength(2048), v.url('must be a URL'), v.regex(/^https?:\/\//i, 'must be an http or https URL')),
  secret: v.pipe(v.string(), v.minLength(16, 'must be at least 16 characters'), v.maxLength(256, 'must be at most 256 characters')),
});
export type WebhookCreate = v.InferInput<typeof WebhookCreate>;
