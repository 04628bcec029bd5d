// What a repetition JVM did not reproduce of the build's test JVM: the build's JVM as the gate saw
// it from inside in the first pass (or, where it did not, as the build configured it) against the
// repetition JVM's description of itself. Asked for a candidate that failed every repetition
// although it passed in the build: the difference is what to examine first.
import { access } from 'node:fs/promises';
import path from 'node:path';
import { forkClassPath, forkJvmArgs } from './fork-jvm.js';
import type { ForkConfig, JvmFacts } from './runner-log.js';
import { SECRET_NAME, secretFingerprint } from './secret-name.js';
import type { JvmSpec } from './stress-target.js';

/** The JVM a repetition was meant to be: what the build ran, seen from inside when the gate could. */
export interface ExpectedJvm {
  spec: JvmSpec;
  observed?: ForkConfig | undefined;
  runnerJar: string;
}

/** Properties that differ between any two JVMs, or that the build tool or the gate set for itself. */
const VOLATILE =
  /^(java\.(vm|runtime|specification|vendor|version|class\.version|class\.path|home)|sun\.|jdk\.|os\.|user\.(name|home)$|line\.separator$|file\.separator$|path\.separator$|native\.encoding$|stressGate\.|surefire\.|maven\.(surefire|failsafe)\.debug$|basedir$|localRepository$)/;

/** JVM arguments the gate adds to a repetition (crash file, class archive). */
const GATE_ARGS = /^-XX:(ErrorFile|SharedArchiveFile|DumpLoadedClassList)=|^-Xshare:/;

/** The most differences listed, and the longest value shown. */
const MAX_DIFFERENCES = 12;
const MAX_VALUE = 160;

const show = (v: string | undefined): string => (v === undefined ? 'unset' : JSON.stringify(v.length > MAX_VALUE ? `${v.slice(0, MAX_VALUE)}…` : v));

/** A secret's value is never said (the CI log keeps it): whether it is set, and its length when known. */
const showSecret = (v: string | undefined): string => (v === undefined ? 'unset' : `set (${v.length} characters, not shown)`);

/** The differences, in words; empty when the gate sees none. */
export async function compareJvm(expected: ExpectedJvm, facts: JvmFacts): Promise<string[]> {
  const { spec, observed } = expected;
  const out: string[] = [];
  const javaHome = observed?.javaHome ?? path.dirname(path.dirname(spec.java));
  if (path.resolve(facts.javaHome) !== path.resolve(javaHome)) out.push(`Java: the build's ${show(javaHome)}, the repetition's ${show(facts.javaHome)}`);
  const userDir = observed?.userDir ?? spec.workingDir;
  if (path.resolve(facts.userDir) !== path.resolve(userDir)) out.push(`working directory: the build's ${show(userDir)}, the repetition's ${show(facts.userDir)}`);
  // An entry the fork did not have either is no difference; without the fork's word (an older runner, Gradle's task settings), none is said gone.
  const absent = observed?.absentClassPath !== undefined ? new Set(observed.absentClassPath.split(path.delimiter)) : null;
  out.push(...(await classPathDifferences(observed ? forkClassPath(observed, true) : spec.classpath, facts.classPath, expected.runnerJar, absent)));
  out.push(...listDifferences('JVM argument', observed ? forkJvmArgs(observed) : spec.jvmArgs, facts.inputArguments.filter((a) => !GATE_ARGS.test(a))));
  const buildProperties = observed?.systemProperties ?? spec.systemProperties;
  for (const [k, v] of Object.entries(buildProperties)) {
    if (VOLATILE.test(k) || facts.systemProperties[k] === v) continue;
    out.push(`system property ${k}: the build's ${show(v)}, the repetition's ${show(facts.systemProperties[k])}`);
  }
  const buildEnv = observed?.environment ?? Object.fromEntries(Object.entries(spec.environment).filter((e): e is [string, string] => e[1] !== null));
  const secrets = facts.secretEnvironment ?? {};
  for (const k of [...new Set([...Object.keys(buildEnv), ...Object.keys(facts.environment), ...Object.keys(secrets)])].sort()) {
    if (!SECRET_NAME.test(k)) {
      if (buildEnv[k] !== facts.environment[k]) out.push(`environment variable ${k}: the build's ${show(buildEnv[k])}, the repetition's ${show(facts.environment[k])}`);
      continue;
    }
    // A repetition names a secret by its fingerprint (an older runner wrote the value).
    const build = buildEnv[k];
    const repetition = secrets[k] ?? (facts.environment[k] === undefined ? undefined : secretFingerprint(facts.environment[k]));
    if ((build === undefined ? undefined : secretFingerprint(build)) === repetition) continue;
    const repetitionShown = repetition === undefined ? 'unset' : facts.environment[k] !== undefined ? showSecret(facts.environment[k]) : 'set to another value (not shown)';
    out.push(`environment variable ${k}: the build's ${showSecret(build)}, the repetition's ${repetitionShown}`);
  }
  return out.length > MAX_DIFFERENCES ? [...out.slice(0, MAX_DIFFERENCES), `and ${out.length - MAX_DIFFERENCES} more`] : out;
}

async function classPathDifferences(build: readonly string[], actual: string, runnerJar: string, absentInBuild: ReadonlySet<string> | null): Promise<string[]> {
  // The gate's runner jar is in both (the first pass put it on the fork's class path for its listener): not the build's.
  const notRunner = (e: string) => e !== '' && path.resolve(e) !== path.resolve(runnerJar);
  const repetition = actual.split(path.delimiter).filter(notRunner);
  const out = listDifferences('class path entry', build.filter(notRunner), repetition);
  if (absentInBuild === null) return out;
  for (const e of repetition) {
    if (!absentInBuild.has(e) && !(await access(e).then(() => true, () => false))) out.push(`class path entry ${show(e)} no longer exists (removed after the build ran)`);
  }
  return out;
}

/** Entries missing from or added to `actual`, else whether their order differs. */
function listDifferences(what: string, build: readonly string[], actual: readonly string[]): string[] {
  const out: string[] = [];
  const count = (xs: readonly string[]) => xs.reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map<string, number>());
  const b = count(build);
  const a = count(actual);
  for (const [x, n] of b) if ((a.get(x) ?? 0) < n) out.push(`${what} ${show(x)}: in the build, not in the repetition`);
  for (const [x, n] of a) if ((b.get(x) ?? 0) < n) out.push(`${what} ${show(x)}: in the repetition, not in the build`);
  if (!out.length && build.join('\0') !== actual.join('\0')) out.push(`${what}s: the same, in another order`);
  return out;
}
