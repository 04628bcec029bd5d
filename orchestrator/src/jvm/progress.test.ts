import { describe, expect, it } from '@jest/globals';
import { createProgress, progressLine, QUIET_MS } from './progress.js';

/** A stand-in for process.stderr: what was written, and whether it is a terminal. */
function fakeStream(isTTY: boolean) {
  const chunks: string[] = [];
  return {
    isTTY,
    chunks,
    write: (text: string) => void chunks.push(text),
    /** What a terminal shows on the cursor's line: the text after the last carriage return. */
    screenLine: () => chunks.join('').split('\r').at(-1)!.replace('\x1b[2K', ''),
  };
}

function progressOn(stream: ReturnType<typeof fakeStream>, total: number, clock: { now: number }, title?: string) {
  return createProgress({ write: stream.write, tty: stream.isTTY, total, deadlineAt: 600_000, now: () => clock.now, title });
}

describe('progress', () => {
  it('words a progress line', () => {
    expect(progressLine(3, 10, 1, 65_000)).toMatch(/^stress pass: 3\/10 repetitions, 1 failure, .+ left before the ceiling$/);
    expect(progressLine(3, 10, 0, null, 'stress pass, again alone')).toBe('stress pass, again alone: 3/10 repetitions, no failures');
  });

  it('on a terminal keeps one line, rewritten in place, and clears it at the end', () => {
    const stream = fakeStream(true);
    const clock = { now: 0 };
    const p = progressOn(stream, 85, clock);
    expect(stream.screenLine()).toMatch(/^stress pass: 0\/85 repetitions, no failures/);
    for (let i = 0; i < 85; i++) {
      clock.now += 100;
      p.finished(i === 40 ? 1 : 0);
    }
    expect(stream.chunks.join('')).not.toContain('\n');
    expect(stream.chunks.every((c) => c.startsWith('\r\x1b[2K'))).toBe(true);
    expect(stream.screenLine()).toMatch(/^stress pass: 85\/85 repetitions, 1 failure, 9m 52s left before the ceiling$/);
    p.end();
    expect(stream.screenLine()).toBe('');
  });

  it('in a CI log writes a line at each quarter of the pass, not one a JVM', () => {
    const stream = fakeStream(false);
    const clock = { now: 0 };
    const p = progressOn(stream, 200, clock);
    for (let i = 0; i < 200; i++) {
      clock.now += 100;
      p.finished(i === 10 ? 1 : 0);
    }
    p.end();
    expect(stream.chunks.map((c) => c.replace(/, [^,]* left before the ceiling\n$/, ''))).toEqual(
      ['50/200 repetitions, 1 failure', '100/200 repetitions, 1 failure', '150/200 repetitions, 1 failure', '200/200 repetitions, 1 failure'].map((l) => `stress-gate: stress pass: ${l}`),
    );
    expect(stream.chunks.every((c) => c.endsWith('\n') && !c.includes('\r'))).toBe(true);
  });

  it('in a CI log says the pass is alive after 30 s of silence, and no more often', () => {
    const stream = fakeStream(false);
    const clock = { now: 0 };
    const p = progressOn(stream, 100, clock, 'stress pass, again alone');
    for (let i = 0; i < 20; i++) {
      clock.now += QUIET_MS / 4; // a slow JVM every 7.5 s: 150 s for 20
      p.finished(0);
    }
    // 20 of 100 is short of the first quarter: one line each 30 s (4 JVMs), so 5.
    expect(stream.chunks).toHaveLength(5);
    expect(stream.chunks[0]).toMatch(/^stress-gate: stress pass, again alone: 4\/100 repetitions, no failures/);
  });

  it('a small pass in a CI log still ends on its last line; an empty pass writes nothing', () => {
    const stream = fakeStream(false);
    const p = progressOn(stream, 3, { now: 0 });
    for (let i = 0; i < 3; i++) p.finished(0);
    expect(stream.chunks.at(-1)).toMatch(/^stress-gate: stress pass: 3\/3 repetitions/);
    const quiet = fakeStream(true);
    progressOn(quiet, 0, { now: 0 }).end();
    expect(quiet.chunks).toEqual([]);
  });
});
