// What of a gate candidate's stored evidence a run page, the run's JSON and the run report show:
// a gate upload may carry 20 failures of 28,000 characters each for each of its candidates (16 MiB
// in all), and the page must not grow with it. Each bound says when it bites: `cut` on a failure's
// text, `failuresNotShown` and `failureGroupsNotShown` on a candidate. The counts (the strip, a
// signature's count, the verdict) are never bounded. Pure.

/** Failures shown a candidate: the first of each signature first (the CLI's order), then by repetition. */
export const FAILURES_SHOWN = 3;
/** Signatures shown a candidate (the contract allows 10 a shard). */
export const GROUPS_SHOWN = 10;
/** Repetition numbers a signature lists on the page; the rest are counted. */
export const GROUP_REPETITIONS_LISTED = 10;
/** Characters of a failure's text shown: the start of a message, a trace and a crash log's path, the end of an output tail. */
export const TEXT_SHOWN = { message: 2_000, stackTrace: 4_000, outputTail: 1_000, hsErrFile: 1_000 } as const;
/** Lines of a stack trace shown. */
export const TRACE_LINES_SHOWN = 60;

/** A text field cut by the page's bound: characters shown, of how many stored. */
export interface TextCut {
  shown: number;
  of: number;
}

/** The fields of one failure the bound cut (absent: shown whole). */
export type TextCuts = Partial<Record<'message' | 'stackTrace' | 'stdoutTail' | 'stderrTail' | 'hsErrFile', TextCut>>;

/** A trace cut to TRACE_LINES_SHOWN lines, and its cut when `stored` characters were stored (`text` may already be cut in SQL). */
export function traceShown(text: string, stored: number): { text: string; cut: TextCut | null } {
  const lines = text.split('\n');
  const kept = lines.length > TRACE_LINES_SHOWN ? lines.slice(0, TRACE_LINES_SHOWN).join('\n') : text;
  const shown = [...kept].length;
  return { text: kept, cut: shown < stored ? { shown, of: stored } : null };
}

/** The repetitions of a candidate's failures to show first: the first of each signature shown, in the signatures' order. */
export function firstOfEachSignature(groups: readonly { repetitions: readonly number[] }[]): number[] {
  const firsts: number[] = [];
  for (const g of groups) {
    const first = g.repetitions[0];
    if (first !== undefined && !firsts.includes(first)) firsts.push(first);
    if (firsts.length === FAILURES_SHOWN) break;
  }
  return firsts;
}

/** "4,000 of 16,384 characters". */
export function cutWords(cut: TextCut): string {
  return `${cut.shown.toLocaleString('en-US')} of ${cut.of.toLocaleString('en-US')} characters`;
}

/** Order findings shown a candidate: every one a shard uploads (the contract's ORDER_BOUNDS), the rest of a second shard counted. */
export const ORDER_FINDINGS_SHOWN = 5;
