// Status badges: every status in words as well as colour. The gate's words are the run page
// headline's and the CLI's report's ("Blocked", "Would have blocked").
import type { GateBadge } from '../run-page/list-runs.js';

const GATE: Record<GateBadge, [string, string]> = {
  passed: ['passed', 'ok'],
  failed: ['blocked', 'bad'],
  would_have_blocked: ['would have blocked', 'warn'],
  flaky_in_build: ['flaky in the build', 'bad'],
  broken_in_build: ['broken in the build', 'bad'],
  guard: ['guard fired', 'info'],
  skipped: ['skipped', 'muted'],
  incomplete: ['incomplete', 'warn'],
  gate_error: ['gate error', 'warn'],
  cancelled: ['cancelled', 'muted'],
  no_candidates: ['nothing new', 'muted'],
  not_entitled: ['not entitled', 'muted'],
  none: ['no gate', 'muted'],
};

/** The gate's outcome on a run, as a badge. */
export function GateBadgeView({ badge }: { badge: GateBadge }) {
  const [words, tone] = GATE[badge];
  return <span class={`badge ${tone}`}>{words}</span>;
}

/** A test or run status (success, failure, skipped, muted, ...) as a badge. */
export function StatusBadge({ status }: { status: string }) {
  const tone = status === 'success' || status === 'passed' || status === 'enabled' ? 'ok' : status === 'failure' || status === 'failed' ? 'bad' : status === 'muted' || status === 'skipped' ? 'muted' : 'info';
  const words = status === 'success' ? 'passed' : status === 'failure' ? 'failed' : status.replaceAll('_', ' ');
  return <span class={`badge ${tone}`}>{words}</span>;
}

/** Words for a duration in ms. */
export function ms(value: number): string {
  if (value < 1000) return `${Math.round(value)} ms`;
  if (value < 60_000) return `${(value / 1000).toFixed(1)} s`;
  return `${Math.floor(value / 60_000)} min ${Math.round((value % 60_000) / 1000)} s`;
}
