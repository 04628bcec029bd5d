// Reading the dashboard's forms: the body is read under its cap before anything parses it, then
// each field is read as trimmed text.
import type { Context } from 'hono';
import { VerdictApiError } from '../errors/errors.js';
import { readBody } from '../limits/read-body.js';

/**
 * Reads a POST's form, at most `cap` bytes, into the request that parseBody reads: before
 * this, the caller is known (a session on its cookie) or the form is the small sign-in form.
 * Answers 413 past the cap; null when the form was taken.
 */
export async function takeForm(c: Context, cap: number): Promise<Response | null> {
  try {
    const bytes = await readBody(c, cap);
    c.req.raw = new Request(c.req.url, { method: c.req.method, headers: c.req.raw.headers, body: new Uint8Array(bytes) });
    return null;
  } catch (e) {
    if (e instanceof VerdictApiError && e.code === 'PAYLOAD_TOO_LARGE') return c.text('form too large', 413);
    throw e;
  }
}

/** A form's fields, as parseBody gives them. */
export type FormFields = Record<string, string | File>;

/** The fields of a signed-in POST. */
export const formOf = async (c: Context): Promise<FormFields> => (await c.req.parseBody()) as FormFields;

/** A field as trimmed text; '' when absent or a file. */
export const text = (f: FormFields, k: string): string => (typeof f[k] === 'string' ? (f[k] as string).trim() : '');
