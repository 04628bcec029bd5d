// The diff analysis's settings from the environment (diff/): on or off, and whether it may fetch
// history. A bad value is a usage error naming the key.
import { booleanEnv } from './boolean-env.js';

/** Reads STRESS_GATE_DIFF (default on) and STRESS_GATE_FETCH_MERGE_BASE (default on). */
export function diffSettings(env: NodeJS.ProcessEnv): { enabled: boolean; allowFetch: boolean } {
  return { enabled: booleanEnv(env, 'STRESS_GATE_DIFF', true), allowFetch: booleanEnv(env, 'STRESS_GATE_FETCH_MERGE_BASE', true) };
}
