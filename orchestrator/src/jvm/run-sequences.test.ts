import { describe, expect, it } from '@jest/globals';
import { readSteps } from './run-sequences.js';
import type { Selection } from './stress-target.js';

const a: Selection = { kind: 'junit4', className: 'shop.CartTest', name: 'leaves' };
const b: Selection = { kind: 'junit4', className: 'shop.CartTest', name: 'needsClean' };
const exit = { exitCode: 0, signal: null, killed: false, startError: null, pid: 1 };
const output = { stdoutTail: null, stderrTail: 'bye' };
const line = (o: object) => JSON.stringify(o);
const step = (i: number) => `{"event":"step","index":${i}}`;
const started = (s: { className: string; name: string }) => line({ event: 'started', className: s.className, name: s.name });
const finished = (s: { className: string; name: string }, result: string, failure?: object) => line({ event: 'finished', className: s.className, name: s.name, result, durationMs: 3, ...(failure ? { failure } : {}) });

describe('readSteps', () => {
  it('reads each step of a sequence apart, a repeated test included, by its step lines', () => {
    const text = [line({ event: 'jvm' }), step(0), started(b), finished(b, 'SUCCESS'), step(1), started(a), finished(a, 'SUCCESS'), step(2), started(b), finished(b, 'FAILURE', { type: 'java.lang.AssertionError', message: 'dirty', trace: 'x' })].join('\n');
    const steps = readSteps([b, a, b], text, 'results.jsonl', exit, output);
    expect(steps.map((s) => s.status)).toEqual(['success', 'success', 'failure']);
    expect(steps[2]).toMatchObject({ failure: { kind: 'failure', type: 'java.lang.AssertionError', message: 'dirty', stderrTail: 'bye' } });
  });

  it('a JVM that died under a step: that step crashed, the later ones did not run, with why', () => {
    const text = [step(0), started(a), finished(a, 'SUCCESS'), step(1), started(b)].join('\n');
    const steps = readSteps([a, b, a], text, 'results.jsonl', { ...exit, exitCode: 3 }, output);
    expect(steps[1]).toMatchObject({ status: 'failure', failure: { kind: 'crash', exitCode: 3 } });
    expect(steps[2]).toEqual({ status: 'not_run', why: 'the JVM ended (code 3) before this step', killed: false });
  });

  it('a JVM the gate stopped: its unfinished steps did not run and say so (killed); a step the runner could not select says the runner\'s words', () => {
    const killed = readSteps([a, b], [step(0), started(a)].join('\n'), 'r', { ...exit, killed: true, exitCode: null, signal: 'SIGKILL' }, output);
    expect(killed.every((s) => s.status === 'not_run' && s.killed)).toBe(true);
    const unrunnable = readSteps([a], [step(0), line({ event: 'unrunnable', selector: 'shop.CartTest\tleaves', cause: 'JUnit 4 found no such test in its class' })].join('\n'), 'r', exit, output);
    expect(unrunnable[0]).toEqual({ status: 'not_run', why: 'JUnit 4 found no such test in its class', killed: false });
  });
});
