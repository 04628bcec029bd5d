// Progress of the stress pass on stderr, so a long pass never looks hung. On a terminal: one
// live line, rewritten in place (carriage return, clear line) as each repetition JVM finishes, and
// cleared at the end (the report follows). In a CI log, where a carriage return is just another
// line: a plain line at each quarter of the pass, another only after 30 s of silence, so a pass of
// 200 JVMs prints about 4 lines, never one a JVM.
import { formatDuration } from '../format/format.js';

/** Reports finished repetitions. */
export interface Progress {
  /** One repetition JVM finished; `failures` is how many candidate runs failed in it. */
  finished(failures: number): void;
  /** The pass is over: ends the live line. */
  end(): void;
}

/** Where and how to write. */
export interface ProgressOptions {
  write: (text: string) => void;
  /** stderr is a terminal: one live line; else sparse plain lines. */
  tty: boolean;
  total: number;
  /** The ceiling's time; null: none (the line says nothing of it). */
  deadlineAt: number | null;
  now: () => number;
  /** What the line calls the pass; default `stress pass`. */
  title?: string;
}

/** Pure formatting of one progress sentence. */
export function progressLine(done: number, total: number, failures: number, leftMs: number | null, title = 'stress pass'): string {
  const failed = failures === 0 ? 'no failures' : `${failures} ${failures === 1 ? 'failure' : 'failures'}`;
  return `${title}: ${done}/${total} repetitions, ${failed}${leftMs === null ? '' : `, ${formatDuration(Math.max(0, leftMs))} left before the ceiling`}`;
}

/** In a CI log, the longest silence between two progress lines. */
export const QUIET_MS = 30_000;
/** In a CI log, a line at each of this many parts of the pass. */
const PARTS = 4;
/** The terminal's escape: back to the line's start and clear it. */
const CLEAR = '\r\x1b[2K';

/** A progress reporter; `total` 0 writes nothing. */
export function createProgress(o: ProgressOptions): Progress {
  let done = 0;
  let failures = 0;
  let shown = false;
  let lastAt = o.now();
  let lastPart = 0;
  const line = () => progressLine(done, o.total, failures, o.deadlineAt === null ? null : o.deadlineAt - o.now(), o.title);
  if (o.tty && o.total > 0) {
    o.write(`${CLEAR}${line()}`);
    shown = true;
  }
  return {
    finished(f) {
      done++;
      failures += f;
      if (o.tty) {
        o.write(`${CLEAR}${line()}`);
        shown = true;
        return;
      }
      const part = Math.floor((done * PARTS) / Math.max(1, o.total));
      if (part > lastPart || done === o.total || o.now() - lastAt >= QUIET_MS) {
        o.write(`stress-gate: ${line()}\n`);
        lastPart = part;
        lastAt = o.now();
      }
    },
    end() {
      if (shown) o.write(CLEAR);
      shown = false;
    },
  };
}
