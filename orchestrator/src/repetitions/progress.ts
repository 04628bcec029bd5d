// Progress of the stress pass on stderr, so a long pass never looks hung: on a terminal one live
// line (repetitions done of the total, failures so far, time left before the ceiling); in a CI
// log one plain line per finished batch (as many repetitions as run at a time).
import { formatDuration } from '../report/format.js';

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
  batch: number;
  deadlineAt: number;
  now: () => number;
}

/** Pure formatting of one progress sentence. */
export function progressLine(done: number, total: number, failures: number, leftMs: number): string {
  const failed = failures === 0 ? 'no failures' : `${failures} ${failures === 1 ? 'failure' : 'failures'}`;
  return `stress pass: ${done}/${total} repetitions, ${failed}, ${formatDuration(Math.max(0, leftMs))} left before the ceiling`;
}

/** A progress reporter; `total` 0 writes nothing. */
export function createProgress(o: ProgressOptions): Progress {
  let done = 0;
  let failures = 0;
  let shown = false;
  const line = () => progressLine(done, o.total, failures, o.deadlineAt - o.now());
  return {
    finished(f) {
      done++;
      failures += f;
      if (o.tty) {
        o.write(`\r\x1b[2K${line()}`);
        shown = true;
      } else if (done % Math.max(1, o.batch) === 0 || done === o.total) {
        o.write(`stress-gate: ${line()}\n`);
      }
    },
    end() {
      if (shown) o.write('\r\x1b[2K');
    },
  };
}
