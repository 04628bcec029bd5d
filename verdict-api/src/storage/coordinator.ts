// What several API instances on one cluster agree through: the cluster's ZooKeeper. ClickHouse
// has no compare-and-set, so a claim read back from a replicated table can be won by two
// instances that race (each reads its own write first). A ZooKeeper node can be created once:
// whoever creates it owns the claim, and everyone else reads the owner from it.
import { createHash } from 'node:crypto';
import zookeeper from 'node-zookeeper-client';
import { StorageUnavailableError } from '../errors/errors.js';

/** How long one ZooKeeper operation may wait (for a connection, too) before it is a 503. */
const OPERATION_MS = 3_000;

export interface Coordinator {
  /**
   * Creates `key` holding `value` unless it exists. Returns what it holds: `value` and
   * `created` when this call made it, the first creator's value otherwise.
   */
  claimOnce(key: string, value: string): Promise<{ value: string; created: boolean }>;
  /**
   * Removes the claims made more than `olderThanMs` ago; returns how many. A claim decides a
   * race of its first moments only: by then its row is in ClickHouse, which every later claim of
   * the key reads first (run-claims.ts, projects.ts), so the node need not be kept for ever.
   */
  sweepClaims(olderThanMs: number, now: number): Promise<number>;
  /** Runs `work` while no other instance runs work under `name` (an ephemeral lock node). */
  exclusive<T>(name: string, work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Connects to `connect` (host:port,…) and keeps every node under /stress-gate/<database>. */
export function openZooKeeperCoordinator(connect: string, database: string): Coordinator {
  // The client is replaced, never trusted to recover, when:
  // - its session expired (ZooKeeper away longer than the session timeout): it never reconnects;
  // - an operation went unanswered: the library has no read timeout, so a connection that went
  //   silent (half open, or a client left in a state it does not leave) would hold every later
  //   operation for ever. Its queued operations go with it: a timed-out claim is not sent later.
  // An operation that was sent may still have been done; every claim's value is the same on a
  // retry (run-claims.ts), so a retry reads its own claim.
  let closed = false;
  let generation = 0;
  const open = (): zookeeper.Client => {
    const fresh = zookeeper.createClient(connect, { sessionTimeout: 10_000, retries: 0, spinDelay: 500 });
    const mine = generation;
    fresh.once('expired', () => replace(mine));
    fresh.connect();
    return fresh;
  };
  const replace = (of: number) => {
    if (closed || of !== generation) return;
    generation++;
    const old = client;
    client = open();
    old.close();
    // A silent connection never finishes closing (its close request goes unanswered): its socket
    // is dropped after a while. The library keeps it private; when it is not where it was, nothing is done.
    setTimeout(() => (old as unknown as { connectionManager?: { socket?: { destroy?: () => void } } }).connectionManager?.socket?.destroy?.(), OPERATION_MS).unref();
  };
  let client = open();
  const root = `/stress-gate/${database}`;

  const call = <T>(what: string, start: (done: (error: unknown, value?: T) => void) => void): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const of = generation;
      const timer = setTimeout(() => {
        replace(of);
        reject(new StorageUnavailableError(`ZooKeeper (${connect}) did not answer ${what} within ${OPERATION_MS / 1000} s`));
      }, OPERATION_MS);
      start((error, value) => {
        clearTimeout(timer);
        if (error) reject(error);
        else resolve(value as T);
      });
    });
  const unavailable = (what: string, error: unknown) =>
    error instanceof StorageUnavailableError ? error : new StorageUnavailableError(`ZooKeeper (${connect}) ${what}: ${(error as Error).message ?? String(error)}`, { cause: error });
  const isCode = (error: unknown, code: number) => (error as { getCode?: () => number }).getCode?.() === code;

  const parentsMade = new Set<string>();
  const ensureParent = async (path: string) => {
    const parent = path.slice(0, path.lastIndexOf('/'));
    if (parentsMade.has(parent)) return;
    await call<string>(`mkdirp ${parent}`, (done) => client.mkdirp(parent, done));
    parentsMade.add(parent);
  };
  const children = (path: string) =>
    call<string[]>(`list ${path}`, (done) => client.getChildren(path, done)).catch((error: unknown) => {
      if (isCode(error, zookeeper.Exception.NO_NODE)) return [];
      throw error;
    });
  const read = (path: string) => call<Buffer>(`read ${path}`, (done) => client.getData(path, done)).then((b) => b.toString('utf8'));

  return {
    async claimOnce(key, value) {
      // Hashed: a key is any text (a run id is up to 200 characters); a node name may not hold '/'.
      // Under 256 buckets by the hash's first two digits, so that no one node has every claim as
      // its children (a sweep lists one bucket at a time).
      const hash = createHash('sha256').update(key).digest('hex');
      const path = `${root}/claims/${hash.slice(0, 2)}/${hash}`;
      try {
        await ensureParent(path);
        try {
          await call<string>(`create ${path}`, (done) => client.create(path, Buffer.from(value, 'utf8'), zookeeper.CreateMode.PERSISTENT, done));
          return { value, created: true };
        } catch (error) {
          if (!isCode(error, zookeeper.Exception.NODE_EXISTS)) throw error;
          return { value: await read(path), created: false };
        }
      } catch (error) {
        throw unavailable(`claim ${key}`, error);
      }
    },
    async sweepClaims(olderThanMs, now) {
      let removed = 0;
      try {
        const buckets = await children(`${root}/claims`);
        for (const bucket of buckets) {
          for (const name of await children(`${root}/claims/${bucket}`)) {
            const path = `${root}/claims/${bucket}/${name}`;
            const stat = await call<{ ctime: Buffer } | null>(`stat ${path}`, (done) => client.exists(path, done));
            if (stat === null || now - Number(stat.ctime.readBigInt64BE(0)) < olderThanMs) continue;
            // Another instance sweeping at the same time may have removed it first.
            await call<void>(`remove ${path}`, (done) => client.remove(path, -1, done)).then(
              () => removed++,
              (error: unknown) => {
                if (!isCode(error, zookeeper.Exception.NO_NODE)) throw error;
              },
            );
          }
        }
      } catch (error) {
        throw unavailable('sweeping claims', error);
      }
      return removed;
    },
    async exclusive(name, work) {
      const path = `${root}/locks/${name}`;
      try {
        await ensureParent(path);
        for (;;) {
          try {
            await call<string>(`lock ${path}`, (done) => client.create(path, Buffer.alloc(0), zookeeper.CreateMode.EPHEMERAL, done));
            break;
          } catch (error) {
            if (!isCode(error, zookeeper.Exception.NODE_EXISTS)) throw error;
            // Held by another instance (or by a crashed one until its session expires).
            await new Promise((r) => setTimeout(r, 200));
          }
        }
      } catch (error) {
        throw unavailable(`lock ${name}`, error);
      }
      try {
        return await work();
      } finally {
        await call<void>(`unlock ${path}`, (done) => client.remove(path, -1, done)).catch(() => undefined);
      }
    },
    async close() {
      closed = true;
      client.close();
    },
  };
}
