// How strong a clean stress result is: after r passing repetitions, the per-execution failure
// rate that is ruled out at 95% confidence (1 - 0.05^(1/r): 26% for 10, 45% for 5). Pure. It
// bounds what the gate could have missed; it never says a test is not flaky.
import { ruledOutFailureRate } from '#contract';
import type { CandidateResult } from '../enforce/outcome.js';
import { plural } from '../format/format.js';

export { ruledOutFailureRate };

/** The confidence every detection figure is stated at. */
export const DETECTION_CONFIDENCE = 0.95;

/** The weakest clean result of a run: the fewest clean repetitions any passing candidate got. */
export interface DetectionPower {
  /** Clean repetitions of the passing candidate with the fewest. */
  repetitions: number;
  confidence: number;
  /** A per-execution failure rate above this is ruled out at `confidence` (0..1). */
  ruledOutFailureRate: number;
  /** Passing candidates, and whether they all got the same number of repetitions. */
  passed: number;
  uniform: boolean;
}

/** The run's detection power, or null when no candidate passed its repetitions. */
export function detectionPower(candidates: readonly CandidateResult[]): DetectionPower | null {
  const clean = candidates.filter((c) => c.outcome === 'passed' && c.recorded.length > 0).map((c) => c.recorded.length);
  if (clean.length === 0) return null;
  const r = Math.min(...clean);
  return { repetitions: r, confidence: DETECTION_CONFIDENCE, ruledOutFailureRate: ruledOutFailureRate(r), passed: clean.length, uniform: clean.every((n) => n === r) };
}

/** The sentence the report prints once: a bound on what could pass, never a promise. */
export function detectionSentence(d: DetectionPower): string {
  const pct = Math.round(d.ruledOutFailureRate * 100);
  const who = d.uniform ? '' : ' (the fewest any passing new test got)';
  return `${plural(d.repetitions, 'clean repetition')}${who} ${d.repetitions === 1 ? 'rules' : 'rule'} out a failure rate above ${pct}% per run (${Math.round(d.confidence * 100)}% confidence); rarer flakes can pass.`;
}
