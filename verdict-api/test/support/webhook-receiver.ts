// A real HTTP webhook receiver on loopback for the alert tests: records every request and
// answers with scripted statuses (then 200), optionally after a delay; counts the requests in
// flight at once (the flood test).
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One event as received: a delivery's body carries one or more (`events`), each listed here with its request. */
export interface ReceivedHook {
  headers: IncomingHttpHeaders;
  /** The raw body of the request that carried it (what the signature covers). */
  body: string;
  /** The event, with the delivery's id. */
  json: Record<string, any>;
  status: number;
}

/** One HTTP request as received. */
export interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
  /** The events its body carried. */
  events: number;
}

export interface WebhookReceiver {
  url: string;
  port: number;
  /** Every event received, in order. */
  received: ReceivedHook[];
  /** Every request received, in order. */
  requests: ReceivedRequest[];
  /** The most requests that were open at once. */
  maxInFlight(): number;
  /** Statuses for the next requests, in order; afterwards every request gets 200. */
  script(statuses: number[]): void;
  /** Answers every request this much later. */
  delay(ms: number): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedHook[] = [];
  const requests: ReceivedRequest[] = [];
  let statuses: number[] = [];
  let delayMs = 0;
  let inFlight = 0;
  let peak = 0;
  const server = createServer((req, res) => {
    inFlight++;
    peak = Math.max(peak, inFlight);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const status = statuses.shift() ?? 200;
      const json = JSON.parse(body) as Record<string, any>;
      const events: Record<string, any>[] = Array.isArray(json['events']) ? json['events'].map((e: Record<string, any>) => ({ deliveryId: json['deliveryId'], ...e })) : [json];
      requests.push({ headers: req.headers, body, status, events: events.length });
      for (const e of events) received.push({ headers: req.headers, body, json: e, status });
      setTimeout(() => {
        inFlight--;
        res.writeHead(status, { 'Content-Type': 'text/plain' }).end(status === 200 ? 'ok' : 'boom');
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/stress-gate`,
    port,
    received,
    requests,
    maxInFlight: () => peak,
    script: (s) => {
      statuses = [...s];
    },
    delay: (ms) => {
      delayMs = ms;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
