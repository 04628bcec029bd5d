// A client that sends a request body piece by piece over node:http (chunked unless a length is
// declared), and says how much of it had been handed to the socket when the answer came: what
// the attack tests of oversized, unauthenticated and slow bodies measure.
import { Agent, request } from 'node:http';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';

export interface StreamedAnswer {
  /** The HTTP status, or 0 when the connection ended without one. */
  status: number;
  body: string;
  /** Body bytes handed to the socket before the response's headers arrived. */
  sentBeforeAnswer: number;
  /** Body bytes handed to the socket in all. */
  sent: number;
  /** Milliseconds from the first byte to the response's headers. */
  answeredAfterMs: number;
  /** A socket error seen while sending (the server closed the connection), if any. */
  error: string | null;
}

export interface StreamOptions {
  method?: string;
  headers?: Record<string, string>;
  /** Body bytes to send at most (with `body`: its length). */
  totalBytes?: number;
  /** The exact body to send, in pieces of `chunkBytes` (instead of repeating `fill`). */
  body?: Buffer;
  /** Bytes per write. Default 1 MiB. */
  chunkBytes?: number;
  /** Wait between writes. Default 0 (as fast as the socket takes them). */
  delayMs?: number;
  /** The body's bytes: a chunk of this is repeated. Default spaces (valid JSON whitespace). */
  fill?: Buffer;
  /** A prefix sent first (e.g. the opening of a JSON document). */
  prefix?: Buffer;
  /** Declare the length instead of sending chunked. */
  declareLength?: number;
  /** Stop sending once answered. Default true. */
  stopWhenAnswered?: boolean;
  /** Aborts the request (a test done with it). */
  signal?: AbortSignal;
}

/** Sends `totalBytes` to `url`, piece by piece, and reports when the answer came. */
export function streamBody(url: string, options: StreamOptions): Promise<StreamedAnswer> {
  const chunkBytes = options.chunkBytes ?? 1024 * 1024;
  const fill = options.fill ?? Buffer.alloc(chunkBytes, 0x20);
  const chunk = fill.length >= chunkBytes ? fill.subarray(0, chunkBytes) : Buffer.concat(Array.from({ length: Math.ceil(chunkBytes / fill.length) }, () => fill)).subarray(0, chunkBytes);
  return new Promise((resolve) => {
    let sent = 0;
    let sentBeforeAnswer = -1;
    let answeredAfterMs = -1;
    let status = 0;
    let error: string | null = null;
    let body = '';
    let done = false;
    const started = performance.now();
    const finish = () => {
      if (done) return;
      done = true;
      agent.destroy();
      resolve({ status, body, sentBeforeAnswer: sentBeforeAnswer < 0 ? sent : sentBeforeAnswer, sent, answeredAfterMs, error });
    };
    const headers: Record<string, string | number> = { 'content-type': 'application/json', ...(options.headers ?? {}) };
    if (options.declareLength !== undefined) headers['content-length'] = options.declareLength;
    // Keep-alive, as the CLI's client is: without it Node's client asks the server to close the
    // connection after the answer, which the server then does at once (a reset, not the answer).
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const req = request(url, { method: options.method ?? 'POST', headers, agent }, (res) => {
      status = res.statusCode ?? 0;
      sentBeforeAnswer = sent;
      answeredAfterMs = performance.now() - started;
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      // Going on sending after the answer: done when the request's side is, too.
      if (options.stopWhenAnswered !== false) {
        res.on('end', finish);
        res.on('error', finish);
      }
      res.resume();
    });
    req.on('error', (e) => {
      error = (e as NodeJS.ErrnoException).code ?? e.message;
      // The answer may already be in; otherwise there is none.
      if (status === 0 || answeredAfterMs >= 0) setTimeout(finish, 50);
    });
    req.on('close', () => setTimeout(finish, 50));
    options.signal?.addEventListener('abort', () => req.destroy());
    const answered = () => answeredAfterMs >= 0 && options.stopWhenAnswered !== false;
    const total = options.body?.length ?? options.totalBytes ?? 0;
    const pump = async () => {
      if (options.prefix) {
        req.write(options.prefix);
        sent += options.prefix.length;
      }
      while (sent < total && !answered() && !req.destroyed && error === null) {
        const piece = options.body ? options.body.subarray(sent, sent + chunkBytes) : chunk.subarray(0, Math.min(chunk.length, total - sent));
        const flushed = req.write(piece);
        sent += piece.length;
        if (!flushed) await new Promise<void>((r) => { const go = () => { req.off('drain', go); req.off('close', go); r(); }; req.once('drain', go); req.once('close', go); });
        if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
      }
      if (!req.destroyed && error === null) req.end();
      else if (answered()) req.destroy();
    };
    void pump();
  });
}

/** The resident set of a process, and its peak since it started, in bytes (Linux /proc). */
export function residentBytes(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/**
 * An attacker's client over a raw socket: a chunked POST that goes on sending whatever the
 * server answers, until `totalBytes` or until the server closes the connection.
 */
export function floodChunked(url: string, headers: Record<string, string>, totalBytes: number): Promise<{ response: string; sent: number; closedByServer: boolean; closedAfterAnswerMs: number }> {
  const target = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(target.port), target.hostname);
    let response = '';
    let sent = 0;
    let closedByServer = false;
    let done = false;
    let answeredAt = -1;
    const finish = () => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve({ response, sent, closedByServer, closedAfterAnswerMs: answeredAt < 0 ? -1 : performance.now() - answeredAt });
    };
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      if (answeredAt < 0) answeredAt = performance.now();
      response += d;
    });
    socket.on('error', () => {
      closedByServer = true;
      finish();
    });
    socket.on('end', () => {
      closedByServer = true;
      finish();
    });
    socket.on('close', finish);
    const chunk = Buffer.concat([Buffer.from(`100000\r\n`), Buffer.alloc(0x100000, 0x20), Buffer.from('\r\n')]);
    socket.on('connect', async () => {
      const head = Object.entries({ host: target.host, 'content-type': 'application/json', 'transfer-encoding': 'chunked', ...headers }).map(([k, v]) => `${k}: ${v}\r\n`).join('');
      socket.write(`POST ${target.pathname} HTTP/1.1\r\n${head}\r\n`);
      while (sent < totalBytes && !done) {
        sent += 0x100000;
        if (!socket.write(chunk)) await new Promise<void>((r) => { const go = () => { socket.off('drain', go); socket.off('close', go); r(); }; socket.once('drain', go); socket.once('close', go); });
      }
      finish();
    });
  });
}
