// Text from tests and servers (names, messages, problems) on its way to a terminal or a CI log:
// no test can move the cursor, recolour the log or turn a line around.
import { visible } from '#markdown';

/** Control and bidirectional characters (ESC, CR, tab, newline, C1, U+202E…) as visible escapes; one line. */
export function terminalSafe(s: string): string {
  return visible(s.replace(/[\n\t\r]/g, (c) => (c === '\n' ? '\\n' : c === '\t' ? '\\t' : '\\r')));
}
