// Small real projects on every JVM test stack the gate supports, each with the same story: an old
// test on the default branch, then a branch that adds a class with two tests that fail only when
// they are the first test of their JVM (and then only on every third invocation, counted across
// processes under a file lock), and a stable one. The first pass runs both flaky tests in one JVM
// and passes (invocation 0 never fails); a stress pass that shared a JVM between candidates
// would catch at most the one that runs first. Flakiness is deterministic: a counter file under
// the test's working directory (flaky-counts/), never luck.
import { access } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { lockedCounter } from './fixture-project.js';

const M2 = path.join(os.homedir(), '.m2', 'repository');

/** The stacks: Maven (Surefire's provider) and Gradle 4.4.1 (Test task framework). */
export type Stack = 'maven-junit4' | 'maven-junit47-parallel' | 'maven-testng' | 'maven-jupiter-vintage' | 'gradle-junit4' | 'gradle-testng' | 'gradle-platform-runner';

/** The Java helper every fixture shares: first test of the JVM, the cross-process counter. */
function flakeHelper(pkg: string): string {
  return `package ${pkg};
public final class Flake {
  private static final java.util.concurrent.atomic.AtomicBoolean FIRST = new java.util.concurrent.atomic.AtomicBoolean(true);
  private Flake() {}
  /** A failure message when this invocation must fail: the JVM's first test, on every third invocation. */
  public static String verdict(String name) throws Exception {
    boolean first = FIRST.getAndSet(false);
    int n = bump(name);
    return first && n % 3 == 2 ? "expected 30 but was 27 (invocation " + n + ", first test of its JVM)" : null;
  }
${lockedCounter('new java.io.File("flaky-counts", name + ".count")').trimStart()}
}
`;
}

interface Framework {
  imports: string;
  test: string;
  fail: string;
  classHeader?: string;
}
const JUNIT4: Framework = { imports: 'import org.junit.Test;\nimport static org.junit.Assert.fail;', test: '@Test public', fail: 'fail' };
const JUPITER: Framework = { imports: 'import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.fail;', test: '@Test', fail: 'fail' };
const TESTNG: Framework = { imports: 'import org.testng.annotations.Test;\nimport static org.testng.Assert.fail;', test: '@Test public', fail: 'fail' };
const PLATFORM_RUNNER: Framework = { ...JUPITER, imports: `${JUPITER.imports}\nimport org.junit.platform.runner.JUnitPlatform;\nimport org.junit.runner.RunWith;`, classHeader: '@RunWith(JUnitPlatform.class)\n' };

function oldTest(pkg: string, f: Framework): string {
  return `package ${pkg};
${f.imports}
${f.classHeader ?? ''}public class OldTest {
  ${f.test} void works() { }
}
`;
}

function newTest(pkg: string, f: Framework): string {
  return `package ${pkg};
${f.imports}
${f.classHeader ?? ''}public class NewFlakyTest {
  ${f.test} void flakyA() throws Exception { String why = Flake.verdict("flakyA"); if (why != null) ${f.fail}(why); }
  ${f.test} void flakyB() throws Exception { String why = Flake.verdict("flakyB"); if (why != null) ${f.fail}(why); }
  ${f.test} void stable() { }
}
`;
}

/** TestNG also gets a data provider whose new row is a new invocation: selected alone by invocation number. */
function testngAdds(rows: string[]): string {
  return `package shop.ng;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;
import static org.testng.Assert.assertEquals;
public class AdditionTest {
  @DataProvider public Object[][] sums() { return new Object[][] { ${rows.join(', ')} }; }
  @Test(dataProvider = "sums") public void adds(int a, int b, int sum) { assertEquals(a + b, sum); }
}
`;
}

const pom = (artifact: string, dependencies: string, surefire = '') => `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>shop</groupId>
  <artifactId>${artifact}</artifactId>
  <version>1</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
${dependencies}
  </dependencies>
  <build>
    <plugins>
      <plugin><artifactId>maven-compiler-plugin</artifactId><version>3.14.1</version></plugin>
      <plugin><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
      <plugin><artifactId>maven-clean-plugin</artifactId><version>3.4.1</version></plugin>
      <plugin>
        <artifactId>maven-surefire-plugin</artifactId>
        <version>3.5.4</version>
        <configuration>
          <argLine>-Dshop.from.argLine=yes</argLine>
          <systemPropertyVariables><shop.mode>test</shop.mode></systemPropertyVariables>${surefire}
        </configuration>
      </plugin>
    </plugins>
  </build>
</project>
`;
const dep = (g: string, a: string, v: string) => `    <dependency><groupId>${g}</groupId><artifactId>${a}</artifactId><version>${v}</version><scope>test</scope></dependency>`;

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
const DEBIAN_JUNIT4 = ['/usr/share/java/junit4.jar', '/usr/share/java/hamcrest-core.jar'];
/** A Gradle files(...) of jars: absolute paths, or paths under ~/.m2. */
export const gradleFiles = (files: string[]) => `files(${files.map((f) => `'${f.startsWith('/') ? f : path.join(M2, f)}'`).join(', ')})`;

/** A fixture: its default-branch tree, the branch's additions, and how to build it. */
export interface StackProject {
  tool: 'maven' | 'gradle';
  main: Record<string, string>;
  feature: Record<string, string>;
  /** The new tests (suite, name) the gate must find. */
  flaky: [string, string][];
  stable: [string, string][];
}

