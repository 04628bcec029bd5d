// Attack test (issue 31): verdicts of identities with the longest names the contract allows fill
// the server's cache of test-case ids. Bounded by entries (200,000) it held whatever those names
// weighed (2-3.9 GB at its limit); bounded by bytes it holds at most its budget. A real server on
// a port in this process (embedded chDB), its heap measured after a full garbage collection.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { request } from 'node:http';
import v8 from 'node:v8';
import vm from 'node:vm';
import { silentLogger } from '../../src/log/logger.js';
import { type RunningServer, startServer } from '../../src/server.js';
import { type ProjectHandle, seedProject } from '../support/api.js';
import { openTestDatabase, type TestDatabase } from '../support/engines.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const MiB = 1024 * 1024;

let t: TestDatabase;
let server: RunningServer;
let p: ProjectHandle;

beforeAll(async () => {
  t = await openTestDatabase('embedded');
  p = await seedProject(t.db, 'long-names');
  server = await startServer(t.db, silentLogger(), '127.0.0.1', 0);
}, 120_000);
afterAll(async () => {
  await server?.close();
  await t?.close();
});

const post = (body: Buffer) =>
  new Promise<number>((resolve, reject) => {
    const req = request(`${server.url}/api/v1/projects/${p.handle}/verdict`, { method: 'POST', agent: false, headers: { authorization: `Bearer ${p.token}`, 'content-type': 'application/json', 'content-length': body.length } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });

const heapUsed = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

describe('the test-case id cache', () => {
  it('stays within its byte budget when verdicts post 45,000 identities with 4,096-character names', async () => {
    const before = heapUsed();
    for (let r = 0; r < 3; r++) {
      // 15,000 identities of about 4.2 KB each: a 63 MB body, under the verdict's cap.
      const testCases = Array.from({ length: 15_000 }, (_, i) => ({ module: ':app', suite: 'com.example.LongNames', name: `${r}-${i}-`.padEnd(4096, 'x'), durationMs: 1 }));
      expect(await post(Buffer.from(JSON.stringify({ testCases })))).toBe(200);
    }
    // What the requests left to background work (the verdict log's batch) is written meanwhile.
    await new Promise((r) => setTimeout(r, 2_000));
    const grown = heapUsed() - before;
    process.stdout.write(`45,000 identities of 4 KB (180 MB of names) posted: the heap grew by ${(grown / MiB).toFixed(0)} MiB\n`);
    expect(grown).toBeLessThan(96 * MiB);
  }, 300_000);
});
