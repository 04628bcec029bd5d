// A class-data-sharing archive of the JDK classes the repetitions load, made once per JDK (and per
// set of -X options) and kept in the user's cache. Every repetition JVM of the direct executor
// maps it instead of loading and linking those classes again: 10 repetition JVMs of 3 fast JUnit 4
// tests, 2 at a time on 2 cores, took 3.6 -> 3.3 s of CPU and 2.0 -> 1.8 s of wall started by
// xargs; through the gate (bench-executors, paired runs) the pass took 5-10% less.
//
// Fidelity: the archive holds only JDK classes, byte for byte the JDK's own (the JVM checks the
// archive against the JDK and maps nothing when they differ), as the JDK's default archive already
// does for its ~1,300 startup classes. The task's classpath is never archived (JDK 17 refuses
// archives of class directories anyway). A task that sets its own class sharing is left alone.
//
// Made from what a real repetition loaded: when no archive exists yet, the pass's first JVM of the
// task records its class list (-XX:DumpLoadedClassList), and after the pass the archive is dumped
// from it (about 0.7 s of CPU, beside the rest of the run), checked with -Xshare:on, and moved into
// the cache. A failure is remembered for that key and never retried: the JVMs run as before.
import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { booleanEnv } from '../config/environment.js';
import type { Logger } from '../log.js';

/** How one Test task's repetition JVMs use the archive. */
export type ClassArchive =
  /** Every JVM maps the archive at `file`. */
  | { state: 'use'; file: string; args: string[] }
  /** The first JVM records its class list to `list`; `make` dumps the archive from it afterwards. */
  | { state: 'record'; list: string; recordArgs: string[]; make: (signal?: AbortSignal) => Promise<string | null> }
  /** No archive, and why (logged at debug). */
  | { state: 'off'; why: string };

/** Where archives are kept: STRESS_GATE_CACHE_DIR, else $XDG_CACHE_HOME/stress-gate, else ~/.cache/stress-gate. */
export function cacheDir(env: NodeJS.ProcessEnv): string {
  if (env.STRESS_GATE_CACHE_DIR) return env.STRESS_GATE_CACHE_DIR;
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'stress-gate');
}

/** Options the task sets that decide class sharing itself: then the gate adds none. */
const OWN_SHARING = /^-Xshare|^-XX:[+-]?(SharedArchiveFile|SharedClassListFile|ArchiveClassesAtExit|DumpLoadedClassList|AutoCreateSharedArchive|UseSharedSpaces)/;

/** Longest a dump or its check may take. */
const MAKE_TIMEOUT_MS = 60_000;

/** What decides the archive: the JVM, and the options its repetition JVMs start with. */
export type ArchiveJvm = { executable: string; jvmArgs: readonly string[] };

