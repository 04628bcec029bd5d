// Telemetry answers as aligned text tables for a terminal: a heading with the question and the
// parameter it tunes, then the rows. Pure.
import type { TelemetryAnswer } from './queries.js';

/** One value as a cell: numbers (which 18.16 sends as strings for 64-bit ints) unchanged, arrays joined. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (Array.isArray(value)) return value.map(cell).join(', ');
  return String(value);
}

const numeric = (s: string) => /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(s) || s === '-';

/** An aligned table: numbers right-aligned, text left-aligned. */
export function formatTable(rows: readonly Record<string, unknown>[]): string {
  if (rows.length === 0) return '  (no rows)';
  const columns = Object.keys(rows[0]!);
  const cells = rows.map((r) => columns.map((c) => cell(r[c])));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i]!.length)));
  const right = columns.map((_, i) => cells.every((row) => numeric(row[i]!)));
  const line = (values: string[]) => `  ${values.map((v, i) => (right[i] ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join('  ')}`.trimEnd();
  return [line(columns), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

/** Every answer: heading, what it tunes, then its table or its error. */
export function formatAnswers(answers: readonly TelemetryAnswer[]): string {
  return answers
    .map((a) => [`${a.query.name}: ${a.query.question}`, `  tunes: ${a.query.tunes}`, '', a.error === null ? formatTable(a.rows) : `  error: ${a.error}`].join('\n'))
    .join('\n\n')
    .concat('\n');
}
