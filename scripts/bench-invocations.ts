// Benchmark of a new parameterised method at a real size: one `@ParameterizedTest` with --n
// invocations (JUnit 5, the engine added by Surefire) and one TestNG data provider with --n rows,
// each new on the branch, stressed as the gate does: the invocations of one method share each
// repetition's JVM (candidates/invocation-groups.ts), priced once by the default curve. Printed
// beside it: the first pass of that class (the whole `mvn -o test -Dtest=<class>`, and the class's
// own time in its report) and, for scale, one JVM per invocation and repetition (what the gate did
// before), measured at one repetition and multiplied out.
// Needs: npm run build, make plugin (the runner jar), mvn and java on PATH, Maven Central once
// (then ~/.m2 holds JUnit 5.14.4, TestNG 7.5.1 and Surefire 3.5.4).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_STRESS_PARAMETERS, price } from '../verdict-api/dist/contract.js';
import { runBuild } from '../orchestrator/dist/build-tool/run-build.js';
import type { GateCandidate } from '../orchestrator/dist/candidates/gate-candidate.js';
import { groupInvocations } from '../orchestrator/dist/candidates/invocation-groups.js';
import { runDirectPass } from '../orchestrator/dist/jvm/direct-pass.js';
import { silentLogger } from '../orchestrator/dist/base/log.js';
import { runMavenFirstPass } from '../orchestrator/dist/maven/maven-first-pass.js';
import { prepareMaven } from '../orchestrator/dist/maven/maven-setup.js';
import { mavenTargets } from '../orchestrator/dist/maven/maven-targets.js';
import { check, flags, intFlag, load, log, run, sec } from './bench-gradle-common.js';

const MVN = ['-o', '-q', '-B', '-Dsurefire.printSummary=false'];

const pom = (artifact: string, deps: string) => `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>bench</groupId><artifactId>${artifact}</artifactId><version>1</version>
  <properties><maven.compiler.release>17</maven.compiler.release><project.build.sourceEncoding>UTF-8</project.build.sourceEncoding></properties>
  <dependencies>${deps}</dependencies>
  <build><plugins>
    <plugin><artifactId>maven-compiler-plugin</artifactId><version>3.14.1</version></plugin>
    <plugin><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
    <plugin><artifactId>maven-clean-plugin</artifactId><version>3.4.1</version></plugin>
    <plugin><artifactId>maven-surefire-plugin</artifactId><version>3.5.4</version></plugin>
  </plugins></build>
</project>
`;
const dep = (g: string, a: string, v: string) => `<dependency><groupId>${g}</groupId><artifactId>${a}</artifactId><version>${v}</version><scope>test</scope></dependency>`;

/** The two projects: a Jupiter class declaring only the API (Surefire adds the engine), a TestNG class. */
function write(dir: string, n: number): void {
  const jupiter = join(dir, 'jupiter');
  mkdirSync(join(jupiter, 'src/test/java/bench'), { recursive: true });
  writeFileSync(join(jupiter, 'pom.xml'), pom('jupiter', dep('org.junit.jupiter', 'junit-jupiter-api', '5.14.4') + dep('org.junit.jupiter', 'junit-jupiter-params', '5.14.4')));
  writeFileSync(join(jupiter, 'src/test/java/bench/PricesTest.java'), `package bench;
import static org.junit.jupiter.api.Assertions.assertEquals;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
class PricesTest {
  static IntStream cents() { return IntStream.rangeClosed(1, ${n}); }
  @ParameterizedTest @MethodSource("cents") void roundsTrip(int cents) { assertEquals(cents, Math.round(cents / 100.0 * 100)); }
}
`);
  const testng = join(dir, 'testng');
  mkdirSync(join(testng, 'src/test/java/bench'), { recursive: true });
  writeFileSync(join(testng, 'pom.xml'), pom('testng', dep('org.testng', 'testng', '7.5.1')));
  writeFileSync(join(testng, 'src/test/java/bench/RatesTest.java'), `package bench;
import static org.testng.Assert.assertEquals;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;
public class RatesTest {
  @DataProvider public Object[][] rates() { Object[][] r = new Object[${n}][]; for (int i = 0; i < r.length; i++) r[i] = new Object[] { i + 1 }; return r; }
  @Test(dataProvider = "rates") public void roundsTrip(int cents) { assertEquals(Math.round(cents / 100.0 * 100), cents); }
}
`);
}

/** The class's own time in its Surefire report (seconds, as Surefire writes it). */
function reportTime(project: string, suite: string): number {
  const xml = readFileSync(join(project, 'target/surefire-reports', `TEST-${suite}.xml`), 'utf8');
  return Number(/<testsuite[^>]* time="([\d.]+)"/.exec(xml)?.[1] ?? NaN) * 1000;
}

