// Jars the Gradle fixtures take from ~/.m2 (Debian's Gradle 4.4.1 runs offline): TestNG and the
// JUnit Platform with JUnit 4's JUnitPlatform runner, resolved by Maven once per machine.
import { access } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';

const M2 = path.join(os.homedir(), '.m2', 'repository');

/** TestNG and what it needs, under ~/.m2. */
export const TESTNG_JARS = ['org/testng/testng/7.5.1/testng-7.5.1.jar', 'com/beust/jcommander/1.78/jcommander-1.78.jar', 'org/webjars/jquery/3.5.1/jquery-3.5.1.jar'];
// JUnit 5.13 is the last line with junit-platform-runner (the JUnit 4 runner of the platform).
export const PLATFORM_JARS = [
  'org/junit/platform/junit-platform-runner/1.13.4/junit-platform-runner-1.13.4.jar',
  'org/junit/platform/junit-platform-launcher/1.13.4/junit-platform-launcher-1.13.4.jar',
  'org/junit/platform/junit-platform-engine/1.13.4/junit-platform-engine-1.13.4.jar',
  'org/junit/platform/junit-platform-commons/1.13.4/junit-platform-commons-1.13.4.jar',
  'org/junit/platform/junit-platform-suite-api/1.13.4/junit-platform-suite-api-1.13.4.jar',
  'org/junit/platform/junit-platform-suite-commons/1.13.4/junit-platform-suite-commons-1.13.4.jar',
  'org/junit/jupiter/junit-jupiter-api/5.13.4/junit-jupiter-api-5.13.4.jar',
  'org/junit/jupiter/junit-jupiter-engine/5.13.4/junit-jupiter-engine-5.13.4.jar',
  'org/opentest4j/opentest4j/1.3.0/opentest4j-1.3.0.jar',
  'org/apiguardian/apiguardian-api/1.1.2/apiguardian-api-1.1.2.jar',
];
/** A Gradle files(...) of jars: absolute paths, or paths under ~/.m2. */
export const gradleFiles = (files: string[]) => `files(${files.map((f) => `'${f.startsWith('/') ? f : path.join(M2, f)}'`).join(', ')})`;

/** Resolves the jars the Gradle fixtures take from ~/.m2 (Maven, online, once per machine). */
export async function warmGradleJars(): Promise<void> {
  const all = [...TESTNG_JARS, ...PLATFORM_JARS].map((j) => path.join(M2, j));
  const missing = async () => (await Promise.all(all.map((j) => access(j).then(() => null, () => j)))).filter(Boolean);
  if (!(await missing()).length) return;
  for (const artifact of ['org.testng:testng:7.5.1', 'org.junit.platform:junit-platform-runner:1.13.4', 'org.junit.jupiter:junit-jupiter-engine:5.13.4']) {
    const r = await execa('mvn', ['-q', '-B', 'org.apache.maven.plugins:maven-dependency-plugin:3.8.1:get', `-Dartifact=${artifact}`], { reject: false, stdin: 'ignore' });
    if (r.exitCode !== 0) throw new Error(`resolving ${artifact} into ~/.m2 failed (mvn exit ${r.exitCode}):\n${String(r.stdout).slice(-2000)}`);
  }
  const still = await missing();
  if (still.length) throw new Error(`still missing from ~/.m2: ${still.join(', ')}`);
}
