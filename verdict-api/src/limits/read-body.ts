// Reads a request body into one Buffer, never past a cap: a declared length over it is refused
// before a byte is read (413), and a chunked body is refused the moment it passes it; nothing
// of it is kept from there. On a port the body is read from Node's request itself, which holds
// no more than its stream buffer until read: nothing arrives into memory before the handler asks
// for it, so authentication, which runs first on the headers, decides before any body is read.
// Without a port (app.request() in tests) the web stream is read the same way.
//
// What a refused client goes on sending is discarded by @hono/node-server once the answer is
// out (at most 64 MiB or 500 ms, then the socket is closed): the client reads its 401 or 413
// rather than a connection reset, which closing at once gave it now and then.
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { BadRequestError, VerdictApiError } from '../errors/errors.js';

/** Holds body bytes against a budget while they are read (a tenant's in-flight bytes); release gives them back. */
export interface BodyBudget {
  /** Takes `bytes` more; false when that would pass the budget (the read stops with 429). */
  take(bytes: number): boolean;
  /** Gives back everything taken (the body was parsed, or refused). */
  release(): void;
}

const tooLarge = (cap: number) => new VerdictApiError('PAYLOAD_TOO_LARGE', `body: the request body exceeds ${cap} bytes, the limit of this route`, 'body');

/** Node's request behind a Hono context, when served on a port. */
export function incomingOf(c: Context): IncomingMessage | undefined {
  return (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
}

/** The address a request came from (behind a proxy: the proxy's); null without a socket (app.request in tests). */
export function clientAddress(c: Context): string | null {
  return incomingOf(c)?.socket.remoteAddress ?? null;
}

/** The body's declared length; 400 when it is not a number. */
function declaredLength(c: Context): number | null {
  const header = c.req.header('content-length');
  if (header === undefined) return null;
  if (!/^\s*\d+\s*$/.test(header)) throw new BadRequestError('Content-Length: not a number', 'Content-Length');
  return Number(header);
}

/** The body's bytes, at most `cap` of them; 413 past it. */
export async function readBody(c: Context, cap: number, budget?: BodyBudget): Promise<Buffer> {
  const declared = declaredLength(c);
  if (declared !== null && declared > cap) throw tooLarge(cap);
  if (declared !== null && budget && !budget.take(declared)) throw overBudget();
  // Declared lengths are taken whole above; a chunked body's bytes are taken as they come.
  const count = declared === null ? budget : undefined;
  const incoming = incomingOf(c);
  // Whether the body was read is asked of Node's stream alone: reading any other property of the
  // lightweight request (bodyUsed, signal) makes @hono/node-server build a full web Request, and
  // whatever reads the web body reads `incoming`, so readableDidRead covers it.
  if (incoming && !incoming.readableDidRead && !incoming.readableEnded) return fromIncoming(incoming, cap, count);
  return fromWebStream(c.req.raw, cap, count);
}

const overBudget = () =>
  new VerdictApiError('TOO_MANY_REQUESTS', 'body: this account has too many request bodies in flight; retry shortly', 'body');

function fromIncoming(incoming: IncomingMessage, cap: number, budget: BodyBudget | undefined): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (error: Error) => {
      cleanup();
      // Nothing more is read: @hono/node-server discards the rest once the answer is out (above).
      incoming.pause();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > cap) return stop(tooLarge(cap));
      if (budget && !budget.take(chunk.length)) return stop(overBudget());
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(new BadRequestError(`body: the request body was not received whole (${(error as NodeJS.ErrnoException).code ?? error.message})`, 'body'));
    };
    const onClose = () => {
      if (!incoming.readableEnded) onError(new Error('connection closed'));
    };
    const cleanup = () => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('close', onClose);
    };
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
    incoming.on('close', onClose);
  });
}

async function fromWebStream(req: Request, cap: number, budget: BodyBudget | undefined): Promise<Buffer> {
  if (req.body === null) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    const refusal = size > cap ? tooLarge(cap) : budget && !budget.take(value.length) ? overBudget() : null;
    if (refusal) {
      await reader.cancel().catch(() => undefined);
      throw refusal;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}
