// Versions for ReplacingMergeTree rows: a newer write of the same key must win, even within
// one millisecond, so versions are microsecond-scaled and strictly increasing per process.

let lastVersion = 0;
/** A strictly increasing version for ReplacingMergeTree rows written by this process. */
export function nextVersion(): number {
  lastVersion = Math.max(lastVersion + 1, Date.now() * 1000);
  return lastVersion;
}