/** The project of `stack`. */
export function stackProject(stack: Stack): StackProject {
  const src = (pkg: string) => `src/test/java/${pkg.replaceAll('.', '/')}`;
  switch (stack) {
    case 'maven-junit4':
    case 'maven-junit47-parallel': {
      const pkg = stack === 'maven-junit4' ? 'shop.j4' : 'shop.j47';
      const parallel = stack === 'maven-junit47-parallel' ? '\n          <parallel>methods</parallel>\n          <threadCount>2</threadCount>' : '';
      return mavenStack(pkg, JUNIT4, pom(stack, dep('junit', 'junit', '4.13.2'), parallel), src(pkg));
    }
    case 'maven-testng': {
      const p = mavenStack('shop.ng', TESTNG, pom(stack, dep('org.testng', 'testng', '7.5.1')), src('shop.ng'));
      p.main[`${src('shop.ng')}/AdditionTest.java`] = testngAdds(['{1, 1, 2}', '{2, 2, 4}']);
      p.feature[`${src('shop.ng')}/AdditionTest.java`] = testngAdds(['{1, 1, 2}', '{2, 2, 4}', '{3, 3, 6}']);
      p.stable.push(['shop.ng.AdditionTest', 'adds[3, 3, 6](3)']);
      return p;
    }
    case 'maven-jupiter-vintage': {
      // JUnit 4 tests run by the vintage engine beside Jupiter ones, in one platform fork.
      const deps = [dep('org.junit.jupiter', 'junit-jupiter', '5.14.4'), dep('org.junit.vintage', 'junit-vintage-engine', '5.14.4'), dep('junit', 'junit', '4.13.2')].join('\n');
      const p = mavenStack('shop.mixed', JUNIT4, pom(stack, deps), src('shop.mixed'));
      p.feature[`${src('shop.mixed')}/NewJupiterTest.java`] = newTest('shop.mixed', JUPITER).replaceAll('NewFlakyTest', 'NewJupiterTest').replaceAll('"flaky', '"jupiterFlaky');
      p.flaky.push(['shop.mixed.NewJupiterTest', 'flakyA'], ['shop.mixed.NewJupiterTest', 'flakyB']);
      p.stable.push(['shop.mixed.NewJupiterTest', 'stable']);
      return p;
    }
    case 'gradle-junit4':
      return gradleStack('shop.g4', JUNIT4, `dependencies { testCompile ${gradleFiles(DEBIAN_JUNIT4)} }\n`);
    case 'gradle-testng': {
      const p = gradleStack('shop.ng', TESTNG, `dependencies { testCompile ${gradleFiles(TESTNG_JARS)} }\ntest { useTestNG() }\n`);
      p.main['src/test/java/shop/ng/AdditionTest.java'] = testngAdds(['{1, 1, 2}', '{2, 2, 4}']);
      p.feature['src/test/java/shop/ng/AdditionTest.java'] = testngAdds(['{1, 1, 2}', '{2, 2, 4}', '{3, 3, 6}']);
      p.stable.push(['shop.ng.AdditionTest', 'adds[2](3, 3, 6)']);
      return p;
    }
    case 'gradle-platform-runner':
      // Debian's Gradle 4.4.1 has no useJUnitPlatform(): JUnit 5 tests run through JUnit 4's JUnitPlatform runner.
      return gradleStack('shop.gp', PLATFORM_RUNNER, `dependencies { testCompile ${gradleFiles([...DEBIAN_JUNIT4, ...PLATFORM_JARS])} }\n`);
  }
}

function mavenStack(pkg: string, f: Framework, pomXml: string, dir: string): StackProject {
  return {
    tool: 'maven',
    main: { 'pom.xml': pomXml, [`${dir}/OldTest.java`]: oldTest(pkg, f), [`${dir}/Flake.java`]: flakeHelper(pkg) },
    feature: { [`${dir}/NewFlakyTest.java`]: newTest(pkg, f) },
    flaky: [[`${pkg}.NewFlakyTest`, 'flakyA'], [`${pkg}.NewFlakyTest`, 'flakyB']],
    stable: [[`${pkg}.NewFlakyTest`, 'stable']],
  };
}

function gradleStack(pkg: string, f: Framework, build: string): StackProject {
  const dir = `src/test/java/${pkg.replaceAll('.', '/')}`;
  return {
    tool: 'gradle',
    main: {
      'settings.gradle': "rootProject.name = 'shop'\n",
      'build.gradle': `apply plugin: 'java'\nsourceCompatibility = '1.8'\ntargetCompatibility = '1.8'\n${build}test { systemProperty 'shop.mode', 'test' }\n`,
      [`${dir}/OldTest.java`]: oldTest(pkg, f),
      [`${dir}/Flake.java`]: flakeHelper(pkg),
    },
    feature: { [`${dir}/NewFlakyTest.java`]: newTest(pkg, f) },
    flaky: [[`${pkg}.NewFlakyTest`, 'flakyA'], [`${pkg}.NewFlakyTest`, 'flakyB']],
    stable: [[`${pkg}.NewFlakyTest`, 'stable']],
  };
}

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
