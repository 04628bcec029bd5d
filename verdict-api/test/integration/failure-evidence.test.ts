// Why the gate blocked, end to end on both real engines: a gate upload carrying the evidence of its
// failed repetitions (hostile text included) is stored once, read back exactly through the run's
// JSON, shown on the run page (signed in to the dashboard) and in the Markdown run report; every
// bound of the evidence is refused one past it (400 naming the field) and accepted at it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import MarkdownIt from 'markdown-it';
import { FAILURE_BOUNDS, MAX_REPETITIONS, REPRODUCE_BOUNDS } from '../../src/contract.js';
import { reproduceCommand } from '../../src/reproduce-command.js';
import { sql, uuid } from '../../src/sql/bind.js';
import { ENGINES, openTestDatabase, type TestDatabase } from '../support/engines.js';
import { type ProjectHandle, run, seedProject, testApp } from '../support/api.js';

const SUITE = 'com.example.CheckoutTest';
const HOSTILE = 'tab\there nul\u0000 back\\slash quote\' "dq" <!-- x --> </details><script>alert(1)</script> ``` @octocat [l](https://evil.example) 🧪 \u2028';
const TRACE = 'java.lang.AssertionError: expected 30 but was 27\n\tat com.example.CheckoutTest.appliesDiscount(CheckoutTest.java:42)\n\tat java.base/java.lang.reflect.Method.invoke(Method.java:580)';

const reps = (fails: number[], n = 10) => Array.from({ length: n }, (_, i) => ({ repetition: i + 1, status: fails.includes(i + 1) ? 'failure' : 'success', durationMs: 30 + i }));
const failure = (over: Record<string, unknown> = {}) => ({
  repetition: 2, kind: 'failure', type: 'java.lang.AssertionError', message: 'expected 30 but was 27', stackTrace: TRACE, framesOmitted: 21,
  stdoutTail: 'total=27\n', stderrTail: null, durationMs: 31, exitCode: null, signal: null, hsErrFile: null, truncated: false, ...over,
});
const gateBody = (testCases: unknown[]) => ({ mode: 'enforce', outcome: 'failed', candidatesExamined: testCases.length, stressed: testCases.length, excluded: 0, guard: null, blocked: true, wouldHaveBlocked: true, testCases });
const flakyCase = {
  module: ':app', suite: SUITE, name: 'appliesDiscount', outcome: 'failed', repetitions: reps([2, 6, 9]),
  failures: [
    failure(),
    failure({ repetition: 6, message: '', stackTrace: '', stdoutTail: '', stderrTail: HOSTILE, truncated: true }),
    failure({ repetition: 9, kind: 'crash', type: null, message: null, stackTrace: null, framesOmitted: 0, stdoutTail: null, stderrTail: '# A fatal error has been detected by the Java Runtime Environment', durationMs: 2500, exitCode: -134, signal: 'SIGABRT', hsErrFile: '/tmp/hs_err_pid7.log' }),
  ],
  failureGroups: [
    { signature: 'java.lang.AssertionError at com.example.CheckoutTest.appliesDiscount(CheckoutTest.java:42)', type: 'java.lang.AssertionError', location: 'CheckoutTest.java:42', count: 2, repetitions: [2, 6] },
    { signature: 'JVM crash (SIGABRT)', type: null, location: null, count: 1, repetitions: [9] },
  ],
  failuresOmitted: 0,
  reproduce: { launcher: { kind: 'package' as const, version: '0.1.0' }, tool: ['gradle'], buildArgs: ['--offline', 'test'], repetitions: 50 },
};
/** The command the API builds from flakyCase's parts and its stored identity. */
const FLAKY_COMMAND = "npx -p @stress-gate/orchestrator@0.1.0 stress-orchestrator gradle --stress-tests ':app com.example.CheckoutTest.appliesDiscount' --repetitions 50 -- --offline test";
/** A name that tries everything: the run report must keep its tables and the CLI's marker whole. */
const EVIL_NAME = `evil|name\n<!-- ${HOSTILE}`;
const evilCase = { module: ':app', suite: SUITE, name: EVIL_NAME, outcome: 'failed', repetitions: reps([1]), failures: [failure({ repetition: 1, message: HOSTILE, stackTrace: `x: ${HOSTILE}\n\tat ${HOSTILE}` })], failureGroups: [{ signature: HOSTILE, type: HOSTILE, location: HOSTILE.slice(0, 100), count: 1, repetitions: [1] }], reproduceCommand: `run '${HOSTILE}'`, reproduce: { ...flakyCase.reproduce, launcher: { kind: 'local' as const }, buildArgs: [HOSTILE.replace('\u0000', ''), `-Pq=it's \\' $x`] } };
const stableCase = { module: ':app', suite: SUITE, name: 'stable', outcome: 'passed', repetitions: reps([]) };

