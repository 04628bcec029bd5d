// A fake verdict API on a loopback port: answers the verdict from the posted identities through a
// function the test supplies, and records every request.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_STRESS_PARAMETERS, type Candidate, type VerdictResponse } from '@stress-gate/verdict-api/contract';
import { testCaseId } from '@stress-gate/verdict-api/identity';
// The server's own pricing, so the fake prices exactly as the real verdict does.
import { price } from '../../../verdict-api/src/contract.js';
import { type PostedSuite, type PostedTestCase } from '../../src/verdict/verdict-client.js';

/** The test cases of a verdict request in either form: grouped by suite (the CLI's) or one entry per test case. */
export function postedTestCases(body: { testCases?: PostedTestCase[]; suites?: PostedSuite[] }): PostedTestCase[] {
  if (!body.suites) return body.testCases ?? [];
  return body.suites.flatMap((s) => s.names.map((name, k) => ({ module: s.module, suite: s.suite, name, durationMs: s.durationsMs[k]! })));
}

export interface RecordedRequest {
  method: string;
  url: string;
  authorization: string | undefined;
  body: unknown;
}

export interface FakeVerdictServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

type Posted = { module: string; suite: string; name: string; durationMs: number };

/** A VerdictResponse naming as new the posted identities `isNew` accepts. */
export function cannedVerdict(posted: Posted[], isNew: (p: Posted) => boolean, overrides: Partial<VerdictResponse> = {}): VerdictResponse {
  const candidates: Candidate[] = posted
    .filter(isNew)
    .map((p) => {
      return { ...p, testCaseId: testCaseId('fake-project', p), ...price(p.durationMs, DEFAULT_STRESS_PARAMETERS.curve) };
    })
    .sort((a, b) => (a.module + a.suite + a.name < b.module + b.suite + b.name ? -1 : 1));
  return {
    projectId: 'fake-project',
    entitled: true,
    defaultBranch: 'main',
    parameters: DEFAULT_STRESS_PARAMETERS,
    inventory: posted.length - candidates.length,
    posted: posted.length,
    candidates,
    renamed: [],
    guards: {
      premise: { fired: false, reason: null },
      bulkChange: { fired: false, newCount: candidates.length, inventory: posted.length - candidates.length, ratio: 0.3, floor: 50 },
      candidateCap: { fired: false, count: candidates.length, cap: 200 },
    },
    ...overrides,
  };
}

/** Starts the fake on 127.0.0.1 and a random port. `verdict` builds each verdict answer. */
export async function startFakeVerdictServer(verdict: (posted: Posted[]) => VerdictResponse): Promise<FakeVerdictServer> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    requests.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization, body });
    res.setHeader('content-type', 'application/json');
    if (req.method === 'GET' && req.url?.includes('/quarantine')) {
      res.end(JSON.stringify({ tests: [], nextCursor: null }));
    } else if (req.url?.endsWith('/verdict')) {
      res.end(JSON.stringify(verdict(postedTestCases(body as Parameters<typeof postedTestCases>[0]))));
    } else if (req.url?.endsWith('/runs')) {
      const b = body as { runId: string; testCases: unknown[] };
      res.end(JSON.stringify({ runId: b.runId, shard: { index: 0, total: 1 }, testCases: b.testCases.length, newTestCases: 0, duplicate: false }));
    } else {
      res.statusCode = 201;
      res.end('{}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // fetch keeps connections alive; close() alone would wait for them.
        server.closeAllConnections();
      }),
  };
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : null;
}
