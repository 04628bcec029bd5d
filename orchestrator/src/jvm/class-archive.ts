// A class-data-sharing archive of the classes a target's repetition JVMs load: the JDK's and those
// of the jars on its class path (JUnit, the JUnit Platform and its engines, the runner, the
// project's libraries), made once per JVM, options and jars, and kept in the user's cache. Every
// repetition JVM maps it instead of loading, parsing and verifying those classes again: a JVM of 3
// fast JUnit 4 tests took 150 ms of CPU with the JDK's default archive and about 95 ms with it
// (docs/benchmarks.md).
//
// The class path is laid out first (class-path-layout.ts): the JDK archives only jars that lead the
// class path, so the build's class directories move after the jars when no name is in both.
//
// Fidelity: the archive holds the classes byte for byte as the jars and the JDK have them,
// verified when the archive is dumped as the JVM verifies them when it loads them (-Xshare never
// skips verification; no -Xverify option is given). The JVM checks the archive against the JDK and
// each jar's size and modification time, and maps nothing when one differs. Classes of the class
// directories are never archived: a changed class file is always read from its directory. A task
// that sets its own class sharing is left alone.
//
// Made from what a real repetition loaded: when no archive exists yet, the target's first JVM
// records its class list (-XX:DumpLoadedClassList); as soon as it ends the archive is dumped from
// it (0.4-1 s of CPU), checked with -Xshare:on and moved into the cache, and the JVMs that start
// after that map it, when enough of them are left to repay the dump (else it is made after the
// pass, for the next one). A failure is remembered for that key and never retried: the JVMs run
// as before.
import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, realpath, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { booleanEnv } from '../config/environment.js';
import type { Logger } from '../base/log.js';
import { type ClassPathLayout, layoutClassPath } from './class-path-layout.js';

/** How one target's repetition JVMs use the archive; each with the class path they start with. */
export type ClassArchive =
  /** Every JVM maps the archive at `file`. */
  | { state: 'use'; file: string; args: string[]; layout: ClassPathLayout }
  /** The first JVM records its class list to `list`; `make` dumps the archive from it. */
  | { state: 'record'; list: string; recordArgs: string[]; make: (signal?: AbortSignal) => Promise<string | null>; layout: ClassPathLayout }
  /** No archive, and why (logged at debug). */
  | { state: 'off'; why: string; layout: ClassPathLayout };

/** Where archives are kept: STRESS_GATE_CACHE_DIR, else $XDG_CACHE_HOME/stress-gate, else ~/.cache/stress-gate. */
export function cacheDir(env: NodeJS.ProcessEnv): string {
  if (env.STRESS_GATE_CACHE_DIR) return env.STRESS_GATE_CACHE_DIR;
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'stress-gate');
}

/** Options the task sets that decide class sharing itself: then the gate adds none. */
const OWN_SHARING = /^-Xshare|^-XX:[+-]?(SharedArchiveFile|SharedClassListFile|ArchiveClassesAtExit|DumpLoadedClassList|AutoCreateSharedArchive|UseSharedSpaces)/;

/** Longest a dump or its check may take. */
const MAKE_TIMEOUT_MS = 60_000;

/** Archives kept in the cache, the most recently used (10-60 MB each). */
export const KEPT_ARCHIVES = 8;

/** What decides the archive: the JVM, the options its repetition JVMs start with, and their class path (the runner jar in it). */
export type ArchiveJvm = { executable: string; jvmArgs: readonly string[]; classpath: readonly string[] };

const asIs = (classpath: readonly string[]): ClassPathLayout => ({ runtime: [...classpath], archived: [], reordered: false });

