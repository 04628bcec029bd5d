import { describe, expect, it } from '@jest/globals';
import { loadConfig } from './config.js';

describe('loadConfig', () => {
  it('defaults to embedded chDB on 127.0.0.1:8787', () => {
    const c = loadConfig({});
    expect([c.VERDICT_API_HOST, c.VERDICT_API_PORT, c.CLICKHOUSE_URL, c.CLICKHOUSE_DATABASE]).toEqual(['127.0.0.1', 8787, undefined, 'stress_gate']);
  });

  it('reads the verdict concurrency, unset by default (the engine decides)', () => {
    expect(loadConfig({}).STRESS_GATE_VERDICT_CONCURRENCY).toBeUndefined();
    expect(loadConfig({ STRESS_GATE_VERDICT_CONCURRENCY: '36' }).STRESS_GATE_VERDICT_CONCURRENCY).toBe(36);
  });

  it.each([
    [{ VERDICT_API_PORT: 'eighty' }, 'VERDICT_API_PORT: must be an integer'],
    [{ CLICKHOUSE_URL: 'not a url' }, 'CLICKHOUSE_URL: must be a URL'],
    [{ CLICKHOUSE_DATABASE: 'x; DROP' }, 'CLICKHOUSE_DATABASE: must be a plain identifier'],
    [{ STRESS_GATE_OPERATOR_TOKEN: 'short' }, 'STRESS_GATE_OPERATOR_TOKEN: must be at least 32 characters'],
    [{ STRESS_GATE_VERDICT_CONCURRENCY: '0' }, 'STRESS_GATE_VERDICT_CONCURRENCY: must be >= 1'],
    [{ STRESS_GATE_VERDICT_CONCURRENCY: 'many' }, 'STRESS_GATE_VERDICT_CONCURRENCY: must be an integer'],
  ])('names the bad key in %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
