// The report's part of a stress pass, the same for the gate and for `--stress-tests`.
import type { GateReport } from '../report/gate-report.js';
import type { RepetitionTiming, StressPassResult } from '../repetitions/stress-pass-result.js';

/** The report's part of a stress pass. */
export function stressPassSummary(pass: StressPassResult, concurrency = pass.concurrency): NonNullable<GateReport['stressPass']> {
  return {
    wallClockMs: pass.wallClockMs,
    cut: pass.cut,
    ...(pass.stoppedAtFailure ? { stoppedAtFailure: true } : {}),
    // The JSON report keeps its field name: the Gradle executor is the only one with a build of its own.
    gradleExitCode: pass.buildExitCode,
    executor: pass.executor,
    jvms: pass.jvms,
    ...(pass.jvmsAlone ? { jvmsAlone: pass.jvmsAlone, aloneMs: pass.aloneMs ?? 0 } : {}),
    jvmsAtATime: Math.min(concurrency, pass.concurrency),
    confirmedAlone: pass.confirmedAlone,
    fallback: pass.fallback,
    ...(pass.halted ? { halted: pass.halted } : {}),
    ...(pass.classArchive ? { classArchive: pass.classArchive } : {}),
    ...(pass.timing?.jvms ? { perJvmMs: perJvm(pass.timing) } : {}),
  };
}

function perJvm(t: RepetitionTiming): NonNullable<NonNullable<GateReport['stressPass']>['perJvmMs']> {
  const avg = (ms: number) => Math.round(ms / t.jvms);
  return { jvms: t.jvms, start: avg(t.startMs), discovery: avg(t.discoveryMs), tests: avg(t.testsMs), exit: avg(t.exitMs) };
}
