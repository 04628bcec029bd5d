// Pure: the stress plan as JVM launches. Job = repetition k of one planned Test task, running the
// candidates with repetitions >= k in one fresh JVM (the same unit as the Gradle executor's task).
import type { ForkSpec } from './fork-spec.js';
import { repetitionTaskPath } from './read-repetitions.js';
import type { StressPlan } from './stress-plan.js';

/** The class the runner starts, shipped in the plugin jar. */
export const RUNNER_CLASS = 'dev.stressgate.runner.RepetitionRunner';

/** One repetition JVM to start. */
export interface RepetitionJob {
  taskPath: string;
  id: string;
  repetition: number;
  /** The label its results carry: the Gradle executor's task path for the same repetition. */
  label: string;
  candidates: { suite: string; name: string }[];
}

/** Every job of the plan, ordered by repetition then task, so each task's early repetitions start first. */
export function repetitionJobs(plan: StressPlan): RepetitionJob[] {
  const jobs: RepetitionJob[] = [];
  const max = Math.max(0, ...plan.tasks.flatMap((t) => t.candidates.map((c) => c.repetitions)));
  for (let k = 1; k <= max; k++) {
    for (const t of plan.tasks) {
      const candidates = t.candidates.filter((c) => c.repetitions >= k).map(({ suite, name }) => ({ suite, name }));
      if (candidates.length) jobs.push({ taskPath: t.path, id: t.id, repetition: k, label: repetitionTaskPath(t.path, t.id, k), candidates });
    }
  }
  return jobs;
}

/** The runner's spec file: one `urlencoded(suite) urlencoded(name)` line per candidate. */
export function runnerSpec(job: RepetitionJob): string {
  return job.candidates.map((c) => `${encodeURIComponent(c.suite)} ${encodeURIComponent(c.name)}\n`).join('');
}

/**
 * `java <all JVM args> [gate's class-sharing options] -cp <test runtime classpath>:<runner jar> RepetitionRunner spec results label`.
 */
export function jvmCommand(
  spec: ForkSpec,
  runnerJar: string,
  files: { spec: string; results: string },
  label: string,
  delimiter = ':',
  extraJvmArgs: readonly string[] = [],
): { file: string; args: string[] } {
  const classpath = [...spec.classpath, runnerJar].join(delimiter);
  return { file: spec.executable, args: [...spec.jvmArgs, ...extraJvmArgs, '-cp', classpath, RUNNER_CLASS, files.spec, files.results, label] };
}
