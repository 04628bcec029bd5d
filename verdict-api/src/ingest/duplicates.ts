// Two entries with one identity in one request would be merged silently by the database:
// refuse them instead, naming both positions.
import { BadRequestError } from '../errors/errors.js';
import type { Identity } from '../identity/test-case-id.js';

export function rejectDuplicates(items: readonly Identity[], field: string): void {
  const seen = new Map<string, number>();
  items.forEach((t, i) => {
    // Length-prefixed: a NUL inside a part (valid in JSON) cannot make two identities one key.
    const key = `${t.module.length}:${t.module}${t.suite.length}:${t.suite}${t.name}`;
    const first = seen.get(key);
    if (first !== undefined) {
      throw new BadRequestError(`${field}[${i}]: duplicate identity of ${field}[${first}] (${t.module} ${t.suite} ${t.name}); give each parameterised invocation its own name`, `${field}[${i}]`);
    }
    seen.set(key, i);
  });
}
