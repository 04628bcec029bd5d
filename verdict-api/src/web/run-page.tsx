// The run page: first its headline (the verdict in words, and each test that decided it with why
// it failed and the command that reruns it: run-page-headline.tsx), then the run's facts, the
// gate's verdict with a strip per candidate, each failed repetition of which opens its failure
// (gate-candidates.tsx, failure-evidence.tsx), the failures, the flaky section (organic and
// stress findings under their own labels; a timing-sensitive test as such; the new invocations of
// one method as one row) and the test cases. One verdict a run, in the headline; the first pass
// and each candidate's outcome are said in words scoped to what they judge.
import type { StressParameters } from '../contract.js';
import { type FlakyFinding, flakyNotShownLine, type GateCandidate, RUN_PAGE_CANDIDATES, type RunPage } from '../run-page/run-page.js';
import { flakyRows, groupLine, type InvocationGroup } from '../run-page/invocation-groups.js';
import { orderProbeFacts } from '../run-page/order-probe.js';
import { runHeadline } from '../run-page/run-headline.js';
import { skippedSentence } from '../run-page/read-diff.js';
import { findingTiming, timingSensitiveLine, timingSensitiveVerdict } from '../run-page/timing-sensitive.js';
import { ms, StatusBadge } from './badges.js';
import { GateCandidatesTable } from './gate-candidates.js';
import { Layout, type Frame } from './layout.js';
import { RunHeadlineView } from './run-page-headline.js';

const GUARD_WORDS: Record<string, string> = { premise: 'premise', bulk_change: 'bulk change', candidate_cap: 'candidate cap', ceiling: 'wall-clock ceiling' };

