// Attack test (issue 37, "memory and no storage quota"): a tenant uploads its largest run (94 MiB,
// 100,000 test cases, the most a run may hold) to the real verdict API (`verdict-api demo`, embedded chDB, its own
// process), then opens its page 10 times at once, as the dashboard and as the API, while another
// account asks for verdicts every 50 ms. The server's resident memory is sampled from /proc.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { expectBounded, MiB, openTenTimes, settle, startTwoTenants, type TwoTenants, underLoadLine } from '../support/read-under-load.js';

let t: TwoTenants;

beforeAll(async () => {
  t = await startTwoTenants('operator-credential-of-the-run-size-test-0123456789');
}, 120_000);
afterAll(async () => {
  await t?.api.stop();
});

/** A run upload of about `bytes` bytes in `count` test cases (long names), one in 997 failed. */
function largestRun(bytes: number, count: number): string {
  const head = JSON.stringify({ runId: 'largest', branch: 'feature/huge', commit: 'c0ffee', isCi: true, status: 'failure', durationMs: 600_000, startedAt: new Date().toISOString(), testCases: [] }).slice(0, -2);
  const cases: string[] = [];
  const pad = Math.floor(bytes / count) - 150;
  for (let i = 0; i < count; i++) {
    const c = JSON.stringify({ module: `:module-${i % 40}`, suite: `com.example.generated.Suite${Math.floor(i / 50)}`, name: `test_${i}_${'x'.repeat(pad)}`, status: i % 997 === 0 ? 'failure' : 'success', durationMs: i % 300 });
    cases.push(c);
  }
  return `${head}${cases.join(',')}]}`;
}

describe('a tenant’s largest run', () => {
  it('opened 10 times at once (dashboard and API): the server stays under 1 GB and another account’s verdict p99 under 500 ms', async () => {
    const { api, json } = t;
    const body = largestRun(94 * MiB, 100_000);
    await settle();
    const upload = await fetch(`${api.url}/api/v1/projects/${api.project}/runs`, { method: 'POST', headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' }, body });
    expect(upload.status).toBe(201);
    const read = await openTenTimes(t, 'largest', async () => undefined);
    const page = JSON.parse(read.opens[1]!.text) as { counts: { testCases: number; failed: number }; testCases: unknown[]; nextTestCases: string | null; failedTestCases: unknown[] };
    process.stdout.write(`largest run: ${(body.length / MiB).toFixed(0)} MiB, ${page.counts.testCases} test cases (${page.counts.failed} failed); ${underLoadLine(read)}\n`);
    expectBounded(read);
    expect(page.counts.testCases).toBe(100_000);
    expect(page.testCases.length).toBeLessThanOrEqual(500);
    expect(page.nextTestCases).not.toBeNull();

    // The next page continues where the first ended.
    const next = await json('GET', `/api/v1/projects/${api.project}/runs/largest?after=${encodeURIComponent(page.nextTestCases!)}&limit=1000`, api.admin);
    expect(next.status).toBe(200);
    expect(next.body['testCases']).toHaveLength(1000);
    expect(new Set([...page.testCases, ...next.body['testCases']].map((c: any) => c.testCaseId)).size).toBe(page.testCases.length + 1000);
    expect((await json('GET', `/api/v1/projects/${api.project}/runs/largest?after=not-a-cursor`, api.admin)).body['error']).toMatchObject({ field: 'after' });
  }, 600_000);
});