async function benchOne(project: string, suite: string, n: number, atATime: number, perInvocationReps: number): Promise<void> {
  const logger = silentLogger();
  const setup = await prepareMaven(process.env);
  const t0 = Date.now();
  check(await run('mvn', [...MVN, 'test', `-Dtest=${suite.slice(suite.lastIndexOf('.') + 1)}`], { cwd: project }), 'mvn -Dtest');
  const classPass = Date.now() - t0;
  const classOwn = reportTime(project, suite);
  const first = await runMavenFirstPass([...MVN, 'test'], { isMuted: () => false, isSkipped: () => false, skippedTests: [], now: Date.now }, { runMaven: runBuild, executable: 'mvn', setup, projectDir: project, env: process.env, logger });
  if (!first.passed) throw new Error(`${suite}: the first pass failed`);
  const cases = first.cases.filter((c) => c.suite === suite);
  if (cases.length !== n) throw new Error(`${suite}: ${cases.length} invocations in the first pass, expected ${n}`);
  const candidates: GateCandidate[] = cases.map((c, i) => ({
    module: c.module, suite, name: c.name, testCaseId: `t${i}`, durationMs: c.durationMs, ...price(c.durationMs, DEFAULT_STRESS_PARAMETERS.curve), muted: false,
    source: c.source,
  }));
  const direct = async (stress: GateCandidate[]) => {
    const { targets, unrunnable } = mavenTargets(stress);
    const r = await runDirectPass(targets, unrunnable, {
      runnerJar: setup.runnerJar, workDir: setup.workDir, outputDir: join(project, 'target', 'stress-gate', 'repetitions'), concurrency: atATime,
      ceilingSeconds: DEFAULT_STRESS_PARAMETERS.ceilingSeconds, env: process.env, logger, err: () => undefined, errIsTTY: false,
    });
    await r.archiving;
    const ran = [...r.repetitions.values()].reduce((s, x) => s + x.filter((y) => y.status === 'success').length, 0);
    const expected = stress.reduce((s, c) => s + (c.repetitions ?? 0), 0);
    if (ran !== expected || r.problems.length || r.unrunnable?.size) throw new Error(`${suite}: ${ran} of ${expected} repetitions passed; ${[...(r.unrunnable?.values() ?? []), ...r.problems].join('; ')}`);
    return r;
  };
  const grouped = groupInvocations(candidates, DEFAULT_STRESS_PARAMETERS.curve);
  const g = await direct(grouped);
  const reps = grouped[0]!.repetitions!;
  // For scale: one JVM per invocation and repetition, measured at `perInvocationReps` and multiplied out.
  const apart = await direct(candidates.map((c) => ({ ...c, repetitions: perInvocationReps })));
  const apartScaled = (apart.wallClockMs / perInvocationReps) * reps;
  log('');
  log(`${suite}: one new method with ${n} invocations (sum of their first-pass durations ${sec(cases.reduce((s, c) => s + c.durationMs, 0))}), ${atATime} JVMs at a time, load ${load()}`);
  log(`  first pass of the class: mvn -o test -Dtest=… ${sec(classPass)} (the class's own time in its report: ${sec(classOwn)})`);
  log(`  stress pass, invocations sharing each repetition's JVM: ${sec(g.wallClockMs)} for ${reps} repetitions × ${n} invocations in ${g.jvms} JVMs (${(g.wallClockMs / classPass).toFixed(1)}× that first pass; the default ceiling is ${DEFAULT_STRESS_PARAMETERS.ceilingSeconds} s)`);
  log(`  one JVM per invocation and repetition (before): ${reps * n} JVMs, about ${sec(apartScaled)} (measured ${sec(apart.wallClockMs)} for ${apart.jvms} JVMs at ${perInvocationReps} repetition${perInvocationReps === 1 ? '' : 's'})`);
  rmSync(setup.workDir, { recursive: true, force: true });
}

async function main(): Promise<void> {
  const f = flags(process.argv.slice(2));
  const n = intFlag(f, 'n', 100, 10_000);
  const atATime = intFlag(f, 'jvms', availableParallelism());
  const apartReps = intFlag(f, 'apart-reps', 1);
  const dir = mkdtempSync(join(tmpdir(), 'stress-gate-bench-invocations-'));
  try {
    write(dir, n);
    // Resolves what the two projects need (online once) and compiles them.
    for (const p of ['jupiter', 'testng']) check(await run('mvn', ['-q', '-B', '-Dsurefire.printSummary=false', 'test'], { cwd: join(dir, p) }), `mvn test (${p})`);
    log(`load before: ${load()}  (figures are wall clock; a busy machine stretches them)`);
    await benchOne(join(dir, 'jupiter'), 'bench.PricesTest', n, atATime, apartReps);
    await benchOne(join(dir, 'testng'), 'bench.RatesTest', n, atATime, apartReps);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
