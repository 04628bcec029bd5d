// Two entries with one identity in one request would be merged silently by the database:
// refuse them instead, naming both positions.
import { BadRequestError } from '../errors/errors.js';
import type { Identity } from '../identity/test-case-id.js';

/** `field` names the list (`testCases`, giving `testCases[3]`), or each position (`(i) => …`). */
export function rejectDuplicates(items: readonly Identity[], field: string | ((i: number) => string)): void {
  const at = typeof field === 'string' ? (i: number) => `${field}[${i}]` : field;
  const seen = new Map<string, number>();
  items.forEach((t, i) => {
    // Length-prefixed: a NUL inside a part (valid in JSON) cannot make two identities one key.
    const key = `${t.module.length}:${t.module}${t.suite.length}:${t.suite}${t.name}`;
    const first = seen.get(key);
    if (first !== undefined) {
      throw new BadRequestError(`${at(i)}: duplicate identity of ${at(first)} (${t.module} ${t.suite} ${t.name}); give each parameterised invocation its own name`, at(i));
    }
    seen.set(key, i);
  });
}