/** Decides, for one task's (or fork's) JVM, whether its repetition JVMs use, record or skip the archive. */
export async function planClassArchive(spec: ArchiveJvm, workDir: string, env: NodeJS.ProcessEnv, logger: Logger): Promise<ClassArchive> {
  if (!booleanEnv(env, 'STRESS_GATE_CLASS_ARCHIVE', true)) return { state: 'off', why: 'STRESS_GATE_CLASS_ARCHIVE is off' };
  if (spec.jvmArgs.some((a) => OWN_SHARING.test(a))) return { state: 'off', why: 'the task sets its own class sharing' };
  // -X options (heap, GC, compressed pointers…) decide whether an archive maps: the dump and its check use the task's.
  const xArgs = spec.jvmArgs.filter((a) => a.startsWith('-X'));
  let java: string;
  let modules: { size: number; mtimeMs: number };
  try {
    java = await realpath(spec.executable);
    // The JDK's module image: a JDK update replaces it, and the key with it. JDK 8 has none (no archive).
    modules = await stat(path.join(path.dirname(path.dirname(java)), 'lib', 'modules'));
  } catch (e) {
    return { state: 'off', why: `no JDK module image beside ${spec.executable} (${(e as Error).message})` };
  }
  const key = createHash('sha256').update(JSON.stringify([java, modules.size, modules.mtimeMs, xArgs])).digest('hex').slice(0, 20);
  const dir = path.join(cacheDir(env), 'jdk-class-archives');
  const file = path.join(dir, `${key}.jsa`);
  if (await exists(file)) return { state: 'use', file, args: [`-XX:SharedArchiveFile=${file}`] };
  const failed = path.join(dir, `${key}.failed`);
  if (await exists(failed)) return { state: 'off', why: `making it failed before: ${(await readFile(failed, 'utf8').catch(() => '')).trim()}` };
  const list = path.join(workDir, `class-list-${key}.txt`);
  const make = async (signal?: AbortSignal): Promise<string | null> => {
    // A first JVM stopped early (ceiling, cancel, crash) may have left no list, or half of one: try again next time.
    if (!((await stat(list).catch(() => null))?.size ?? 0)) return null;
    // Its own name: two runs of the gate (processes, or one process's tests) may dump the same key at once.
    const tmp = `${file}.${process.pid}-${randomUUID()}.tmp`;
    try {
      await mkdir(dir, { recursive: true });
      await run(java, [...xArgs, '-Xshare:dump', `-XX:SharedClassListFile=${list}`, `-XX:SharedArchiveFile=${tmp}`], signal);
      // The check: -Xshare:on refuses to start when the archive does not map.
      await run(java, [...xArgs, '-Xshare:on', `-XX:SharedArchiveFile=${tmp}`, '-version'], signal);
      await rename(tmp, file);
      logger.info({ file }, 'JDK class archive made: the next stress passes map it');
      return file;
    } catch (e) {
      await rm(tmp, { force: true }).catch(() => undefined);
      // Cancelled (the run was stopped): nothing is known about this JDK; the next run records again.
      if (signal?.aborted) return null;
      const why = (e as Error).message.split('\n')[0]!.slice(0, 500);
      await writeFile(failed, `${why}\n`).catch(() => undefined);
      logger.info({ why }, 'JDK class archive not made: the stress passes run without it');
      return null;
    }
  };
  return { state: 'record', list, recordArgs: [`-XX:DumpLoadedClassList=${list}`], make };
}

/**
 * The gate's class-sharing options of one JVM of `key` (a task or a fork): the archive's when it
 * is used, the recording options for the key's first JVM when it is recorded, else none.
 */
export function archiveArgs(archives: ReadonlyMap<string, ClassArchive>): (key: string) => readonly string[] {
  const recording = new Set<string>();
  return (key) => {
    const a = archives.get(key);
    if (a?.state === 'use') return a.args;
    if (a?.state !== 'record' || recording.has(key)) return [];
    recording.add(key);
    return a.recordArgs;
  };
}

/** Makes the recorded archives after a pass (none after a pass cut or cancelled); never rejects. */
export function makeArchives(archives: ReadonlyMap<string, ClassArchive>, stopped: boolean, signal?: AbortSignal): Promise<void> {
  if (stopped) return Promise.resolve();
  return Promise.all([...archives.values()].flatMap((a) => (a.state === 'record' ? [a.make(signal)] : []))).then(() => undefined);
}

/** The archives a build's stress passes are still making: awaited before the run's temp dir goes (BuildAdapter.settle). */
export class ArchivesInProgress {
  private readonly pending: Promise<void>[] = [];

  /** Notes what `pass` left being made; returns the pass. */
  track<P extends { archiving?: Promise<void> }>(pass: P): P {
    if (pass.archiving) this.pending.push(pass.archiving.catch(() => undefined));
    return pass;
  }

  /** Resolves when every noted archive is made or given up; never rejects. */
  async settle(): Promise<void> {
    await Promise.all(this.pending);
  }
}

/** One word for the report: every task maps an archive, some task recorded one, or none is used. */
export function archiveState(archives: ReadonlyMap<string, ClassArchive>): 'used' | 'recorded' | 'off' {
  const states = [...archives.values()].map((a) => a.state);
  if (states.length > 0 && states.every((s) => s === 'use')) return 'used';
  return states.includes('record') ? 'recorded' : 'off';
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

function run(file: string, args: string[], signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { timeout: MAKE_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024, ...(signal ? { signal } : {}) }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${path.basename(file)} ${args.join(' ')}: ${error.message} ${`${stderr}${stdout}`.trim().slice(-400)}`));
      else resolve();
    });
  });
}