/** Decides, for one task's (or fork's) JVM, whether its repetition JVMs use, record or skip the archive. */
export async function planClassArchive(spec: ArchiveJvm, workDir: string, env: NodeJS.ProcessEnv, logger: Logger): Promise<ClassArchive> {
  if (!booleanEnv(env, 'STRESS_GATE_CLASS_ARCHIVE', true)) return { state: 'off', why: 'STRESS_GATE_CLASS_ARCHIVE is off', layout: asIs(spec.classpath) };
  if (spec.jvmArgs.some((a) => OWN_SHARING.test(a))) return { state: 'off', why: 'the task sets its own class sharing', layout: asIs(spec.classpath) };
  // -X options (heap, GC, compressed pointers…) decide whether an archive maps: the dump and its check use the task's.
  // Logging options are not: a dump must not write into the build's own log files.
  const xArgs = spec.jvmArgs.filter((a) => a.startsWith('-X') && !/^-Xlog|^-Xloggc/.test(a));
  let java: string;
  let modules: { size: number; mtimeMs: number };
  try {
    java = await realpath(spec.executable);
    // The JDK's module image: a JDK update replaces it, and the key with it. JDK 8 has none (no archive).
    modules = await stat(path.join(path.dirname(path.dirname(java)), 'lib', 'modules'));
  } catch (e) {
    return { state: 'off', why: `no JDK module image beside ${spec.executable} (${(e as Error).message})`, layout: asIs(spec.classpath) };
  }
  const layout = await layoutClassPath(spec.classpath);
  if (layout.kept) logger.debug({ why: layout.kept }, 'the class path keeps its order: the archive holds only the jars leading it');
  // Each archived jar by size and modification time, as the JVM checks them: a rebuilt jar is another archive.
  const jars = await Promise.all(layout.archived.map(async (j) => stat(j).then((s) => [j, s.size, s.mtimeMs] as const)));
  const key = createHash('sha256').update(JSON.stringify([java, modules.size, modules.mtimeMs, xArgs, jars])).digest('hex').slice(0, 24);
  const dir = path.join(cacheDir(env), 'class-archives');
  const file = path.join(dir, `${key}.jsa`);
  if (await exists(file)) {
    // The most recently used are the ones kept.
    const now = new Date();
    await utimes(file, now, now).catch(() => undefined);
    return { state: 'use', file, args: [`-XX:SharedArchiveFile=${file}`], layout };
  }
  const failed = path.join(dir, `${key}.failed`);
  if (await exists(failed)) return { state: 'off', why: `making it failed before: ${(await readFile(failed, 'utf8').catch(() => '')).trim()}`, layout };
  const classpath = layout.archived.length ? ['-cp', layout.archived.join(path.delimiter)] : [];
  const list = path.join(workDir, `class-list-${key}.txt`);
  const make = async (signal?: AbortSignal): Promise<string | null> => {
    // A first JVM stopped early (ceiling, cancel, crash) may have left no list, or half of one: try again next time.
    if (!((await stat(list).catch(() => null))?.size ?? 0)) return null;
    // Its own name: two runs of the gate (processes, or one process's tests) may dump the same key at once.
    const tmp = `${file}.${process.pid}-${randomUUID()}.tmp`;
    try {
      await mkdir(dir, { recursive: true });
      await run(java, [...xArgs, ...classpath, '-Xshare:dump', `-XX:SharedClassListFile=${list}`, `-XX:SharedArchiveFile=${tmp}`], signal);
      // The check: -Xshare:on refuses to start when the archive does not map (with this class path).
      await run(java, [...xArgs, ...classpath, '-Xshare:on', `-XX:SharedArchiveFile=${tmp}`, '-version'], signal);
      await rename(tmp, file);
      await prune(dir);
      logger.info({ file, jars: layout.archived.length }, 'class archive made: the next repetition JVMs map it');
      return file;
    } catch (e) {
      await rm(tmp, { force: true }).catch(() => undefined);
      // Cancelled (the run was stopped): nothing is known about this JDK; the next run records again.
      if (signal?.aborted) return null;
      const why = (e as Error).message.split('\n')[0]!.slice(0, 500);
      await writeFile(failed, `${why}\n`).catch(() => undefined);
      logger.info({ why }, 'class archive not made: the stress passes run without it');
      return null;
    }
  };
  return { state: 'record', list, recordArgs: [`-XX:DumpLoadedClassList=${list}`], make, layout };
}

