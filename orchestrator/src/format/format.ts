// Small text helpers shared by the report and the guard sentences. Durations are worded by the
// contract's formatDuration, the same function the server uses.
import { formatDuration } from '#contract';

export { formatDuration };

/**
 * A limit in words: 300000 → "5 minutes", 30000 → "30 seconds", 90000 → "1m 30s"; as an
 * adjective ("the 10-minute ceiling"): "10-minute".
 */
export function formatLimit(ms: number, adjective = false): string {
  const unit = ms % 60_000 === 0 ? { n: ms / 60_000, word: 'minute' } : ms % 1000 === 0 && ms < 60_000 ? { n: ms / 1000, word: 'second' } : null;
  if (unit === null) return formatDuration(ms);
  if (adjective) return `${unit.n}-${unit.word}`;
  return `${unit.n} ${unit.word}${unit.n === 1 ? '' : 's'}`;
}

/** "1 new test case" / "3 new test cases". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Wraps `text` at `width` columns: the first line starts with `first`, the rest with `rest`. */
export function wrap(text: string, first: string, rest: string, width = 80): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of text.split(' ')) {
    if (!empty && line.length + 1 + word.length > width) {
      lines.push(line);
      line = rest + word;
    } else {
      line += (empty ? '' : ' ') + word;
    }
    empty = false;
  }
  lines.push(line);
  return lines;
}
