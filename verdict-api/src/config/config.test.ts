import { describe, expect, it } from '@jest/globals';
import { defaultDataDir, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('defaults to embedded chDB on 127.0.0.1:8787', () => {
    const c = loadConfig({});
    expect([c.VERDICT_API_HOST, c.VERDICT_API_PORT, c.CLICKHOUSE_URL, c.CLICKHOUSE_DATABASE]).toEqual(['127.0.0.1', 8787, undefined, 'stress_gate']);
  });

  it('keeps embedded data in a per-user data directory, never inside the installed package', () => {
    expect(loadConfig({ XDG_DATA_HOME: '/var/xdg' }).STRESS_GATE_DATA_DIR).toBe('/var/xdg/stress-gate/chdb');
    expect(defaultDataDir({}, '/home/ci')).toBe('/home/ci/.local/share/stress-gate/chdb');
    expect(defaultDataDir({ XDG_DATA_HOME: 'relative/ignored' }, '/home/ci')).toBe('/home/ci/.local/share/stress-gate/chdb');
    expect(loadConfig({}).STRESS_GATE_DATA_DIR).not.toContain('node_modules');
    expect(loadConfig({ XDG_DATA_HOME: '/var/xdg', STRESS_GATE_DATA_DIR: '/srv/chdb' }).STRESS_GATE_DATA_DIR).toBe('/srv/chdb');
  });

  it('reads cluster mode: several nodes, the cluster, its ZooKeeper and the instances sharing the traffic', () => {
    const c = loadConfig({ CLICKHOUSE_URL: 'http://ch1:8123, http://u:p@ch2:8123', CLICKHOUSE_CLUSTER: 'stress_gate', STRESS_GATE_ZOOKEEPER: 'zk1:2181,zk2:2181', STRESS_GATE_API_INSTANCES: '3' });
    expect([c.CLICKHOUSE_CLUSTER, c.STRESS_GATE_ZOOKEEPER, c.STRESS_GATE_API_INSTANCES]).toEqual(['stress_gate', 'zk1:2181,zk2:2181', 3]);
    expect(loadConfig({}).STRESS_GATE_API_INSTANCES).toBe(1);
  });

  it('reads the verdict concurrency, unset by default (the engine decides)', () => {
    expect(loadConfig({}).STRESS_GATE_VERDICT_CONCURRENCY).toBeUndefined();
    expect(loadConfig({ STRESS_GATE_VERDICT_CONCURRENCY: '36' }).STRESS_GATE_VERDICT_CONCURRENCY).toBe(36);
  });

  it('reads the storage quota settings, unset by default (limits/storage-quota.ts decides), 0 allowed', () => {
    expect(loadConfig({}).STRESS_GATE_ACCOUNT_ROWS_PER_DAY).toBeUndefined();
    const c = loadConfig({ STRESS_GATE_ACCOUNT_ROWS_PER_DAY: '0', STRESS_GATE_ACCOUNT_MIB_PER_DAY: '0.5', STRESS_GATE_ACCOUNT_ROWS_RETAINED: '1000', STRESS_GATE_ACCOUNT_MIB_RETAINED: '2048' });
    expect([c.STRESS_GATE_ACCOUNT_ROWS_PER_DAY, c.STRESS_GATE_ACCOUNT_MIB_PER_DAY, c.STRESS_GATE_ACCOUNT_ROWS_RETAINED, c.STRESS_GATE_ACCOUNT_MIB_RETAINED]).toEqual([0, 0.5, 1000, 2048]);
  });

  it.each([
    [{ STRESS_GATE_ACCOUNT_ROWS_PER_DAY: '-1' }, 'STRESS_GATE_ACCOUNT_ROWS_PER_DAY: must be >= 0'],
    [{ STRESS_GATE_ACCOUNT_MIB_RETAINED: 'lots' }, 'STRESS_GATE_ACCOUNT_MIB_RETAINED: must be a number'],
    [{ VERDICT_API_PORT: 'eighty' }, 'VERDICT_API_PORT: must be an integer'],
    [{ CLICKHOUSE_URL: 'not a url' }, 'CLICKHOUSE_URL: must be a URL'],
    [{ CLICKHOUSE_DATABASE: 'x; DROP' }, 'CLICKHOUSE_DATABASE: must be a plain identifier'],
    [{ STRESS_GATE_OPERATOR_TOKEN: 'short' }, 'STRESS_GATE_OPERATOR_TOKEN: must be at least 32 characters'],
    [{ STRESS_GATE_VERDICT_CONCURRENCY: '0' }, 'STRESS_GATE_VERDICT_CONCURRENCY: must be >= 1'],
    [{ STRESS_GATE_VERDICT_CONCURRENCY: 'many' }, 'STRESS_GATE_VERDICT_CONCURRENCY: must be an integer'],
    [{ CLICKHOUSE_URL: 'http://a:8123,ftp://b' }, 'CLICKHOUSE_URL: must be a URL such as http://127.0.0.1:8123, or several separated by commas'],
    [{ CLICKHOUSE_CLUSTER: 'c1', STRESS_GATE_ZOOKEEPER: 'zk:2181' }, 'CLICKHOUSE_CLUSTER: needs CLICKHOUSE_URL'],
    [{ CLICKHOUSE_CLUSTER: 'c1', CLICKHOUSE_URL: 'http://a:8123' }, 'CLICKHOUSE_CLUSTER: needs STRESS_GATE_ZOOKEEPER'],
    [{ CLICKHOUSE_CLUSTER: 'c-1' }, 'CLICKHOUSE_CLUSTER: must be a plain identifier'],
    [{ STRESS_GATE_ZOOKEEPER: 'zk1' }, 'STRESS_GATE_ZOOKEEPER: must be host:port, or several separated by commas'],
    [{ STRESS_GATE_API_INSTANCES: '0' }, 'STRESS_GATE_API_INSTANCES: must be >= 1'],
  ])('names the bad key in %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