/** Removes all but the KEPT_ARCHIVES most recently used archives (and their leftovers); never rejects. */
async function prune(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const archives = await Promise.all(names.filter((n) => n.endsWith('.jsa')).map(async (n) => ({ n, t: (await stat(path.join(dir, n)).catch(() => null))?.mtimeMs ?? 0 })));
  archives.sort((x, y) => y.t - x.t);
  await Promise.all(archives.slice(KEPT_ARCHIVES).map((a) => rm(path.join(dir, a.n), { force: true }).catch(() => undefined)));
}

/** JVMs of a target still to start after its recording JVM for the archive to be made during the pass. */
export const MAKE_IN_PASS_FOR = 4;

/** How one JVM starts: its class path and the gate's class-sharing options; `recording` for a key's first. */
export interface ArchivedStart {
  classpath: readonly string[] | null;
  args: readonly string[];
  recording: boolean;
  /** The class path was laid out in another order than the build's (the runner sets java.class.path back). */
  reordered: boolean;
}

/**
 * One pass's archives: what each JVM of a key (a task or a fork) starts with. The key's first JVM
 * records the class list; when it ends with enough of the key's JVMs left, the archive is made then
 * and they map it; else it is made after the pass for the next one.
 */
export class ArchiveSession {
  private readonly archives: Map<string, ClassArchive>;
  private readonly recording = new Set<string>();
  private readonly pending = new Set<string>();
  private readonly madeInPass = new Set<string>();

  constructor(archives: ReadonlyMap<string, ClassArchive>) {
    this.archives = new Map(archives);
  }

  /** How the next JVM of `key` starts. */
  start(key: string): ArchivedStart {
    const a = this.archives.get(key);
    if (!a) return { classpath: null, args: [], recording: false, reordered: false };
    const base = { classpath: a.layout.runtime, reordered: a.layout.reordered };
    if (a.state === 'use') return { ...base, args: a.args, recording: false };
    if (a.state !== 'record' || this.recording.has(key)) return { ...base, args: [], recording: false };
    this.recording.add(key);
    this.pending.add(key);
    return { ...base, args: a.recordArgs, recording: true };
  }

  /** After `key`'s recording JVM ended by itself, with `left` of its JVMs still to start: makes the archive now when that repays it. */
  async recorded(key: string, left: number, signal?: AbortSignal): Promise<void> {
    const a = this.archives.get(key);
    if (a?.state !== 'record' || left < MAKE_IN_PASS_FOR) return;
    this.pending.delete(key);
    const file = await a.make(signal);
    if (file === null) {
      this.archives.set(key, { state: 'off', why: 'making it failed', layout: a.layout });
      return;
    }
    this.archives.set(key, { state: 'use', file, args: [`-XX:SharedArchiveFile=${file}`], layout: a.layout });
    this.madeInPass.add(key);
  }

  /** After the pass: makes the archives recorded and not made yet (none after a pass cut or cancelled); never rejects. */
  finish(stopped: boolean, signal?: AbortSignal): Promise<void> {
    const keys = [...this.pending];
    this.pending.clear();
    if (stopped) return Promise.resolve();
    return Promise.all(keys.flatMap((k) => {
      const a = this.archives.get(k);
      return a?.state === 'record' ? [a.make(signal)] : [];
    })).then(() => undefined);
  }

  /** One word for the report: every JVM mapped an archive (`used`), the pass made one its later JVMs mapped (`made`), it recorded one for the next pass (`recorded`), or none. */
  state(): 'used' | 'made' | 'recorded' | 'off' {
    if (this.madeInPass.size) return 'made';
    const states = [...this.archives.values()].map((a) => a.state);
    if (states.length > 0 && states.every((s) => s === 'use')) return 'used';
    return this.recording.size ? 'recorded' : 'off';
  }
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
