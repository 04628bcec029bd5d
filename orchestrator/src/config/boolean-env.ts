// A boolean environment key, read the same way everywhere: a bad value is a usage error naming it.
import { UsageError } from '../base/errors.js';

const BOOLEANS: Record<string, boolean> = { '1': true, true: true, yes: true, '0': false, false: false, no: false };

/** Parses a boolean key: 1/true/yes or 0/false/no (any case); unset or empty is `fallback`. */
export function booleanEnv(env: NodeJS.ProcessEnv, key: string, fallback = false): boolean {
  const raw = env[key]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  const value = BOOLEANS[raw];
  if (value === undefined) throw new UsageError(`${key}: expected 1, true, yes, 0, false or no; got ${JSON.stringify(env[key])}`);
  return value;
}
