// Reading a JSON request body: invalid JSON is a 400 on `body`; a list of more than
// MAX_IDENTITIES test cases is a 413, not a 400.
import type { IncomingMessage } from 'node:http';
import { MAX_IDENTITIES } from '../contract.js';
import { BadRequestError, VerdictApiError } from '../errors/errors.js';
import { parseJsonBuffer } from './json-buffer.js';

/** Parses a JSON body; `countTestCases` checks the size of its `testCases` list first. */
export async function jsonBody(req: Request, countTestCases = false): Promise<unknown> {
  let body: unknown;
  try {
    body = await req.json();
  } catch {
    throw new BadRequestError('body: not valid JSON', 'body');
  }
  return checked(body, countTestCases);
}

/**
 * Like jsonBody, read straight from Node's request when the server runs on a port and the body
 * has a declared length (so the body limit was already checked on the header): the verdict and
 * upload bodies skip the web-stream copy, and a large one is never decoded into one string
 * (json-buffer.ts). Anything else takes jsonBody's path.
 */
export async function fastJsonBody(req: Request, incoming: IncomingMessage | undefined, maxBytes: number, countTestCases = false): Promise<unknown> {
  const declared = req.headers.get('content-length');
  // Whether the body was read is asked of Node's stream alone: reading any other property of the
  // lightweight request (bodyUsed, signal) makes @hono/node-server build a full web Request with an
  // AbortController, which outlives the request long enough to be promoted, and a verdict's young
  // garbage collections then copied about 10 MB each (scripts/bench-load.ts, --trace-gc-nvp).
  // Whatever reads the web body reads `incoming`, so readableDidRead covers it.
  if (!incoming || declared === null || incoming.readableDidRead) return jsonBody(req, countTestCases);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of incoming as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new VerdictApiError('PAYLOAD_TOO_LARGE', `request body exceeds ${maxBytes} bytes`, 'body');
    chunks.push(chunk);
  }
  let body: unknown;
  try {
    body = parseJsonBuffer(Buffer.concat(chunks, size));
  } catch {
    throw new BadRequestError('body: not valid JSON', 'body');
  }
  return checked(body, countTestCases);
}

function checked(body: unknown, countTestCases: boolean): unknown {
  if (countTestCases && typeof body === 'object' && body !== null) {
    const cases = (body as { testCases?: unknown }).testCases;
    if (Array.isArray(cases) && cases.length > MAX_IDENTITIES) {
      throw new VerdictApiError('PAYLOAD_TOO_LARGE', `testCases: ${cases.length} test cases exceed the limit of ${MAX_IDENTITIES} per request; split the upload`, 'testCases');
    }
    // A grouped verdict request counts the tests of all its suites.
    const suites = (body as { suites?: unknown }).suites;
    if (Array.isArray(suites)) {
      let n = 0;
      for (const s of suites as unknown[]) {
        // One list per suite counts: `tests`, or else `names` (VerdictSuite).
        const tests = typeof s === 'object' && s !== null ? ((s as { tests?: unknown }).tests ?? (s as { names?: unknown }).names) : undefined;
        if (Array.isArray(tests)) n += tests.length;
      }
      if (n > MAX_IDENTITIES) throw new VerdictApiError('PAYLOAD_TOO_LARGE', `suites: ${n} test cases exceed the limit of ${MAX_IDENTITIES} per request`, 'suites');
    }
  }
  return body;
}

/** Like jsonBody, but an empty body is `{}` (DELETE with an optional body). */
export async function optionalJsonBody(req: Request): Promise<unknown> {
  const text = await req.text();
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BadRequestError('body: not valid JSON', 'body');
  }
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A path parameter that must be a lowercase UUID (test case ids, webhook ids). */
export function uuidParam(value: string, field: string): string {
  if (!UUID_RE.test(value)) throw new BadRequestError(`${field}: must be a UUID such as 0f1e2d3c-…`, field);
  return value;
}
