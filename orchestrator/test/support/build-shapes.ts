// The build-shape fixtures (test/fixtures/build-shapes: one Maven reactor and one Gradle 4.4.1
// multi-project build, each module a shape of how real projects run their tests): copies of them,
// their feature overlays, the one online warm-up they share, and the new tests each shape adds.
// What a gate run must show for them: shape-assertions.ts.
import { access, cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { warmGradleJars } from './gradle-jars.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/build-shapes/', import.meta.url));
const M2 = path.join(os.homedir(), '.m2', 'repository');

/** The two builds: `maven` (the reactor) and `gradle` (the multi-project build). */
export type ShapesBuild = 'maven' | 'gradle';

/** Copies the default-branch state of `build` into a new temp dir. */
export async function shapesCopy(build: ShapesBuild): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `stress-gate-shapes-${build}-`));
  await cp(path.join(FIXTURES, build), dir, { recursive: true });
  return dir;
}

/** Copies the feature branch's overlay (`maven-feature`, `gradle-feature`) over `dir`. */
export async function applyShapesFeature(dir: string, build: ShapesBuild): Promise<void> {
  await cp(path.join(FIXTURES, `${build}-feature`), dir, { recursive: true });
}

/** Removes every flaky-counts folder under `dir`: the flaky tests' invocation counts start again at 0. */
export async function resetFlakyCounts(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === 'target' || entry.name === 'build' || entry.name === '.gradle') continue;
    const full = path.join(dir, entry.name);
    if (entry.name === 'flaky-counts') await rm(full, { recursive: true, force: true });
    else await resetFlakyCounts(full);
  }
}

/** A hash of the build files of `build` and its overlay: the warm-up's stamp changes with them. */
async function buildFilesHash(build: ShapesBuild): Promise<string> {
  const hash = createHash('sha256');
  const walk = async (dir: string): Promise<void> => {
    for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (/^(pom\.xml|.*\.gradle)$/.test(entry.name)) hash.update(path.relative(FIXTURES, full)).update(await readFile(full));
    }
  };
  await walk(path.join(FIXTURES, build));
  await walk(path.join(FIXTURES, `${build}-feature`));
  return hash.digest('hex').slice(0, 16);
}

/**
 * Resolves every plugin and dependency of the Maven reactor into ~/.m2 (online, once per machine
 * and POM set): a plain `mvn clean verify` of the default branch, which also makes Surefire and Failsafe
 * resolve the providers and engines they add themselves. Afterwards every build runs `mvn -o`.
 */
