// The cluster's coordinator through Debian's ZooKeeper (3.8), behind a loopback proxy that can
// make the connections it carries go silent: no close, no reset, nothing answered (a half-open
// connection, or a client stuck in a state it does not leave). ZooKeeper's client library has no
// read timeout, so such a connection would hold every later claim for ever: the coordinator must
// drop that client after one unanswered operation and answer again from a new connection.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { rmSync } from 'node:fs';
import { StorageUnavailableError } from '../../src/errors/errors.js';
import { openZooKeeperCoordinator, type Coordinator } from '../../src/storage/coordinator.js';
import { clusterUnavailableReason, startZooKeeper } from '../support/clickhouse-cluster.mjs';

const unavailable = clusterUnavailableReason();
if (unavailable) console.warn(`SKIPPING the coordinator tests: ${unavailable}`);
const describeZooKeeper = unavailable ? describe.skip : describe;

/** A proxy to `port`; `silence()` makes every connection it carries now drop all bytes both ways, new ones are carried as usual. */
async function silencingProxy(port: number): Promise<{ port: number; connections: () => number; silence: () => number; close: () => Promise<void> }> {
  const pairs: { client: Socket; upstream: Socket; silent: boolean }[] = [];
  const server: Server = createServer((client) => {
    const upstream = connect({ host: '127.0.0.1', port });
    const pair = { client, upstream, silent: false };
    pairs.push(pair);
    client.on('data', (d) => pair.silent || upstream.write(d));
    upstream.on('data', (d) => pair.silent || client.write(d));
    const end = () => {
      // A silent connection stays open, as a half-open one does: only the coordinator may drop it.
      if (pair.silent) return;
      client.destroy();
      upstream.destroy();
    };
    client.on('close', () => upstream.destroy());
    upstream.on('close', end);
    client.on('error', () => undefined);
    upstream.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    connections: () => pairs.filter((p) => !p.client.destroyed).length,
    silence: () => {
      const live = pairs.filter((p) => !p.client.destroyed && !p.silent);
      for (const p of live) p.silent = true;
      return live.length;
    },
    close: async () => {
      for (const p of pairs) {
        p.client.destroy();
        p.upstream.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describeZooKeeper('the coordinator on a real ZooKeeper', () => {
  let zookeeper: Awaited<ReturnType<typeof startZooKeeper>>;
  beforeAll(async () => {
    zookeeper = await startZooKeeper();
  }, 90_000);
  afterAll(async () => {
    await zookeeper?.stop();
    if (zookeeper) rmSync(zookeeper.dir, { recursive: true, force: true });
  });

  it('drops a client whose connection went silent after one unanswered claim, and claims again through a new one', async () => {
    const proxy = await silencingProxy(zookeeper.port);
    const coordinator: Coordinator = openZooKeeperCoordinator(`127.0.0.1:${proxy.port}`, 'silent');
    try {
      expect(await coordinator.claimOnce('before', 'a')).toEqual({ value: 'a', created: true });
      expect(proxy.silence()).toBe(1);
      // Nothing comes back on that connection: the claim is a 503 within the operation's 3 s.
      const started = Date.now();
      const unanswered = await coordinator.claimOnce('during', 'b').catch((e: unknown) => e);
      expect(unanswered).toBeInstanceOf(StorageUnavailableError);
      expect((unanswered as Error).message).toMatch(/did not answer .* within 3 s/);
      expect(Date.now() - started).toBeLessThan(10_000);
      // The next claims go through a new connection; the claim made before is still decided.
      expect(await coordinator.claimOnce('after', 'c')).toEqual({ value: 'c', created: true });
      expect(await coordinator.claimOnce('before', 'other')).toEqual({ value: 'a', created: false });
      // The silent connection is dropped too (its close request goes unanswered), not kept for ever.
      await new Promise((r) => setTimeout(r, 4_000));
      expect(proxy.connections()).toBe(1);
    } finally {
      await coordinator.close();
      await proxy.close();
    }
  }, 60_000);

  it('claims again once ZooKeeper is back after longer than its session: a client whose session expired is replaced', async () => {
    const coordinator = openZooKeeperCoordinator(`127.0.0.1:${zookeeper.port}`, 'expired');
    try {
      expect(await coordinator.claimOnce('before', 'a')).toEqual({ value: 'a', created: true });
      await zookeeper.stop();
      expect(await coordinator.claimOnce('down', 'b').catch((e: unknown) => e)).toBeInstanceOf(StorageUnavailableError);
      // Longer than the coordinator's 10 s session.
      await new Promise((r) => setTimeout(r, 12_000));
      zookeeper = await startZooKeeper({ port: zookeeper.port, dir: zookeeper.dir });
      const deadline = Date.now() + 15_000;
      let claimed: unknown;
      while (Date.now() < deadline) {
        claimed = await coordinator.claimOnce('back', 'c').catch((e: unknown) => e);
        if (!(claimed instanceof Error)) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(claimed).toEqual({ value: 'c', created: true });
      expect(await coordinator.claimOnce('before', 'other')).toEqual({ value: 'a', created: false });
    } finally {
      await coordinator.close();
    }
  }, 90_000);
});
