// The ramp page, its JSON and `verdict-api telemetry` count the same things with the same words
// (issue 36: the ramp page counted runs as "merge requests gated", and "would have blocked" was 4
// there and 2 in telemetry on the same data). Uploaded through the API as a client does, on both
// engines: report and enforce mode, two runs of one merge request, a guard, a gated run on the
// default branch (not a merge request).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getProject } from '../../src/accounts/projects.js';
import { rampPerDay } from '../../src/telemetry/ramp-per-day.js';
import { formatAnswers } from '../../src/telemetry/format-table.js';
import { loadQueries, runTelemetry } from '../../src/telemetry/queries.js';
import { RampPage } from '../../src/web/ramp-page.js';
import { type ProjectHandle, run, seedProject, testApp } from '../support/api.js';
import { ENGINES, openTestDatabase, type TestDatabase } from '../support/engines.js';

const gate = { mode: 'report', outcome: 'failed', candidatesExamined: 1, stressed: 1, excluded: 0, guard: null, blocked: false, wouldHaveBlocked: true, testCases: [] };

describe.each(ENGINES)('the ramp and the telemetry command on %s', (kind) => {
  let t: TestDatabase;
  let p: ProjectHandle;
  let call: ReturnType<typeof testApp>['call'];

  beforeAll(async () => {
    t = await openTestDatabase(kind);
    call = testApp(t.db).call;
    p = await seedProject(t.db, `ramp-${kind}`);
    const uploads: [string, string, Record<string, unknown>][] = [
      ['mr-1', 'feature/x', gate],
      ['mr-2', 'feature/x', { ...gate, outcome: 'passed', wouldHaveBlocked: false }],
      ['mr-3', 'feature/y', { ...gate, mode: 'enforce', blocked: true }],
      ['mr-4', 'feature/z', { ...gate, outcome: 'guarded', stressed: 0, wouldHaveBlocked: false, guard: { name: 'candidate_cap', count: 300, reason: 'too many' } }],
      ['main-1', 'main', gate],
    ];
    for (const [runId, branch, g] of uploads) {
      expect((await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, run(runId, ['n1'], { branch }))).status).toBe(201);
      expect((await call('POST', `/api/v1/projects/${p.handle}/runs/${runId}/gate`, p.token, g)).status).toBe(201);
    }
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('gives the same merge requests, runs and would-have-blocked on the ramp page, its JSON and the telemetry command', async () => {
    const project = (await getProject(t.db, p.projectId))!;
    const ramp = await rampPerDay(t.db, project, new Date());
    const want = { mergeRequests: 3, runs: 4, wouldHaveBlocked: 2, candidatesStressed: 3, guardsFired: 1 };
    expect(ramp.total).toMatchObject(want);
    expect(ramp.days).toEqual([{ day: new Date().toISOString().slice(0, 10), ...ramp.total }]);

    const json = await call('GET', `/api/v1/projects/${p.handle}/ramp`, p.admin);
    expect(json.status).toBe(200);
    expect(json.body).toEqual(ramp);

    const [answer] = await runTelemetry(t.db, { projectId: p.projectId }, loadQueries().filter((q) => q.name === 'ramp-per-day'));
    expect(answer!.error).toBeNull();
    const total = answer!.rows.find((r) => r['day'] === 'total')!;
    expect([total['merge_requests'], total['runs'], total['would_have_blocked'], total['candidates_stressed'], total['guards_fired']].map(Number)).toEqual([3, 4, 2, 3, 1]);
    // The whole fleet (no --project) answers the same for this project.
    const [fleet] = await runTelemetry(t.db, {}, loadQueries().filter((q) => q.name === 'ramp-per-day'));
    expect(fleet!.rows.filter((r) => r['project'] === p.handle)).toEqual(answer!.rows);
    expect(formatAnswers([answer!])).toMatch(/project\s+day\s+merge_requests\s+runs\s+would_have_blocked\s/);

    const html = String(RampPage({ frame: { title: 'Ramp', project: p.handle, account: 'a', csrf: 'x' }, ramp }));
    expect(html).toContain('<th scope="col" class="num">Merge requests</th><th scope="col" class="num">Runs</th><th scope="col" class="num">Would have blocked</th>');
    expect(html).toContain('<td data-label="Merge requests" class="num">3</td><td data-label="Runs" class="num">4</td><td data-label="Would have blocked" class="num">2</td>');
    expect(html).not.toContain('Merge requests gated');
  });
});