export async function warmShapesMaven(): Promise<void> {
  const stamp = path.join(M2, `.stress-gate-build-shapes-maven-${await buildFilesHash('maven')}`);
  if (await access(stamp).then(() => true, () => false)) return;
  const dir = await shapesCopy('maven');
  try {
    const r = await execa('mvn', ['-q', '-B', '-Dsurefire.printSummary=false', '-Dfailsafe.printSummary=false', 'clean', 'verify'], { cwd: dir, reject: false, stdin: 'ignore' });
    if (r.exitCode !== 0) throw new Error(`warming ~/.m2 for the Maven build shapes failed (mvn exit ${r.exitCode}):\n${String(r.stdout).slice(-3000)}\n${String(r.stderr).slice(-3000)}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  await mkdir(M2, { recursive: true });
  await writeFile(stamp, 'resolved by orchestrator/test/support/build-shapes.ts\n');
}

/** Maven artifacts (and their POMs) the Gradle build resolves through mavenLocal(), besides warmGradleJars' ones. */
const GRADLE_EXTRA = ['junit:junit:4.13.2', 'org.junit.jupiter:junit-jupiter-api:5.13.4'];

/** Resolves what the Gradle build takes from ~/.m2 through mavenLocal() (online, once per machine). */
export async function warmShapesGradle(): Promise<void> {
  await warmGradleJars();
  for (const coordinates of GRADLE_EXTRA) {
    const [group, artifact, version] = coordinates.split(':') as [string, string, string];
    const base = path.join(M2, ...group.split('.'), artifact, version, `${artifact}-${version}`);
    const present = await Promise.all([`${base}.jar`, `${base}.pom`].map((f) => access(f).then(() => true, () => false)));
    if (present.every(Boolean)) continue;
    const r = await execa('mvn', ['-q', '-B', 'org.apache.maven.plugins:maven-dependency-plugin:3.8.1:get', `-Dartifact=${coordinates}`], { reject: false, stdin: 'ignore' });
    if (r.exitCode !== 0) throw new Error(`resolving ${coordinates} into ~/.m2 failed (mvn exit ${r.exitCode}):\n${String(r.stdout).slice(-2000)}`);
  }
}

/** What one shape's new tests must show: `suite name` of each, as the gate identifies them. */
export interface ShapeExpectation {
  /** The module's directory, which is the first segment of the gate's module (`:failsafe:integration-test` → `failsafe`). */
  shape: string;
  /** New tests that fail only as their JVM's first test on invocation 2 mod 3: the gate must catch them. */
  flaky: string[];
  /** New tests that pass every time: every repetition must pass. */
  stable: string[];
  /** Tests the branch adds that the build never runs: never candidates. */
  never?: string[];
}

/** The Maven reactor's shapes (test/fixtures/build-shapes/README.md), in the reactor's order. */
export const MAVEN_SHAPES: ShapeExpectation[] = [
  { shape: 'jupiter-api', flaky: ['shapes.jupiterapi.NewTest flaky'], stable: ['shapes.jupiterapi.NewTest stable(String)[1]'] },
  { shape: 'jupiter-aggregate', flaky: ['shapes.jupiteragg.NewTest flaky'], stable: ['shapes.jupiteragg.NewTest stable'] },
  { shape: 'vintage', flaky: ['shapes.vintage.NewVintageTest flaky'], stable: ['shapes.vintage.NewVintageTest stable', 'shapes.vintage.NewJupiterTest stable'] },
  { shape: 'junit4', flaky: ['shapes.junit4.NewTest flaky', 'shapes.junit4.NewTest flakyB'], stable: ['shapes.junit4.NewTest stable'] },
  { shape: 'junit47-parallel', flaky: ['shapes.junit47.NewTest flaky'], stable: ['shapes.junit47.NewTest stable'] },
  { shape: 'testng', flaky: ['shapes.testng.NewTest flaky'], stable: ['shapes.testng.NewTest stable', 'shapes.testng.AdditionTest adds[3, 3, 6](3)'] },
  { shape: 'jacoco-argline', flaky: ['shapes.jacoco.NewTest flaky'], stable: ['shapes.jacoco.NewTest stable'] },
  { shape: 'fork-config', flaky: ['shapes.forkconfig.NewTest flaky'], stable: ['shapes.forkconfig.NewTest stable'] },
  { shape: 'parallel', flaky: ['shapes.parallel.NewTest flaky'], stable: ['shapes.parallel.NewTest stable'] },
  { shape: 'tags', flaky: ['shapes.tags.NewTest flaky'], stable: ['shapes.tags.NewTest stable'], never: ['shapes.tags.NewTest excludedByTag'] },
  { shape: 'includes', flaky: ['shapes.includes.NewCheck flaky'], stable: ['shapes.includes.NewCheck stable'] },
  { shape: 'failsafe', flaky: ['shapes.failsafe.NewIT flaky'], stable: ['shapes.failsafe.NewIT stable'] },
  { shape: 'reactor-lib', flaky: ['shapes.reactorlib.NewTest flaky'], stable: ['shapes.reactorlib.NewTest stable'] },
  { shape: 'reactor-app', flaky: ['shapes.reactorapp.NewTest flaky'], stable: ['shapes.reactorapp.NewTest stable'] },
  { shape: 'fork-count', flaky: ['shapes.forkcount.NewFlakyTest flaky'], stable: ['shapes.forkcount.NewStableTest stable'] },
  { shape: 'module-path', flaky: ['shapes.modular.NewTest flaky'], stable: ['shapes.modular.NewTest stable'] },
];

/** The Gradle build's shapes. */
export const GRADLE_SHAPES: ShapeExpectation[] = [
  { shape: 'fork-settings', flaky: ['shapes.gradle.forksettings.NewTest flaky', 'shapes.gradle.forksettings.NewTest flakyB'], stable: ['shapes.gradle.forksettings.NewTest stable'] },
  { shape: 'integ-test', flaky: ['shapes.gradle.integ.NewIntegTest flaky'], stable: ['shapes.gradle.integ.NewIntegTest stable'] },
  { shape: 'testng', flaky: ['shapes.gradle.testng.NewTest flaky'], stable: ['shapes.gradle.testng.NewTest stable', 'shapes.gradle.testng.AdditionTest adds[2](3, 3, 6)'] },
  { shape: 'platform-runner', flaky: ['shapes.gradle.platform.NewTest flaky'], stable: ['shapes.gradle.platform.NewTest stable'] },
];
