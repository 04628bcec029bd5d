// Cancellation: a CI job cancelled sends SIGINT or SIGTERM. The entry point turns them into an
// AbortSignal whose reason is the signal's name; the gate checks it between steps.

/** The signals that cancel a run. */
export type CancelSignal = 'SIGINT' | 'SIGTERM';

/** The signal that cancelled the run, or null while it goes on. */
export function cancelled(signal: AbortSignal | undefined): CancelSignal | null {
  if (!signal?.aborted) return null;
  return signal.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT';
}

/** 130 for SIGINT, 143 for SIGTERM: 128 + the signal's number, as shells report it. */
export function exitCodeForSignal(signal: CancelSignal): number {
  return signal === 'SIGTERM' ? 143 : 130;
}

/** An AbortController aborted with the signal's name on the first SIGINT or SIGTERM of `proc`. */
export function cancelOnSignals(proc: NodeJS.Process = process): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const handlers = (['SIGINT', 'SIGTERM'] as const).map((name) => {
    const handler = () => {
      if (controller.signal.aborted) {
        // A second signal: the user insists; stop waiting for the build tool to wind down.
        proc.exit(exitCodeForSignal(name));
      }
      controller.abort(name);
    };
    proc.on(name, handler);
    return () => proc.off(name, handler);
  });
  return { signal: controller.signal, dispose: () => handlers.forEach((off) => off()) };
}
