// A failure's stored evidence as the run page, its JSON and the run report show it, read from
// gate_failures (0032) or gate_order_findings (0041), which share these columns: its text cut in
// ClickHouse to the page's bounds (evidence-bounds.ts), and each cut said.
import type { RepetitionFailure } from '../contract.js';
import { sql } from '../sql/bind.js';
import { num } from '../storage/database.js';
import { TEXT_SHOWN, type TextCuts, traceShown } from './evidence-bounds.js';

/** A failure as shown: its text cut to the page's bounds (`cut` names each field cut; absent when none was). */
export type ShownFailure = RepetitionFailure & { cut?: TextCuts };

type Row = Record<string, unknown>;
const nonEmpty = (value: unknown): string | null => (value === '' ? null : String(value));
const T = TEXT_SHOWN;

/**
 * The columns of a failure as shown, of gate_failures (0032) or gate_order_findings (0041): its
 * text cut here, never read whole (a tail's end through reverseUTF8: older servers' substringUTF8
 * takes a constant offset only). Read back by `shownFailure`.
 */
export const FAILURE_COLUMNS = sql`repetition, toString(kind) AS kind, type, has_message, substringUTF8(message, 1, ${T.message}) AS message_shown, lengthUTF8(message) AS message_chars,
      has_stack_trace, substringUTF8(stack_trace, 1, ${T.stackTrace}) AS trace_shown, lengthUTF8(stack_trace) AS trace_chars, frames_omitted,
      has_stdout_tail, reverseUTF8(substringUTF8(reverseUTF8(stdout_tail), 1, ${T.outputTail})) AS stdout_shown, lengthUTF8(stdout_tail) AS stdout_chars,
      has_stderr_tail, reverseUTF8(substringUTF8(reverseUTF8(stderr_tail), 1, ${T.outputTail})) AS stderr_shown, lengthUTF8(stderr_tail) AS stderr_chars,
      duration_ms, has_exit_code, exit_code, signal, substringUTF8(hs_err_file, 1, ${T.hsErrFile}) AS hs_err_shown, lengthUTF8(hs_err_file) AS hs_err_chars, truncated`;

/** A failure row (FAILURE_COLUMNS) as shown, with what its text cut left out. */
export function shownFailure(f: Row): ShownFailure {
  const cut: TextCuts = {};
  const field = (present: unknown, shown: unknown, stored: unknown, name: keyof TextCuts): string | null => {
    if (num(present) !== 1) return null;
    const text = String(shown);
    if (num(stored) > [...text].length) cut[name] = { shown: [...text].length, of: num(stored) };
    return text;
  };
  let stackTrace = field(f['has_stack_trace'], f['trace_shown'], f['trace_chars'], 'stackTrace');
  if (stackTrace !== null) {
    const trace = traceShown(stackTrace, num(f['trace_chars']));
    stackTrace = trace.text;
    if (trace.cut) cut.stackTrace = trace.cut;
  }
  const hsErr = nonEmpty(f['hs_err_shown']);
  if (hsErr !== null && num(f['hs_err_chars']) > [...hsErr].length) cut.hsErrFile = { shown: [...hsErr].length, of: num(f['hs_err_chars']) };
  const failure: ShownFailure = {
    repetition: num(f['repetition']),
    kind: f['kind'] === 'crash' ? 'crash' : 'failure',
    type: nonEmpty(f['type']),
    message: field(f['has_message'], f['message_shown'], f['message_chars'], 'message'),
    stackTrace,
    framesOmitted: num(f['frames_omitted']),
    stdoutTail: field(f['has_stdout_tail'], f['stdout_shown'], f['stdout_chars'], 'stdoutTail'),
    stderrTail: field(f['has_stderr_tail'], f['stderr_shown'], f['stderr_chars'], 'stderrTail'),
    durationMs: num(f['duration_ms']),
    exitCode: num(f['has_exit_code']) === 1 ? num(f['exit_code']) : null,
    signal: nonEmpty(f['signal']),
    hsErrFile: hsErr,
    truncated: num(f['truncated']) === 1,
  };
  return Object.keys(cut).length > 0 ? { ...failure, cut } : failure;
}
