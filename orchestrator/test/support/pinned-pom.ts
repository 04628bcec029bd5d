// A one-module Maven project on the plugin versions the Maven tests resolve (Surefire 3.5.4), and
// the once-per-machine online build that puts what it needs into ~/.m2 for the offline gate builds.
import { createHash } from 'node:crypto';
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';

const M2 = path.join(os.homedir(), '.m2', 'repository');

/** The POM: `dependencies` (XML lines), and optionally Surefire's `<configuration>` body. */
export function pinnedPom(groupId: string, dependencies: string, surefireConfiguration = ''): string {
  const surefire = surefireConfiguration
    ? `
    <plugins>
      <plugin>
        <artifactId>maven-surefire-plugin</artifactId>
        <configuration>${surefireConfiguration}</configuration>
      </plugin>
    </plugins>`
    : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>${groupId}</groupId>
  <artifactId>shop</artifactId>
  <version>1.0.0</version>
  <properties>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
    <maven.compiler.release>17</maven.compiler.release>
  </properties>
  <dependencies>
${dependencies}
  </dependencies>
  <build>
    <pluginManagement>
      <plugins>
        <plugin><artifactId>maven-clean-plugin</artifactId><version>3.4.1</version></plugin>
        <plugin><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
        <plugin><artifactId>maven-compiler-plugin</artifactId><version>3.14.1</version></plugin>
        <plugin><artifactId>maven-surefire-plugin</artifactId><version>3.5.4</version></plugin>
      </plugins>
    </pluginManagement>${surefire}
  </build>
</project>
`;
}

/** A test-scoped dependency line. */
export const testDependency = (group: string, artifact: string, version: string) =>
  `    <dependency><groupId>${group}</groupId><artifactId>${artifact}</artifactId><version>${version}</version><scope>test</scope></dependency>`;

/**
 * Resolves the project's plugins, dependencies and the Surefire provider it needs into ~/.m2 (a
 * plain online `mvn clean test` in `dir`, once per machine and POM: a stamp named by `who` and the
 * POM's hash); the gate's builds then run `mvn -o`.
 */
export async function warmMavenProject(dir: string, who: string): Promise<void> {
  const stamp = path.join(M2, `.stress-gate-${who}-${createHash('sha256').update(await readFile(path.join(dir, 'pom.xml'))).digest('hex').slice(0, 16)}`);
  if (await access(stamp).then(() => true, () => false)) return;
  const r = await execa('mvn', ['-q', '-B', '-Dsurefire.printSummary=false', 'clean', 'test'], { cwd: dir, reject: false, stdin: 'ignore' });
  if (r.exitCode !== 0) throw new Error(`warming ~/.m2 failed (mvn exit ${r.exitCode}):\n${String(r.stdout).slice(-3000)}\n${String(r.stderr).slice(-3000)}`);
  await mkdir(M2, { recursive: true });
  await writeFile(stamp, `resolved by ${who}\n`);
}
