// A real HTTP webhook receiver on loopback for the alert tests: records every request and
// answers with scripted statuses (then 200).
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedHook {
  headers: IncomingHttpHeaders;
  body: string;
  json: Record<string, any>;
  status: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedHook[];
  /** Statuses for the next requests, in order; afterwards every request gets 200. */
  script(statuses: number[]): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedHook[] = [];
  let statuses: number[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const status = statuses.shift() ?? 200;
      received.push({ headers: req.headers, body, json: JSON.parse(body) as Record<string, any>, status });
      res.writeHead(status, { 'Content-Type': 'text/plain' }).end(status === 200 ? 'ok' : 'boom');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/stress-gate`,
    received,
    script: (s) => {
      statuses = [...s];
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
