// A test case's outcomes over its recent runs, drawn on the server as SVG: a row per branch (the
// default branch first, then the others by their latest run, at most MAX_BRANCH_ROWS of them, the
// rest sharing a last row), oldest run on the left; per run the first pass's result (a shape
// as well as a colour) and, under it, a bar of its stress repetitions. Each point links to its run.
// No script: the title of each point says it in words, and the page's table has the same runs.
import type { HistoryPoint, OutcomeHistory } from '../test-case/outcome-history.js';

const W = 760;
const LABEL = 132;
const TOP = 6;
const LANE = 46;
const MAX_SLOT = 24;
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** Rows of branches other than the default one; runs of any further branch share one more row. */
export const MAX_BRANCH_ROWS = 4;

interface Lane {
  label: string;
  full: string;
  /** The row of a point. */
  has: (p: HistoryPoint) => boolean;
}

/** The chart's rows: the default branch, then the other branches by their latest run (points are newest first). */
export function historyLanes(h: OutcomeHistory): Lane[] {
  const others = [...new Set(h.points.filter((p) => !p.onDefaultBranch).map((p) => p.branch))];
  const named = others.slice(0, MAX_BRANCH_ROWS);
  const rest = others.length - named.length;
  return [
    { label: h.defaultBranch === null ? 'default branch: none' : `${clip(h.defaultBranch, 14)} (default)`, full: h.defaultBranch === null ? 'no default branch set' : `${h.defaultBranch} (the default branch)`, has: (p) => p.onDefaultBranch },
    ...named.map((b): Lane => ({ label: clip(b, 18), full: b, has: (p) => !p.onDefaultBranch && p.branch === b })),
    ...(rest > 0 ? [{ label: `${rest} other branches`, full: `${rest} other branches: ${others.slice(MAX_BRANCH_ROWS).join(', ')}`, has: (p: HistoryPoint) => !p.onDefaultBranch && !named.includes(p.branch) }] : []),
  ];
}

const FIRST_PASS_WORDS: Record<HistoryPoint['firstPass'], string> = { success: 'passed', failure: 'failed', skipped: 'skipped' };

/** What a run's repetitions said, in words ("stress: 2 of 10 repetitions failed"). */
export function repetitionWords(kind: 'stress' | 'retries', count: HistoryPoint['stress']): string | null {
  if (count === null) return null;
  const what = kind === 'stress' ? 'stress repetitions' : 'retries';
  return count.failed === 0 ? `${kind}: all ${count.repetitions} ${what} passed` : `${kind}: ${count.failed} of ${count.repetitions} ${what} failed`;
}

/** One point in words: its run, branch, time, first pass and repetitions. */
export function pointWords(p: HistoryPoint): string {
  const parts = [`first pass ${FIRST_PASS_WORDS[p.firstPass]}${p.muted ? ' (muted)' : ''}`, repetitionWords('stress', p.stress), repetitionWords('retries', p.organic)];
  return `Run ${p.runId} on ${p.branch}, ${p.ranAt} UTC: ${parts.filter((x) => x !== null).join('; ')}`;
}

/** The chart's summary in words, for its description. */
export function historySummary(h: OutcomeHistory): string {
  const count = (f: (p: HistoryPoint) => boolean) => h.points.filter(f).length;
  const stressed = h.points.filter((p) => p.stress !== null);
  const reps = stressed.reduce((n, p) => n + p.stress!.repetitions, 0);
  const failed = stressed.reduce((n, p) => n + p.stress!.failed, 0);
  const onDefault = count((p) => p.onDefaultBranch);
  return [
    `The last ${h.points.length} runs of this test, oldest first: ${onDefault} on the default branch${h.defaultBranch === null ? ' (none set)' : ` (${h.defaultBranch})`}, ${h.points.length - onDefault} on other branches.`,
    `First pass: ${count((p) => p.firstPass === 'success')} passed, ${count((p) => p.firstPass === 'failure')} failed, ${count((p) => p.firstPass === 'skipped')} skipped.`,
    stressed.length === 0 ? 'Never stressed in these runs.' : `Stressed in ${stressed.length} run${stressed.length === 1 ? '' : 's'}: ${failed} of ${reps} repetitions failed.`,
  ].join(' ');
}