describe.each(ENGINES)('failure evidence on %s ClickHouse', (kind) => {
  let t: TestDatabase;
  let app: ReturnType<typeof testApp>['app'];
  let call: ReturnType<typeof testApp>['call'];
  let p: ProjectHandle;
  beforeAll(async () => {
    t = await openTestDatabase(kind);
    ({ app, call } = testApp(t.db));
    p = await seedProject(t.db, `evidence-${kind}`);
    const upload = run('mr-7', [], { branch: 'feature/checkout', testCases: [flakyCase, evilCase, stableCase].map((c) => ({ module: c.module, suite: c.suite, name: c.name, status: 'success' as const, durationMs: 30 })) });
    expect((await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, upload)).status).toBe(201);
    // Posted twice, as a CLI retrying a lost answer does: recorded once.
    for (let i = 0; i < 2; i++) expect((await call('POST', `/api/v1/projects/${p.handle}/runs/mr-7/gate`, p.token, gateBody([flakyCase, evilCase, stableCase]))).status).toBe(201);
  });
  afterAll(async () => {
    await t.close();
  });

  const rows = async (table: 'gate_failures' | 'gate_failure_groups' | 'gate_candidate_evidence' | 'gate_candidate_reproduce') =>
    Number((await t.db.engine.query<{ n: unknown }>(sql`SELECT count() AS n FROM ${t.db.t(table)} FINAL WHERE project_id = ${uuid(p.projectId)} AND run_id = 'mr-7'`))[0]!.n);

  it('stores the evidence once, and the run reads it back exactly as sent', async () => {
    // gate_candidate_evidence holds only what the bound left out (none here); the reproduce parts are in 0038's table.
    expect([await rows('gate_failures'), await rows('gate_failure_groups'), await rows('gate_candidate_evidence'), await rows('gate_candidate_reproduce')]).toEqual([4, 3, 0, 2]);
    const page = await call('GET', `/api/v1/projects/${p.handle}/runs/mr-7`, p.token);
    expect(page.status).toBe(200);
    const byName = Object.fromEntries(page.body!.gate.candidates.map((c: any) => [c.name, c]));
    const { failures, failureGroups, failuresOmitted } = flakyCase;
    expect(byName['appliesDiscount']).toMatchObject({ failures, failureGroups, failuresOmitted, reproduceCommand: FLAKY_COMMAND });
    // The command is the server's, from the parts and the identity it stored; the text the client sent is not shown.
    expect(byName[EVIL_NAME]).toMatchObject({ failures: evilCase.failures, failureGroups: evilCase.failureGroups, failuresOmitted: 0, reproduceCommand: reproduceCommand(evilCase.reproduce, evilCase) });
    expect(byName[EVIL_NAME].reproduceCommand).toMatch(/^npx --no stress-orchestrator gradle --stress-tests ':app com\.example\.CheckoutTest\.evil\|name\*<!-- /);
    expect(byName[EVIL_NAME].reproduceCommand).not.toContain('run ');
    expect(byName['stable']).toMatchObject({ failures: [], failureGroups: [], failuresOmitted: 0, reproduceCommand: null });
  });

  it('shows each failed repetition of the strip with its failure on the run page, test text escaped', async () => {
    const signIn = await app.request('/sign-in', { method: 'POST', headers: { Origin: 'http://localhost', 'Content-Type': 'application/x-www-form-urlencoded' }, body: `credential=${encodeURIComponent(p.admin)}` });
    expect(signIn.status).toBe(303);
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    const res = await app.request(`/projects/${p.handle}/runs/mr-7`, { headers: { Cookie: cookie } });
    expect(res.status).toBe(200);
    const html = await res.text();
    const strip = html.slice(html.indexOf('aria-label="repetitions of appliesDiscount"'));
    expect(strip).toMatch(/<summary>#2 fail 31 ms<\/summary><div class="failure-panel">.*<pre class="message">expected 30 but was 27<\/pre>/s);
    expect(html).toContain('3 failed, 2 distinct:');
    expect(html).toContain('<dt>Exit code</dt><dd>-134</dd><dt>Signal</dt><dd>SIGABRT</dd>');
    expect(html).toContain(FLAKY_COMMAND.replaceAll("'", '&#39;'));
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<!--');
    expect(html).toContain('&lt;/details&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('says why in the Markdown run report, and hostile names cannot break the comment', async () => {
    const res = await call('GET', `/api/v1/projects/${p.handle}/runs/mr-7/report.md`, p.token);
    expect(res.status).toBe(200);
    const text = res.body!.text as string;
    expect(text).toContain('#### Why `com.example.CheckoutTest.appliesDiscount` failed under the stress gate\n\n3 of 10 repetitions failed, 2 distinct: `AssertionError` at `CheckoutTest.java:42` (2x), `JVM crash (SIGABRT)` (1x).\n');
    expect(text).toContain('First failure, repetition 2 (31ms):\n\n```text\njava.lang.AssertionError: expected 30 but was 27\n\tat com.example.CheckoutTest.appliesDiscount(CheckoutTest.java:42)\n\tat java.base/java.lang.reflect.Method.invoke(Method.java:580)\n```\n');
    expect(text).toContain(`Rerun it as the gate did:\n\n\`\`\`sh\n${FLAKY_COMMAND}\n\`\`\`\n`);
    const verdict = 'The stress gate blocked this merge request.';
    const tokens = new MarkdownIt({ html: true }).parse(`<!-- stress-gate -->\n${text}\n${verdict}\n`, {});
    expect(tokens.filter((x) => x.type.startsWith('html')).map((x) => x.content.trim())).toEqual(['<!-- stress-gate -->']);
    expect(tokens.flatMap((x) => x.children ?? []).filter((x) => x.type.startsWith('html') || x.type.startsWith('link') || x.type.startsWith('image'))).toEqual([]);
    expect(tokens.filter((x) => x.type === 'inline').at(-1)!.content).toBe(verdict);
    expect(tokens.filter((x) => x.type === 'tr_open')).toHaveLength(1 + 2);
  });

  it('accepts a gate upload from an older client, without any evidence', async () => {
    const res = await call('POST', `/api/v1/projects/${p.handle}/runs/old-client/gate`, p.token, gateBody([{ module: ':app', suite: SUITE, name: 'x', outcome: 'failed', repetitions: reps([3]) }]));
    expect(res.status).toBe(201);
  });

  it('refuses two failures with one repetition number, naming the second', async () => {
    const res = await call('POST', `/api/v1/projects/${p.handle}/runs/dup/gate`, p.token, gateBody([{ ...flakyCase, failures: [failure(), failure({ repetition: 6 }), failure()] }]));
    expect(res.status).toBe(400);
    expect(res.body!.error).toMatchObject({ code: 'BAD_REQUEST', field: 'testCases[0].failures[2].repetition' });
  });

  const B = FAILURE_BOUNDS;
  const R = REPRODUCE_BOUNDS;
  const s = (n: number) => 'x'.repeat(n);
  /** [field under testCases[0], a candidate with the value at the bound, the same one past it]. */
  const bounds: [string, (at: boolean) => Record<string, unknown>][] = [
    ['failures[0].type', (at) => ({ failures: [failure({ type: s(B.type + (at ? 0 : 1)) })] })],
    ['failures[0].message', (at) => ({ failures: [failure({ message: `${s(B.message - 2 + (at ? 0 : 1))}🧪` })] })],
    ['failures[0].stackTrace', (at) => ({ failures: [failure({ stackTrace: s(B.stackTrace + (at ? 0 : 1)) })] })],
    ['failures[0].stdoutTail', (at) => ({ failures: [failure({ stdoutTail: s(B.outputTail + (at ? 0 : 1)) })] })],
    ['failures[0].stderrTail', (at) => ({ failures: [failure({ stderrTail: s(B.outputTail + (at ? 0 : 1)) })] })],
    ['failures[0].signal', (at) => ({ failures: [failure({ kind: 'crash', signal: s(B.signal + (at ? 0 : 1)) })] })],
    ['failures[0].hsErrFile', (at) => ({ failures: [failure({ kind: 'crash', hsErrFile: s(B.hsErrFile + (at ? 0 : 1)) })] })],
    ['failures[0].exitCode', (at) => ({ failures: [failure({ kind: 'crash', exitCode: at ? 1000 : 1001 })] })],
    ['failures[0].exitCode', (at) => ({ failures: [failure({ kind: 'crash', exitCode: at ? -1000 : -1001 })] })],
    ['failures[0].repetition', (at) => ({ failures: [failure({ repetition: at ? MAX_REPETITIONS : MAX_REPETITIONS + 1 })] })],
    ['failures', (at) => ({ failures: Array.from({ length: B.failuresPerCase + (at ? 0 : 1) }, (_, i) => failure({ repetition: i + 1 })) })],
    ['failureGroups[0].signature', (at) => ({ failureGroups: [{ ...flakyCase.failureGroups[0], signature: s(B.signature + (at ? 0 : 1)) }] })],
    ['failureGroups[0].type', (at) => ({ failureGroups: [{ ...flakyCase.failureGroups[0], type: s(B.type + (at ? 0 : 1)) }] })],
    ['failureGroups[0].location', (at) => ({ failureGroups: [{ ...flakyCase.failureGroups[0], location: s(B.location + (at ? 0 : 1)) }] })],
    ['failureGroups[0].repetitions', (at) => ({ failureGroups: [{ ...flakyCase.failureGroups[0], repetitions: Array.from({ length: MAX_REPETITIONS + (at ? 0 : 1) }, (_, i) => (i % MAX_REPETITIONS) + 1) }] })],
    ['failureGroups', (at) => ({ failureGroups: Array.from({ length: B.groupsPerCase + (at ? 0 : 1) }, () => flakyCase.failureGroups[0]) })],
    ['reproduceCommand', (at) => ({ reproduceCommand: s(B.reproduceCommand + (at ? 0 : 1)) })],
    ['reproduce.buildArgs', (at) => ({ reproduce: { ...flakyCase.reproduce, buildArgs: Array.from({ length: R.buildArgs + (at ? 0 : 1) }, () => 'x') } })],
    ['reproduce.buildArgs[0]', (at) => ({ reproduce: { ...flakyCase.reproduce, buildArgs: [s(R.word + (at ? 0 : 1))] } })],
    ['reproduce.tool[2]', (at) => ({ reproduce: { ...flakyCase.reproduce, tool: ['mvn', '--maven-executable', s(R.word + (at ? 0 : 1))] } })],
    ['reproduce.repetitions', (at) => ({ reproduce: { ...flakyCase.reproduce, repetitions: at ? R.repetitions : R.repetitions + 1 } })],
    // gradle (7 with its space) + 4,097 + 4,088 = 8,192 characters at the bound.
    ['reproduce', (at) => ({ reproduce: { ...flakyCase.reproduce, buildArgs: [s(R.word), s(R.chars - 7 - (R.word + 1) - 1 + (at ? 0 : 1))] } })],
  ];
  it.each(bounds.map(([field, make], i) => [field, i, make] as const))('refuses %s one past its bound (400 naming it) and accepts it at the bound', async (field, i, make) => {
    const post = (over: Record<string, unknown>, runId: string) => call('POST', `/api/v1/projects/${p.handle}/runs/${runId}/gate`, p.token, gateBody([{ ...flakyCase, ...over }]));
    const over = await post(make(false), `bound-${i}-over`);
    expect([over.status, over.body!.error?.field]).toEqual([400, `testCases[0].${field}`]);
    expect(over.body!.error.message).toContain(`testCases[0].${field}: `);
    const at = await post(make(true), `bound-${i}-at`);
    expect([at.status, at.body!.error]).toEqual([201, undefined]);
  });

  it.each([
    ['an empty type', { failures: [failure({ type: '' })] }, 'failures[0].type'],
    ['an empty signature', { failureGroups: [{ ...flakyCase.failureGroups[0], signature: '' }] }, 'failureGroups[0].signature'],
    ['a lone surrogate in a message', { failures: [failure({ message: 'bad\ud800' })] }, 'failures[0].message'],
    ['an unknown kind', { failures: [failure({ kind: 'timeout' })] }, 'failures[0].kind'],
    ['a fractional exit code', { failures: [failure({ exitCode: 1.5 })] }, 'failures[0].exitCode'],
    ['a negative omission count', { failuresOmitted: -1 }, 'failuresOmitted'],
    ['a tool that is no build tool', { reproduce: { ...flakyCase.reproduce, tool: ['sh', '-c', 'id'] } }, 'reproduce.tool'],
    ['a launcher that is neither local nor the package', { reproduce: { ...flakyCase.reproduce, launcher: { kind: 'curl' } } }, 'reproduce.launcher.kind'],
    ['a package version that is no version', { reproduce: { ...flakyCase.reproduce, launcher: { kind: 'package', version: 'latest; rm -rf /' } } }, 'reproduce.launcher.version'],
    ['a NUL in a build argument', { reproduce: { ...flakyCase.reproduce, buildArgs: ['a\0b'] } }, 'reproduce.buildArgs[0]'],
    ['zero repetitions', { reproduce: { ...flakyCase.reproduce, repetitions: 0 } }, 'reproduce.repetitions'],
  ])('refuses %s naming the field', async (_label, over, field) => {
    const res = await call('POST', `/api/v1/projects/${p.handle}/runs/bad/gate`, p.token, gateBody([{ ...flakyCase, ...over }]));
    expect([res.status, res.body!.error?.field]).toEqual([400, `testCases[0].${field}`]);
  });
});
