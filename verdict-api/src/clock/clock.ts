// Time as a dependency: the flakiness machinery (marks, cooldown, expiry) reads the clock it is
// given, so tests drive it deterministically.

/** Returns the current time. */
export type Clock = () => Date;

/** The wall clock. */
export const systemClock: Clock = () => new Date();

/** A day in milliseconds. */
export const DAY_MS = 86_400_000;
