// Progress of the stress pass on stderr, so a long pass never looks hung: on a terminal one live
// line (repetitions done of the total, failures so far, time left before the ceiling); in a CI
// log a plain line at each tenth of the pass and at least every 10 s, and one at the end (a
// line per JVM would bury the log: a pass of 20 candidates starts 200).
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
const EVERY_MS = 10_000;

/** A progress reporter; `total` 0 writes nothing. */
export function createProgress(o: ProgressOptions): Progress {
  let done = 0;
  let failures = 0;
  let shown = false;
  let lastAt = o.now();
  let lastTenth = 0;
  const line = () => progressLine(done, o.total, failures, o.deadlineAt === null ? null : o.deadlineAt - o.now(), o.title);
  return {
    finished(f) {
      done++;
      failures += f;
      if (o.tty) {
        o.write(`\r\x1b[2K${line()}`);
        shown = true;
      } else {
        const tenth = Math.floor((done * 10) / Math.max(1, o.total));
        if (tenth > lastTenth || done === o.total || o.now() - lastAt >= EVERY_MS) {
          o.write(`stress-gate: ${line()}\n`);
          lastTenth = tenth;
          lastAt = o.now();
        }
      }
    },
    end() {
      if (shown) o.write('\r\x1b[2K');
    },
  };
}
