import { describe, expect, it } from '@jest/globals';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { cannedVerdict } from '../../test/support/fake-verdict-server.js';
import { isNew, run } from '../../test/support/gate-harness.js';

// The gate's own trouble after the first pass never changes the exit code: each fault below is
// fed in at one step of the pass, in both modes, and the first pass's exit code stands.
const flaky = (name: string, k: number) => (name === 'appliesDiscount' && k === 2 ? 'failure' : 'success');
const planDir = (args: string[]) => path.dirname(args.find((a) => a.startsWith('-PstressGate.plan='))!.split('=')[1]!);

describe.each(['report', 'enforce'])('the gate fails open in %s mode', (mode) => {
  const gated = ['--stress-new-tests', mode];

  it('a bug while reading the first pass (the quarantine list is not a set): "the gate could not run", first pass exit code', async () => {
    const r = await run(gated, { quarantine: { lists: async () => ({ ok: true, value: { muted: null as unknown as Set<string>, skipped: new Set<string>(), skippedTests: [], count: 0 } }) } });
    expect(r.code).toBe(0);
    expect(r.flat).toContain("The gate could not run: reading the first pass's results:");
    expect(r.report).toMatchObject({ outcome: 'gate_error', blocked: false, exitCode: 0 });
    expect(r.calls).toHaveLength(1);
  });

  it('a bug while uploading the run (CI detection throws): visible, the JSON report and gate upload still written', async () => {
    const r = await run(gated, { git: async () => { throw new TypeError("Cannot read properties of undefined (reading 'trim')"); } });
    expect(r.code).toBe(0);
    expect(r.flat).toContain("The gate could not run: uploading the run: Cannot read properties of undefined (reading 'trim')");
    expect(r.report).toMatchObject({ outcome: 'gate_error', stop: { kind: 'gate_error' } });
    // The verdict is still asked; the upload has failed by the time the stress pass would start, so it never runs.
    expect(r.requests.map((q) => q.url.split('/').pop())).toEqual(['verdict', 'gate']);
    expect(r.requests[1]!.body).toMatchObject({ outcome: 'gate_error', blocked: false });
    expect(r.calls).toHaveLength(1);
  });

  it('a verdict that names tests the run never reported: not stressed (gate error), never passed', async () => {
    const r = await run(gated, {
      verdict: (posted) => {
        const v = cannedVerdict(posted, isNew);
        return { ...v, candidates: v.candidates.map((c) => ({ ...c, name: `${c.name}Renamed` })) };
      },
    });
    expect(r.code).toBe(0);
    expect(r.report.candidates.map((c: { outcome: string }) => c.outcome)).toEqual(['error', 'error']);
    expect(r.out).not.toMatch(/, passed/);
  });

  it('the stress pass cannot be started (the runner throws): a gate error, first pass exit code', async () => {
    const r = await run(gated, { repStatus: flaky, stressThrows: new Error('spawn gradle EAGAIN') });
    expect(r.code).toBe(0);
    expect(r.flat).toContain('The gate could not run: deciding on the verdict: spawn gradle EAGAIN');
    expect(r.report.outcome).toBe('gate_error');
  });

  it('broken and unreadable repetition XML: those repetitions are gate errors, named, and block nothing', async () => {
    const r = await run(gated, {
      after: async (kind, args) => {
        if (kind !== 'stress') return;
        const rep3 = path.join(planDir(args), 'stress-results', 't0', 'rep-3');
        await writeFile(path.join(rep3, 'TEST-x.xml'), '<testsuite><testcase name="appliesDiscount"');
        const rep4 = path.join(planDir(args), 'stress-results', 't0', 'rep-4');
        await rm(path.join(rep4, 'TEST-x.xml'));
        await mkdir(path.join(rep4, 'TEST-x.xml'));
      },
      noStressLog: true,
    });
    expect(r.code).toBe(0);
    expect(r.flat).toMatch(/rep-3\/TEST-x\.xml: broken JUnit XML/);
    expect(r.flat).toMatch(/rep-4\/TEST-x\.xml: /);
    expect(r.out).toContain('8 of 10 repetitions, not stressed (gate error: 2 of 10 repetitions left no result)');
    expect(r.report).toMatchObject({ outcome: 'incomplete', blocked: false });
  });

  it('an unwritable JSON report and job summary, and a failing gate upload: warnings only', async () => {
    const blocker = path.join(os.tmpdir(), `not-a-dir-${process.pid}-${mode}`);
    await writeFile(blocker, 'x');
    const r = await run([...gated, '--report-file', path.join(blocker, 'report.json')], {
      env: { GITHUB_STEP_SUMMARY: os.tmpdir() },
      uploadStatus: 500,
    });
    expect(r.code).toBe(0);
    expect(r.err).toContain('warning: could not write the JSON report');
    expect(r.err).toContain('warning: could not append the job summary');
    expect(r.err).toContain('warning: the gated observation was not uploaded');
  });
});

describe('only a new test that disagreed with itself blocks', () => {
  it('enforce with a flaky candidate and a gate error beside it still blocks, for the flaky one', async () => {
    const r = await run(['--stress-new-tests', 'enforce'], { repStatus: (name, k) => (name === 'appliesDiscount' && k === 2 ? 'failure' : name === 'clearsCart' && k === 9 ? 'missing' : 'success') });
    expect(r.code).toBe(1);
    expect(r.report).toMatchObject({ outcome: 'failed', blocked: true });
  });
});
