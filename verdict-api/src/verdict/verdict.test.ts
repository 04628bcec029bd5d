import { describe, expect, it } from '@jest/globals';
import type { Account } from '../accounts/accounts.js';
import type { Project } from '../accounts/projects.js';
import { REMEMBERED_IDS, rememberedTestCaseId, timesForgotten } from '../identity/remembered-ids.js';
import type { Database } from '../storage/database.js';
import type { ParsedVerdictRequest } from '../validation/parse-body.js';
import { verdict } from './verdict.js';

const P = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';
// A repeated identity is refused before anything is read, so neither is touched.
const db = {} as Database;
const account = {} as Account;
const project = { projectId: P, defaultBranch: 'main' } as Project;
const refusal = (request: Partial<ParsedVerdictRequest>): string => {
  try {
    verdict(db, project, account, { mode: 'report', runId: 'r', ...request } as ParsedVerdictRequest);
  } catch (error) {
    return (error as Error).message;
  }
  return 'accepted';
};
const flat = (names: string[]) => ({ testCases: names.map((name) => ({ module: ':app', suite: 'S', name, durationMs: 1, fingerprint: null })) });

describe('verdict: a repeated identity', () => {
  it('is refused in either form, naming both places, and a later request may post it again', () => {
    expect(refusal(flat(['a', 'b', 'a']))).toMatch(/^testCases\[2\]: duplicate identity of testCases\[0\]/);
    const suite = (listed: 'tests' | 'names', names: string[]) => ({ module: ':app', suite: 'S', listed, names, durationsMs: names.map(() => 1), fingerprints: null });
    expect(refusal({ suites: [suite('tests', ['a']), suite('tests', ['b', 'a'])] })).toMatch(/^suites\[1\]\.tests\[1\]: duplicate identity of suites\[0\]\.tests\[0\]/);
    expect(refusal({ suites: [suite('names', ['a']), suite('names', ['b', 'a'])] })).toMatch(/^suites\[1\]\.names\[1\]: duplicate identity of suites\[0\]\.names\[0\]/);
    // Posted again by the next request, not repeated within it: it gets as far as the (absent) database.
    expect(refusal(flat(['a', 'b']))).not.toContain('duplicate');
  });

  it('is refused when every remembered id is forgotten between its two places', () => {
    // Remember ids until they are forgotten once (one is then remembered), then up to the limit, the last
    // being 'a': the new 'b' after it in the request makes them all forgotten again.
    const before = timesForgotten();
    for (let i = 0; timesForgotten() === before; i++) rememberedTestCaseId(P, { module: ':fill', suite: 'F', name: String(i) });
    for (let i = 0; i < REMEMBERED_IDS - 2; i++) rememberedTestCaseId(P, { module: ':fill', suite: 'G', name: String(i) });
    rememberedTestCaseId(P, { module: ':app', suite: 'S', name: 'a' });
    const forgotten = timesForgotten();
    expect(refusal(flat(['a', 'b', 'a']))).toMatch(/^testCases\[2\]: duplicate identity of testCases\[0\]/);
    expect(timesForgotten()).toBe(forgotten + 1);
  });
});