/** The SVG chart of a history (oldest run on the left); nothing when it has no runs. */
export function TestHistoryChart({ history, base }: { history: OutcomeHistory; base: string }) {
  if (history.points.length === 0) return null;
  const points = [...history.points].reverse();
  const slot = Math.min(MAX_SLOT, (W - LABEL - 8) / points.length);
  const lanes = historyLanes(history);
  const H = TOP + lanes.length * LANE + 22;
  const laneOf = (p: HistoryPoint) => Math.max(0, lanes.findIndex((l) => l.has(p)));
  return (
    <svg class="history-chart" viewBox={`0 0 ${W} ${H}`} width="100%" aria-labelledby="history-title history-desc">
      <title id="history-title">Outcomes of this test over its last {history.points.length} runs</title>
      <desc id="history-desc">{historySummary(history)} Each point links to its run; the table below lists the same runs.</desc>
      {lanes.map((lane, i) => (
        <g>
          <line x1={LABEL} y1={TOP + i * LANE + LANE - 2} x2={W - 4} y2={TOP + i * LANE + LANE - 2} stroke="#e3e6ea" />
          <text x={LABEL - 8} y={TOP + i * LANE + 17} text-anchor="end"><title>{lane.full}</title>{lane.label}</text>
          <text x={LABEL - 8} y={TOP + i * LANE + 36} text-anchor="end" fill="#4a5360">stress</text>
        </g>
      ))}
      {points.map((p, i) => <Point p={p} lane={laneOf(p)} x={LABEL + i * slot + slot / 2} slot={slot} base={base} />)}
      <text x={LABEL} y={H - 4}>{points[0]!.ranAt.slice(0, 10)}</text>
      <text x={W - 4} y={H - 4} text-anchor="end">{points[points.length - 1]!.ranAt.slice(0, 10)}</text>
    </svg>
  );
}

function Point({ p, lane, x, slot, base }: { p: HistoryPoint; lane: number; x: number; slot: number; base: string }) {
  const top = TOP + lane * LANE;
  const y = top + 13;
  const words = pointWords(p);
  return (
    <a href={`${base}/runs/${encodeURIComponent(p.runId)}`} aria-label={words}>
      <title>{words}</title>
      <rect x={x - slot / 2} y={top} width={slot} height={LANE - 4} fill="#ffffff" fill-opacity="0" />
      {p.firstPass === 'success' && <circle cx={x} cy={y} r="5" fill="#2e8540" />}
      {p.firstPass === 'failure' && <path d={`M${x - 5} ${y - 5}L${x + 5} ${y + 5}M${x + 5} ${y - 5}L${x - 5} ${y + 5}`} stroke="#c0392b" stroke-width="2.5" />}
      {p.firstPass === 'skipped' && <circle cx={x} cy={y} r="4.5" fill="#ffffff" stroke="#6b7480" stroke-width="1.5" />}
      {p.stress && <StressBar x={x} y={top + 22} width={Math.max(3, Math.min(8, slot - 2))} count={p.stress} />}
    </a>
  );
}

/** The stress repetitions as a bar 16 high: green for those that passed, red (on top) for those that failed. */
function StressBar({ x, y, width, count }: { x: number; y: number; width: number; count: NonNullable<HistoryPoint['stress']> }) {
  const failed = count.repetitions === 0 ? 0 : (16 * count.failed) / count.repetitions;
  return (
    <g>
      <rect x={x - width / 2} y={y} width={width} height="16" fill="#2e8540" />
      {failed > 0 && <rect x={x - width / 2} y={y} width={width} height={Math.max(2, failed)} fill="#c0392b" />}
    </g>
  );
}
