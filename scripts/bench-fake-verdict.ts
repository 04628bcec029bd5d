// A fake verdict API on loopback for the Gradle benchmarks: names as new the posted identities
// that `isNew` picks, priced by the server's own curve and guarded by its own guards.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_STRESS_PARAMETERS } from '../verdict-api/dist/contract.js';
import { testCaseId } from '../verdict-api/dist/identity/test-case-id.js';
import { price } from '../verdict-api/dist/contract.js';
import { guards } from '../verdict-api/dist/guard/guards.js';

type Posted = { module: string; suite: string; name: string; durationMs: number };

/** Starts the fake; `close` stops it. `parameters` overrides the server's defaults (e.g. a bulk-change floor above a corpus, a curve of fewer repetitions); candidates are priced on its curve. */
export async function startFakeVerdict(
  isNew: (p: Posted) => boolean,
  parameters: typeof DEFAULT_STRESS_PARAMETERS = DEFAULT_STRESS_PARAMETERS,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    res.setHeader('content-type', 'application/json');
    if (req.url?.endsWith('/verdict')) {
      // The CLI posts the grouped form (suites); older clients one entry per test case.
      const suites = body['suites'] as { module: string; suite: string; names: string[]; durationsMs: number[] }[] | undefined;
      const posted = suites ? suites.flatMap((s) => s.names.map((name, k) => ({ module: s.module, suite: s.suite, name, durationMs: s.durationsMs[k]! }))) : (body['testCases'] as Posted[]);
      const candidates = posted
        .filter(isNew)
        .map((p) => ({ ...p, testCaseId: testCaseId('bench-project', p), ...price(p.durationMs, parameters.curve) }))
        .sort((a, b) => (a.module + a.suite + a.name < b.module + b.suite + b.name ? -1 : 1));
      const inventory = posted.length - candidates.length;
      res.end(
        JSON.stringify({
          projectId: 'bench-project',
          entitled: true,
          defaultBranch: 'main',
          parameters,
          inventory,
          posted: posted.length,
          candidates,
          guards: guards({ defaultBranch: 'main', inventory, newCount: candidates.length, stressable: candidates.filter((c) => c.excluded === null).length, parameters }),
        }),
      );
    } else if (req.url?.endsWith('/runs')) {
      const n = Array.isArray(body['testCases']) ? (body['testCases'] as unknown[]).length : 0;
      res.end(JSON.stringify({ runId: body['runId'], shard: { index: 0, total: 1 }, testCases: n, newTestCases: 0, duplicate: false }));
    } else {
      res.statusCode = 201;
      res.end('{}');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
