import { describe, expect, it } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import { identityKey } from '../identity/identity-key.js';
import { quarantineOf, run, S } from '../../test/support/gate-harness.js';
import { postedTestCases } from '../../test/support/fake-verdict-server.js';

const skipFileOf = (args: string[]) => args.find((a) => a.startsWith('-PstressGate.skip='))?.split('=').slice(1).join('=');

describe('the quarantine in the gate flow (fake Gradle, fake API)', () => {
  it('passes the skipped tests to the first pass only; a skipped test that ran anyway is ignored and never a candidate', async () => {
    const skipped = [{ module: ':app', suite: S, name: 'clearsCart' }];
    let skipList: unknown = null;
    const r = await run(['--stress-new-tests', 'enforce'], {
      quarantine: quarantineOf(new Set(), skipped),
      after: async (kind, args) => {
        if (kind === 'first') skipList = JSON.parse(await readFile(skipFileOf(args)!, 'utf8'));
      },
    });
    expect(skipList).toEqual(skipped);
    expect(skipFileOf(r.calls[1]!)).toBeUndefined();
    const upload = r.requests[0]!.body as { testCases: { name: string; status: string }[] };
    expect(upload.testCases.find((t) => t.name === 'clearsCart')?.status).toBe('skipped');
    const verdict = postedTestCases(r.requests[1]!.body as Parameters<typeof postedTestCases>[0]);
    expect(verdict.map((t) => t.name)).toContain('appliesDiscount');
    expect(verdict.map((t) => t.name)).not.toContain('clearsCart');
    expect(r.out).not.toContain('clearsCart');
  });

  it('a muted flaky candidate is stressed and recorded, shown as muted, and cannot block', async () => {
    const muted = new Set([identityKey({ module: ':app', suite: S, name: 'appliesDiscount' })]);
    const r = await run(['--stress-new-tests', 'enforce'], { quarantine: quarantineOf(muted), repStatus: (n, k) => (n === 'appliesDiscount' && k === 5 ? 'failure' : 'success') });
    expect(r.code).toBe(0);
    expect(r.out).toContain('appliesDiscount   10 repetitions, 1 failed (muted: cannot fail the gate)');
    expect(r.requests[2]!.body).toMatchObject({ testCases: expect.arrayContaining([expect.objectContaining({ name: 'appliesDiscount', muted: true, outcome: 'failed' })]) });
  });

  it('--skip-quarantine and STRESS_GATE_SKIP_QUARANTINE ignore the list, independent of the gate', async () => {
    let asked = 0;
    const source = { lists: async () => (asked++, { ok: true as const, value: (await quarantineOf(new Set(['x'])).lists() as { ok: true; value: never }).value }) };
    for (const [args, env] of [[['--skip-quarantine'], {}], [[], { STRESS_GATE_SKIP_QUARANTINE: '1' }]] as const) {
      const r = await run([...args], { quarantine: source, env });
      expect(r.code).toBe(0);
      expect(r.calls[0]!.some((a) => a.startsWith('-PstressGate.skip='))).toBe(false);
    }
    expect(asked).toBe(0);
  });

  it('a quarantine fetch failure is a warning and everything runs', async () => {
    const r = await run(['--stress-new-tests', 'report'], { quarantine: { lists: async () => ({ ok: false, problem: 'http://api.test/…/quarantine: HTTP 503' }) } });
    expect(r.code).toBe(0);
    expect(r.err).toContain('stress-gate: warning: could not fetch the quarantine list (http://api.test/…/quarantine: HTTP 503); nothing is muted or skipped.');
    expect(r.calls).toHaveLength(2);
  });

  it('prints a quarantined test’s identity and a server’s problem with their control and bidirectional characters escaped', async () => {
    const skipped = [{ module: ':app\u001b[2J\u202e', suite: 'com.example.\u001b[31mRed', name: 'x*' }];
    const r = await run(['--stress-new-tests', 'report'], { quarantine: quarantineOf(new Set(), skipped) });
    expect(r.err).toContain('cannot be kept out of the build');
    expect(r.err).toContain(':app\\u001b[2J\\u202e');
    const failed = await run(['--stress-new-tests', 'report'], { quarantine: { lists: async () => ({ ok: false, problem: 'HTTP 500: \u001b]0;owned\u0007\u2066' }) } });
    for (const err of [r.err, failed.err]) expect(err).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  });
});
