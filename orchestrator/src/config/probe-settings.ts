// The order probe's settings from the environment: on or off, its seed, its budget. A bad value is
// a usage error naming the key.
import { randomInt } from 'node:crypto';
import { booleanEnv } from './boolean-env.js';
import { UsageError } from '../base/errors.js';

/** The share of the ceiling the probe may take by default. */
export const DEFAULT_BUDGET_SHARE = 0.25;
/** The least default budget (s): a short ceiling still leaves the probe room for a few JVMs. */
export const MIN_DEFAULT_BUDGET_SECONDS = 30;

export interface ProbeSettings {
  enabled: boolean;
  /** The seed that draws the sample: STRESS_GATE_ORDER_SEED to replay one, else random. */
  seed: number;
  seedGiven: boolean;
  /** The probe's own budget (s), inside the ceiling. */
  budgetSeconds: number;
}

/** Reads STRESS_GATE_ORDER_PROBE (default on), STRESS_GATE_ORDER_SEED and STRESS_GATE_ORDER_PROBE_SECONDS. */
export function probeSettings(env: NodeJS.ProcessEnv, ceilingSeconds: number | null, random: () => number = () => randomInt(2 ** 32)): ProbeSettings {
  const enabled = booleanEnv(env, 'STRESS_GATE_ORDER_PROBE', true);
  const rawSeed = env['STRESS_GATE_ORDER_SEED']?.trim();
  if (rawSeed && (!/^[0-9]{1,10}$/.test(rawSeed) || Number(rawSeed) >= 2 ** 32)) {
    throw new UsageError(`STRESS_GATE_ORDER_SEED: expected a whole number from 0 to 4294967295 (the seed a report printed); got ${JSON.stringify(env['STRESS_GATE_ORDER_SEED'])}`);
  }
  const rawBudget = env['STRESS_GATE_ORDER_PROBE_SECONDS']?.trim();
  if (rawBudget && !/^[1-9][0-9]{0,5}$/.test(rawBudget)) {
    throw new UsageError(`STRESS_GATE_ORDER_PROBE_SECONDS: expected a whole number of seconds from 1 to 999999; got ${JSON.stringify(env['STRESS_GATE_ORDER_PROBE_SECONDS'])}`);
  }
  const share = ceilingSeconds === null ? Number.MAX_SAFE_INTEGER : Math.max(MIN_DEFAULT_BUDGET_SECONDS, Math.round(ceilingSeconds * DEFAULT_BUDGET_SHARE));
  return {
    enabled,
    seed: rawSeed ? Number(rawSeed) : random(),
    seedGiven: Boolean(rawSeed),
    budgetSeconds: rawBudget ? Number(rawBudget) : share,
  };
}
