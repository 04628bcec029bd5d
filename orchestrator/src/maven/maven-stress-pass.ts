// The Maven stress pass: no Maven at all. Repetition k of each fork's candidates is one fresh JVM
// started as Surefire started that fork (JVM, argLine, test classpath, system properties,
// environment, working directory), running exactly the candidates' unique IDs through the
// JUnit Platform launcher. Nothing is recompiled. Repetitions run one after another within the
// ceiling; a JVM that dies under a candidate is that candidate failing. The next repetition's JVM
// starts up (JVM, launcher, discovery) while the current one runs, and runs its tests only once
// told to, after the current JVM has exited: test code of two repetitions never overlaps.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import type { GateCandidate } from '../candidates/gate-candidate.js';
import type { Logger } from '../log.js';
import type { RecordedRepetition } from '../repetitions/read-repetitions.js';
import type { StressPassResult } from '../repetitions/run-stress-pass.js';
import { crashedTests, parseForkLog } from './fork-log.js';
import { archiveArgs, archiveState, type ClassArchive, makeArchives, planClassArchive } from '../repetitions/class-archive.js';
import { forkJava, jvmCommand, requestText, type JvmCommand } from './jvm-request.js';
import { sourceKey, type PlatformSource } from './maven-first-pass.js';
import type { MavenSetup } from './maven-setup.js';

/** How one JVM ended. */
export interface JvmRun {
  exitCode: number | null;
  killed: boolean;
}

/** A JVM started in standby: `go` lets it run its tests, `discard` lets it exit without running. */
export interface StandbyJvm {
  go(): void;
  discard(): void;
  done: Promise<JvmRun>;
}

/** Starts one JVM in standby; `stop` is aborted at the ceiling or on cancellation (it kills the JVM). */
export type JvmLauncher = (cmd: JvmCommand, logFile: string, stop: AbortSignal) => StandbyJvm;

/** The real launcher: output appended to the stress-pass log; SIGTERM, then SIGKILL 5 s later. */
export const launchJvm: JvmLauncher = (cmd, logFile, stop) => {
  const child = execa(cmd.file, cmd.args, {
    cwd: cmd.cwd,
    env: cmd.env,
    extendEnv: false,
    reject: false,
    stdin: 'pipe',
    stdout: { file: logFile, append: true },
    stderr: { file: logFile, append: true },
    cancelSignal: stop,
    forceKillAfterDelay: 5000,
  });
  // A JVM that died early closes its stdin: writing to it must not throw.
  child.stdin?.on('error', () => undefined);
  return {
    go: () => child.stdin?.end('go\n'),
    discard: () => child.stdin?.end(),
    done: child.then((r) => ({ exitCode: r.exitCode ?? null, killed: r.isCanceled || r.isTerminated })),
  };
};

/** What the stress pass needs. */
export interface MavenStressDeps {
  setup: MavenSetup;
  sources: ReadonlyMap<string, PlatformSource>;
  projectDir: string;
  logger: Logger;
  signal?: AbortSignal;
  launch?: JvmLauncher;
  now?: () => number;
  /** For the JDK class archive (its cache folder, STRESS_GATE_CLASS_ARCHIVE); none: no archive. */
  env?: NodeJS.ProcessEnv;
}

interface Group {
  id: string;
  fork: PlatformSource['fork'];
  task: string;
  members: { candidate: GateCandidate; uniqueId: string }[];
  repetitions: number;
}

/** Pure: the candidates grouped by the fork that ran them (one JVM per repetition and group). */
export function groupByFork(stress: readonly GateCandidate[], sources: ReadonlyMap<string, PlatformSource>): { groups: Group[]; unknown: GateCandidate[] } {
  const byFork = new Map<string, Group>();
  const unknown: GateCandidate[] = [];
  for (const c of stress) {
    const src = c.source ? sources.get(sourceKey(c.source.task, c.suite, c.source.xmlName, c.source.occurrence)) : undefined;
    if (!src || !c.repetitions) {
      unknown.push(c);
      continue;
    }
    const g = byFork.get(src.forkFile) ?? { id: `g${byFork.size}`, fork: src.fork, task: c.source!.task, members: [], repetitions: 0 };
    g.members.push({ candidate: c, uniqueId: src.uniqueId });
    g.repetitions = Math.max(g.repetitions, c.repetitions);
    byFork.set(src.forkFile, g);
  }
  return { groups: [...byFork.values()], unknown };
}

