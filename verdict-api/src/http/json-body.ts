// Reading a JSON request body, never past the route's cap (read-body.ts): invalid JSON is a 400
// on `body`; a list of more than MAX_IDENTITIES test cases is a 413, not a 400.
import type { Context } from 'hono';
import { MAX_IDENTITIES } from '../contract.js';
import { BadRequestError, VerdictApiError } from '../errors/errors.js';
import { isUuid } from '../identity/uuid.js';
import { parseJsonBuffer } from './json-buffer.js';
import { type BodyBudget, readBody } from '../limits/read-body.js';

/** Parses a JSON body of at most `cap` bytes. */
export async function jsonBody(c: Context, cap: number): Promise<unknown> {
  return parsed(await readBody(c, cap));
}

/** Like jsonBody, but an empty body is `{}` (DELETE and POST with an optional body). */
export async function optionalJsonBody(c: Context, cap: number): Promise<unknown> {
  const bytes = await readBody(c, cap);
  return bytes.toString('utf8').trim() === '' ? {} : parsed(bytes);
}

/**
 * The body of a verdict or an upload (up to MAX_IDENTITIES test cases): checked for the size of
 * its test-case lists first, and parsed without decoding a large body into one string
 * (json-buffer.ts). Its bytes are held against `budget` while read and parsed.
 */
export async function testCasesBody(c: Context, cap: number, budget?: BodyBudget): Promise<unknown> {
  return (await sizedTestCasesBody(c, cap, budget)).document;
}

/** Like testCasesBody, with the body's size in bytes as received (an upload's storage usage). */
export async function sizedTestCasesBody(c: Context, cap: number, budget?: BodyBudget): Promise<{ document: unknown; bytes: number }> {
  try {
    const bytes = await readBody(c, cap, budget);
    return { document: testCasesOf(bytes), bytes: bytes.length };
  } finally {
    budget?.release();
  }
}

/** The parsed and size-checked document of a test-case body's bytes (the verdict parses once admitted: CPU work). */
export function testCasesOf(bytes: Buffer): unknown {
  return checked(parsed(bytes));
}

function parsed(bytes: Buffer): unknown {
  try {
    return parseJsonBuffer(bytes);
  } catch {
    throw new BadRequestError('body: not valid JSON', 'body');
  }
}

function checked(body: unknown): unknown {
  if (typeof body === 'object' && body !== null) {
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

/** A path parameter that must be a lowercase UUID (test case ids, webhook ids). */
export function uuidParam(value: string, field: string): string {
  if (!isUuid(value)) throw new BadRequestError(`${field}: must be a UUID such as 0f1e2d3c-…`, field);
  return value;
}
