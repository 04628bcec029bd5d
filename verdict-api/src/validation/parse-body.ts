// Body validation shared by the HTTP layer and the domain: one valibot parse per body; the first
// issue becomes a BadRequestError naming its field (the HTTP layer maps it to a 400).
import * as v from 'valibot';
import { GateUpload, MAX_IDENTITIES, ProjectSettingsPatch, QuarantineWrite, QuarantineWriteByIdentity, RunUpload, VerdictRequest, WebhookCreate } from '../contract.js';
import { BadRequestError, VerdictApiError } from '../errors/errors.js';
import { fastRunUpload, fastVerdictRequest } from './fast-parse.js';

export type ParsedRunUpload = v.InferOutput<typeof RunUpload>;
export type ParsedVerdictRequest = v.InferOutput<typeof VerdictRequest>;
export type ParsedGateUpload = v.InferOutput<typeof GateUpload>;
export type ParsedSettingsPatch = v.InferOutput<typeof ProjectSettingsPatch>;
export type ParsedQuarantineWrite = v.InferOutput<typeof QuarantineWrite>;
export type ParsedQuarantineWriteByIdentity = v.InferOutput<typeof QuarantineWriteByIdentity>;
export type ParsedWebhookCreate = v.InferOutput<typeof WebhookCreate>;

/** Validates `input` against `schema` or throws a BadRequestError whose field is the issue's path. */
export function parseBody<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input, { abortEarly: true });
  if (result.success) return result.output;
  const issue = result.issues[0];
  // An issue at the root (not an object, say) is the body's.
  const field = issue.path?.length ? fieldPath(issue.path.map((p) => p.key as string | number)) : 'body';
  throw new BadRequestError(field ? `${field}: ${issue.message}` : issue.message, field);
}

/** testCases[3].name */
export function fieldPath(keys: readonly (string | number)[]): string {
  return keys.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? k : `.${k}`)).join('');
}

// The two bodies of up to 100,000 test cases take a hand-written check first (fast-parse.ts).
export const parseRunUpload = (input: unknown): ParsedRunUpload => fastRunUpload(input) ?? parseBody(RunUpload, input);
export function parseVerdictRequest(input: unknown): ParsedVerdictRequest {
  const request = fastVerdictRequest(input) ?? parseBody(VerdictRequest, input);
  const { testCases, suites } = request;
  if ((testCases === undefined) === (suites === undefined)) {
    const field = testCases === undefined ? 'testCases' : 'suites';
    throw new BadRequestError(`${field}: give the test cases either as testCases or grouped as suites, exactly one of the two`, field);
  }
  if (suites) {
    let n = 0;
    for (const s of suites) n += s.names.length;
    if (n > MAX_IDENTITIES) throw new VerdictApiError('PAYLOAD_TOO_LARGE', `suites: ${n} test cases exceed the limit of ${MAX_IDENTITIES} per request`, 'suites');
  }
  return request;
}
export const parseGateUpload = (input: unknown): ParsedGateUpload => parseBody(GateUpload, input);
export const parseSettingsPatch = (input: unknown): ParsedSettingsPatch => parseBody(ProjectSettingsPatch, input);
export const parseQuarantineWrite = (input: unknown): ParsedQuarantineWrite => parseBody(QuarantineWrite, input);
export const parseQuarantineWriteByIdentity = (input: unknown): ParsedQuarantineWriteByIdentity => parseBody(QuarantineWriteByIdentity, input);
export const parseWebhookCreate = (input: unknown): ParsedWebhookCreate => parseBody(WebhookCreate, input);