/** Runs every candidate's repetitions within `ceilingSeconds`. */
export async function runMavenStressPass(stress: readonly GateCandidate[], ceilingSeconds: number, deps: MavenStressDeps): Promise<StressPassResult> {
  const log = deps.logger.child({ module: 'maven-stress-pass' });
  const now = deps.now ?? Date.now;
  const launch = deps.launch ?? launchJvm;
  const started = now();
  const repetitions = new Map<string, RecordedRepetition[]>(stress.map((c) => [c.testCaseId, []]));
  const { groups, unknown } = groupByFork(stress, deps.sources);
  const problems: string[] = [];
  if (unknown.length) {
    problems.push(`${unknown.length} new test(s) ran without the stress gate's JUnit Platform listener (a JUnit 4 or TestNG provider, or a POM that sets additionalClasspathElements), so they cannot be selected: ${unknown.map((c) => `${c.suite}.${c.name}`).join(', ')}.`);
  }
  const logFile = path.join(deps.projectDir, 'target', 'stress-gate', 'stress-pass.log');
  await mkdir(path.dirname(logFile), { recursive: true });
  await writeFile(logFile, '');
  const resultsDir = path.join(deps.setup.workDir, 'stress-results');
  await mkdir(resultsDir, { recursive: true });

  const stop = new AbortController();
  let cut = false;
  const ceiling = setTimeout(() => {
    cut = true;
    log.info({ ceilingSeconds }, 'ceiling reached: stopping the repetition JVM');
    stop.abort('ceiling');
  }, ceilingSeconds * 1000);
  const onCancel = () => stop.abort('cancelled');
  if (deps.signal?.aborted) onCancel();
  else deps.signal?.addEventListener('abort', onCancel, { once: true });
  let lastExit = 0;
  const max = Math.max(0, ...groups.map((g) => g.repetitions));
  const jobs: { k: number; g: Group; members: Group['members'] }[] = [];
  for (let k = 1; k <= max; k++) {
    for (const g of groups) {
      const members = g.members.filter((m) => (m.candidate.repetitions ?? 0) >= k);
      if (members.length) jobs.push({ k, g, members });
    }
  }
  const outFile = (j: (typeof jobs)[number]) => path.join(resultsDir, j.g.id, `rep-${j.k}.jsonl`);
  // The JDK class archive per fork (repetitions/class-archive.ts): mapped by every JVM, or recorded by the fork's first.
  const archives = new Map<string, ClassArchive>();
  if (deps.env) {
    for (const g of groups) archives.set(g.id, await planClassArchive({ executable: forkJava(g.fork), jvmArgs: g.fork.inputArguments }, deps.setup.workDir, deps.env, log));
  }
  const extraArgs = archiveArgs(archives);
  const start = async (j: (typeof jobs)[number]): Promise<StandbyJvm> => {
    const request = path.join(resultsDir, j.g.id, `rep-${j.k}.request`);
    await mkdir(path.dirname(request), { recursive: true });
    await writeFile(request, `wait\n${requestText(j.g.fork, j.members.map((m) => m.uniqueId), outFile(j))}`);
    return launch(jvmCommand(j.g.fork, deps.setup.runnerJar, request, extraArgs(j.g.id)), logFile, stop.signal);
  };
  let next: StandbyJvm | null = jobs.length && !stop.signal.aborted ? await start(jobs[0]!) : null;
  try {
    for (let i = 0; i < jobs.length && next && !stop.signal.aborted; i++) {
      const { k, g, members } = jobs[i]!;
      const current = next;
      current.go();
      next = i + 1 < jobs.length ? await start(jobs[i + 1]!) : null;
      const run = await current.done;
      const text = await readFile(outFile(jobs[i]!), 'utf8').catch(() => null);
      const rep = text === null ? null : parseForkLog(text, outFile(jobs[i]!));
      const crashed = new Set(rep ? crashedTests(rep).map((t) => t.uniqueId) : []);
      for (const m of members) {
        const finished = rep?.finished.filter((f) => f.uniqueId === m.uniqueId) ?? [];
        if (finished.length === 0) {
          // Running when its JVM died (System.exit, an OOM kill, a crash): the test failed. Not
          // when the gate itself stopped that JVM (ceiling, cancellation).
          if (crashed.has(m.uniqueId) && !run.killed) repetitions.get(m.candidate.testCaseId)!.push({ repetition: k, status: 'failure', durationMs: 0, crashed: true });
          continue;
        }
        const ran = finished.filter((f) => f.status !== 'skipped');
        if (!ran.length) continue; // skipped (an assumption failed): it did not run, absent
        const status = ran.some((f) => f.status === 'failure') ? 'failure' : 'success';
        repetitions.get(m.candidate.testCaseId)!.push({ repetition: k, status, durationMs: ran[ran.length - 1]!.durationMs });
      }
      if (!run.killed && run.exitCode !== 0) {
        lastExit = run.exitCode ?? 1;
        if (!crashed.size) problems.push(`Repetition ${k} of ${g.task} (${members.length} test(s)): its JVM exited with code ${run.exitCode ?? 'none'} without reporting them; see ${logFile}.`);
      }
    }
  } finally {
    // A standby JVM that will not run: let it exit (the stop signal kills it if it was cut).
    if (next) {
      next.discard();
      await next.done;
    }
    clearTimeout(ceiling);
    deps.signal?.removeEventListener('abort', onCancel);
  }
  const cancelled = deps.signal?.aborted ?? false;
  const jvms = stress.reduce((n, c) => n + (c.repetitions ?? 0), 0);
  const wallClockMs = now() - started;
  // Made after the pass, beside the rest of the run.
  const archiving = makeArchives(archives, cut || cancelled, deps.signal);
  return {
    repetitions,
    cut: cut && !cancelled,
    cancelled,
    wallClockMs,
    gradleExitCode: lastExit,
    problems,
    executor: 'direct',
    concurrency: 1,
    fallback: null,
    confirmedAlone: 0,
    jvms,
    archiving,
    ...(archives.size ? { classArchive: archiveState(archives) } : {}),
  };
}
