// Which gate candidates of a run are invocations of one parameterised method, read from their
// names: the method (the name up to its first `[`, as the CLI groups them) of every candidate that
// shares it with another of the same module and suite. Pure.
import { invocationMethod } from '../contract.js';

/** Per candidate, in order: its method when two or more candidates are invocations of it, else null. */
export function invocationMethods(candidates: readonly { module: string; suite: string; name: string }[]): (string | null)[] {
  const methods = candidates.map((c) => invocationMethod(c.name));
  const key = (i: number) => JSON.stringify([candidates[i]!.module, candidates[i]!.suite, methods[i]]);
  const counts = new Map<string, number>();
  methods.forEach((m, i) => {
    if (m !== null) counts.set(key(i), (counts.get(key(i)) ?? 0) + 1);
  });
  return methods.map((m, i) => (m !== null && counts.get(key(i))! >= 2 ? m : null));
}