/** The run page. */
export function RunPageView({ frame, page, stress, first, firstCandidates = true }: { frame: Frame; page: RunPage; stress: StressParameters; first: boolean; firstCandidates?: boolean }) {
  const base = `/projects/${encodeURIComponent(frame.project!)}`;
  const failed = page.failedTestCases;
  const { counts } = page;
  const here = `${base}/runs/${encodeURIComponent(page.runId)}`;
  const testLink = (id: string) => `${base}/test-cases/${id}`;
  const link = (id: string, label: string) => <a href={testLink(id)}>{label}</a>;
  const stressed = new Map((page.gate?.candidates ?? []).map((c) => [c.testCaseId, c]));
  return (
    <Layout frame={frame}>
      <h1 class="run-title">Run <code>{page.runId}</code></h1>
      <p class="run-meta">Branch <strong>{page.branch}</strong>, commit <code>{page.commit || '—'}</code>, started {page.startedAt} UTC</p>
      <RunHeadlineView h={runHeadline(page)} testLink={testLink} />

      <section aria-labelledby="run">
        <h2 id="run">This run</h2>
        <dl class="facts">
          <dt>Branch</dt><dd>{page.branch}</dd>
          <dt>Commit</dt><dd><code>{page.commit || '—'}</code></dd>
          <dt>First pass (the build)</dt><dd>{page.status === 'success' ? `passed: none of its ${counts.testCases} test cases failed` : `failed: ${counts.failed} of its ${counts.testCases} test cases failed`}</dd>
          <dt>Duration</dt><dd>{ms(page.durationMs)}</dd>
          <dt>Started (UTC)</dt><dd>{page.startedAt}</dd>
          <dt>Shards</dt><dd>{page.shards}</dd>
          <dt>CI</dt><dd>{page.isCi ? 'yes' : 'no'}</dd>
        </dl>
      </section>

      <section aria-labelledby="gate">
        <h2 id="gate">The stress gate's verdict</h2>
        {page.gate ? <GateBlock gate={page.gate} stress={stress} link={link} here={here} first={firstCandidates} /> : <p>The gate did not run on this run (no verdict uploaded).</p>}
      </section>

      <section aria-labelledby="failures">
        <h2 id="failures">Failures ({counts.failed})</h2>
        {failed.length === 0 ? <p>No test failed in the build.</p> : (
          <table>
            <thead><tr><th scope="col">Test</th><th scope="col">Module</th><th scope="col">Quarantine</th></tr></thead>
            <tbody>{failed.map((t) => <tr><td data-label="Test">{link(t.testCaseId, `${t.suite}.${t.name}`)}</td><td data-label="Module"><code>{t.module}</code></td><td data-label="Quarantine">{t.muted ? <span class="badge muted">muted: failure masked</span> : '—'}</td></tr>)}</tbody>
          </table>
        )}
        {counts.failed > failed.length && <p>The first {failed.length} by name; {counts.failed - failed.length} more failed (all of them in Test cases, below).</p>}
      </section>

      <section aria-labelledby="flaky">
        <h2 id="flaky">Flaky tests ({page.flaky.length + page.flakyNotShown})</h2>
        {page.flaky.length === 0 ? <p>No test disagreed with itself in this run.</p> : (
          <table>
            <thead><tr><th scope="col">Test</th><th scope="col">Module</th><th scope="col">Disagreed</th><th scope="col">Found by</th></tr></thead>
            <tbody>{flakyRows(page).map((row) => (row.group ? <FlakyGroupRow g={row.group} /> : <FlakyRow f={row.finding} mode={page.gate?.mode} />))}</tbody>
          </table>
        )}
        {page.flakyNotShown > 0 && <p>{flakyNotShownLine(page.flakyNotShown)}</p>}
      </section>

      <section aria-labelledby="cases">
        <h2 id="cases">Test cases ({counts.testCases}, {counts.new} new)</h2>
        {(page.nextTestCases !== null || !first) && <p>{page.testCases.length} on this page, in the order they were stored.</p>}
        <table>
          <thead><tr><th scope="col">Test</th><th scope="col">Module</th><th scope="col">First pass</th><th scope="col">Stress gate</th><th scope="col" class="num">Duration</th><th scope="col">Badges</th></tr></thead>
          <tbody>
            {page.testCases.map((t) => (
              <tr>
                <td data-label="Test">{link(t.testCaseId, `${t.suite}.${t.name}`)}</td>
                <td data-label="Module"><code>{t.module}</code></td>
                <td data-label="First pass"><StatusBadge status={t.status} /></td>
                <td data-label="Stress gate"><StressCell c={stressed.get(t.testCaseId)} /></td>
                <td data-label="Duration" class="num">{ms(t.durationMs)}</td>
                <td data-label="Badges">{t.isNew && <span class="badge info">New</span>} {t.muted && <span class="badge muted">muted</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {(page.nextTestCases !== null || !first) && (
          <p class="pages">
            {!first && <a href={`${here}#cases`}>First page</a>} {page.nextTestCases !== null && <a href={`${here}?after=${encodeURIComponent(page.nextTestCases)}#cases`}>Next {page.testCases.length} test cases</a>}
          </p>
        )}
      </section>
    </Layout>
  );
}

/** A test case's outcome under the stress gate, in words scoped to the stress pass: "failed 2 of 10 under stress". */
function StressCell({ c }: { c: GateCandidate | undefined }) {
  if (!c) return <>—</>;
  const failed = c.repetitions.filter((r) => r.status === 'failure').length;
  if (c.outcome === 'not_stressed' || c.outcome === 'error') return <span class="badge muted">not stressed</span>;
  if (c.outcome === 'order_dependent') return <span class={`badge ${c.orderProbe?.findingsBlock && !c.muted ? 'bad' : 'warn'}`}>passed {c.repetitions.length} of {c.repetitions.length} under stress; order-dependent{c.muted && ' (muted)'}</span>;
  if (c.timingSensitive !== null && failed === 0) return <span class={`badge ${c.outcome === 'failed' && !c.muted ? 'bad' : 'warn'}`}>failed {c.timingSensitive.failures} of {c.timingSensitive.repetitions} side by side, passed alone</span>;
  if (failed === 0) return <span class="badge ok">passed {c.repetitions.length} of {c.repetitions.length} under stress</span>;
  return <span class={`badge ${c.muted ? 'muted' : 'bad'}`}>failed {failed} of {c.repetitions.length} under stress{c.muted && ' (muted)'}</span>;
}

function GateBlock({ gate, stress, link, here, first }: { gate: NonNullable<RunPage['gate']>; stress: StressParameters; link: (id: string, label: string) => unknown; here: string; first: boolean }) {
  const next = gate.nextCandidates ?? null;
  const paged = next !== null || !first;
  const slowest = stress.curve[stress.curve.length - 1]!;
  const ran = gate.outcome !== 'skipped' && gate.outcome !== 'not_entitled';
  return (
    <div>
      <dl class="facts" aria-label="Gate verdict">
        <dt>Mode</dt><dd>{gate.mode}</dd>
        <dt>Ran</dt><dd>{ran ? 'yes' : 'no'} (outcome: {gate.outcome.replaceAll('_', ' ')})</dd>
        <dt>Candidates examined</dt><dd>{gate.candidatesExamined}</dd>
        <dt>Stressed</dt><dd>{gate.stressed}</dd>
        <dt>Excluded</dt><dd>{gate.excluded}{gate.excluded > 0 && ` (too slow: over ${ms(slowest.maxDurationMs)}, beyond the repetition curve)`}</dd>
        <dt>Not stressed</dt><dd>{gate.notStressed}</dd>
        <dt>Guard</dt><dd>{gate.guard ? `${GUARD_WORDS[gate.guard.name] ?? gate.guard.name} fired, count ${gate.guard.count}: ${gate.guard.reason}` : 'none fired'}</dd>
        <dt>Blocked</dt><dd>{gate.blocked ? 'blocked the merge request' : gate.wouldHaveBlocked ? 'would have blocked (report mode)' : 'did not block'}</dd>
        <dt>Shards with a verdict</dt><dd>{gate.shards}</dd>
        <dt>Time the gate added</dt><dd>{gate.stressPassMs === null ? 'not recorded' : ms(gate.stressPassMs)}</dd>
        {gate.orderProbes && orderProbeFacts(gate.orderProbes) !== null && <><dt>Order probe</dt><dd>{orderProbeFacts(gate.orderProbes)}</dd></>}
        {gate.diff && <><dt>Merge request's diff</dt><dd>{diffFacts(gate.diff)}</dd></>}
        {(gate.renamedCount ?? 0) > 0 && <><dt>Renamed, not stressed</dt><dd>{gate.renamedCount}</dd></>}
      </dl>
      {gate.diff?.status === 'skipped' && <p class="diff-skipped">{skippedSentence(gate.diff)}</p>}
      <RenamedList gate={gate} link={link} />
      {paged && <p class="bound">{gate.candidates.length} of the {gate.candidateCount ?? gate.candidates.length} candidates on this page (at most {RUN_PAGE_CANDIDATES} a page, by name), each with its strip and its evidence.</p>}
      {gate.candidates.length > 0 && <GateCandidatesTable candidates={gate.candidates} mode={gate.mode} link={link} />}
      {paged && (
        <p class="pages">
          {!first && <a href={`${here}#gate`}>First candidates</a>} {next !== null && <a href={`${here}?afterCandidate=${encodeURIComponent(next)}#gate`}>Next candidates</a>}
        </p>
      )}
    </div>
  );
}

/** The diff analysis in words: against which base, how many test methods it added and modified, and whether a modified test blocks. */
function diffFacts(d: NonNullable<NonNullable<RunPage['gate']>['diff']>): string {
  if (d.status === 'skipped') return 'not analysed (detection of modified and renamed tests skipped)';
  const base = d.base === null ? '' : ` against ${d.base}`;
  return `analysed${base}: ${d.added} test ${d.added === 1 ? 'method' : 'methods'} added, ${d.modified} modified; a modified test that disagreed ${d.modifiedTestsBlock ? 'blocks in enforce' : "is reported only (the project's setting)"}`;
}

/** The renamed tests the gate did not stress: each "X — renamed from Y, not stressed". */
function RenamedList({ gate, link }: { gate: NonNullable<RunPage['gate']>; link: (id: string, label: string) => unknown }) {
  const renamed = gate.renamed ?? [];
  if (renamed.length === 0) return null;
  const more = (gate.renamedCount ?? renamed.length) - renamed.length;
  return (
    <section aria-labelledby="renamed">
      <h3 id="renamed">Renamed tests ({gate.renamedCount ?? renamed.length})</h3>
      <p>Each has the body of a test that ran in CI on the default branch under another name, and inherits its history.</p>
      <ul class="renamed">
        {renamed.map((r) => (
          <li data-renamed={r.name}>
            {link(r.testCaseId, `${r.suite}.${r.name}`)} — renamed from {link(r.from.testCaseId, `${r.from.suite}.${r.from.name}`)}{r.from.module !== r.module && <> (module <code>{r.from.module}</code>)</>}, not stressed
          </li>
        ))}
      </ul>
      {more > 0 && <p>{more} more renamed tests are not listed.</p>}
    </section>
  );
}

function Caught() {
  return <span class="badge warn">caught by the stress gate: new test, deliberately repeated in fresh JVMs</span>;
}

/** One test of the flaky section; a timing-sensitive one says it failed side by side and passed alone, and whether it blocked. */
function FlakyRow({ f, mode }: { f: FlakyFinding; mode: string | undefined }) {
  const timing = findingTiming(f);
  return (
    <tr>
      <td data-label="Test">{f.suite}.{f.name}</td>
      <td data-label="Module"><code>{f.module}</code></td>
      <td data-label="Disagreed">{timing ? timingSensitiveLine(timing) : `failed ${f.failed} of ${f.repetitions}`}</td>
      <td data-label="Found by">
        {f.caughtBy === 'stress_gate' ? <Caught /> : <span class="badge info">organic: the build repeated it in this run</span>}
        {timing && <> <span class={`badge ${timing.blocking ? 'bad' : 'info'}`}>{timingSensitiveVerdict(timing, mode)}</span></>}
      </td>
    </tr>
  );
}

/** The new invocations of one method the gate caught: one row of the flaky section. */
function FlakyGroupRow({ g }: { g: InvocationGroup }) {
  return (
    <tr data-group={g.method}>
      <td data-label="Test">{g.suite}.{g.method}</td>
      <td data-label="Module"><code>{g.module}</code></td>
      <td data-label="Disagreed">{groupLine(g, (index) => index)}</td>
      <td data-label="Found by"><Caught /></td>
    </tr>
  );
}
