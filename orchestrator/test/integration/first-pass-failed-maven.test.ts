// A first pass that failed on a new flaky test, on real Maven (surefire, JUnit 5, offline) with a
// fake verdict API: the gate stresses it, calls it flaky with its counts and a reproduce command,
// and the exit code stays Maven's.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { main, realDeps } from '../../src/cli.js';
import { cannedVerdict, startFakeVerdictServer, type FakeVerdictServer } from '../support/fake-verdict-server.js';
import { writeTree } from '../support/fixture-project.js';
import { MVN_ARGS, warmMaven } from '../support/maven-project.js';

/** DiscountTest.applies counts its runs in a marker file and fails on the first (the build's) and the 4th. */
function project(): Record<string, string> {
  return {
    'pom.xml': `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>dev.stressgate.fixture</groupId>
  <artifactId>first-pass-failed</artifactId>
  <version>1.0.0</version>
  <properties><project.build.sourceEncoding>UTF-8</project.build.sourceEncoding><maven.compiler.release>17</maven.compiler.release></properties>
  <dependencies>
    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId><version>5.14.4</version><scope>test</scope></dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin><artifactId>maven-clean-plugin</artifactId><version>3.4.1</version></plugin>
      <plugin><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
      <plugin><artifactId>maven-compiler-plugin</artifactId><version>3.14.1</version></plugin>
      <plugin>
        <artifactId>maven-surefire-plugin</artifactId><version>3.5.4</version>
        <configuration><systemPropertyVariables><fixture.dir>\${project.basedir}</fixture.dir></systemPropertyVariables></configuration>
      </plugin>
    </plugins>
  </build>
</project>
`,
    'src/test/java/com/shop/DiscountTest.java': `package com.shop;
import java.io.File;
import java.nio.file.Files;
import static org.junit.jupiter.api.Assertions.assertTrue;
import org.junit.jupiter.api.Test;
class DiscountTest {
  static int bump(String name) throws Exception {
    File f = new File(System.getProperty("fixture.dir"), name + ".count");
    int n = f.exists() ? Integer.parseInt(new String(Files.readAllBytes(f.toPath())).trim()) : 0;
    Files.write(f.toPath(), String.valueOf(n + 1).getBytes());
    return n;
  }
  @Test void applies() throws Exception { int n = bump("applies"); assertTrue(n != 0 && n != 4, "expected 30 but was 27 (run " + n + ")"); }
  @Test void total() { assertTrue(2 + 2 == 4); }
}
`,
  };
}

let server: FakeVerdictServer;
let dir: string;

beforeAll(async () => {
  await warmMaven();
  dir = await writeTree(project());
  server = await startFakeVerdictServer((posted) => cannedVerdict(posted, (p) => p.suite === 'com.shop.DiscountTest' && p.name === 'applies'));
}, 600_000);
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a first pass that failed on a new flaky test (real Maven)', () => {
  it('stresses it, calls it flaky with its counts and a reproduce command, and exits with Maven\'s code', async () => {
    await writeFile(path.join(dir, 'applies.count'), '0');
    const out: string[] = [];
    // One repetition JVM at a time: the counter is not locked.
    const env = { ...process.env, STRESS_GATE_URL: server.url, STRESS_GATE_PROJECT: 'shop', STRESS_GATE_TOKEN: 'secret', STRESS_GATE_LOG_LEVEL: 'warn', GITHUB_STEP_SUMMARY: '', STRESS_GATE_PARALLEL_JVMS: '1' };
    const code = await main(['maven', '--stress-new-tests', 'enforce', '--', ...MVN_ARGS, 'clean', 'test'], { ...realDeps(env), cwd: dir, out: (t) => out.push(t), err: () => undefined });
    const report = JSON.parse(await readFile(path.join(dir, 'target/stress-gate/report.json'), 'utf8'));
    expect(code).toBe(1);
    expect(report).toMatchObject({ mode: 'enforce', exitCode: 1, blocked: false, wouldHaveBlocked: true, firstPass: { passed: false, failures: 1 } });
    const text = out.join('').replace(/\s+/g, ' ');
    expect(text).toContain('The build failed on 1 new test. The gate stressed it');
    expect(text).toContain('DiscountTest.applies is flaky: it failed in the build, then passed 9 of 10 repetitions, each in a fresh JVM. Rerunning CI until it passes would merge a flaky test.');
    expect(text).toMatch(/Reproduce: \S.* mvn --stress-tests '?com\.shop\.DiscountTest\.applies'? --repetitions 50 -- .*clean test/);
  }, 300_000);
});
