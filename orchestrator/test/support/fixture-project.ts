// Builds a small real Gradle project in a temp dir from a tree in code.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** Writes `tree` (relative path → content) under a new temp dir and returns the dir. */
export async function writeTree(tree: Record<string, string>, prefix = 'stress-gate-fixture-'): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  await writeFiles(dir, tree);
  return dir;
}

/** Writes `tree` (relative path → content) under `dir`, replacing what is there. */
export async function writeFiles(dir: string, tree: Record<string, string>): Promise<void> {
  for (const [rel, content] of Object.entries(tree)) {
    const file = path.join(dir, rel);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  }
}

const JUNIT = "files('/usr/share/java/junit4.jar', '/usr/share/java/hamcrest-core.jar')";

/**
 * Java source of `static int bump(String name)`: a test's invocation count across processes (0
 * the first time), kept in the file `fileExpr` (a Java expression using `name`) and read and bumped
 * under a file lock: repetition JVMs run side by side, and an unlocked read-modify-write would lose
 * counts (and determinism).
 */
export function lockedCounter(fileExpr: string): string {
  return `
  static int bump(String name) throws Exception {
    java.io.File f = ${fileExpr};
    f.getAbsoluteFile().getParentFile().mkdirs();
    try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(f.toPath(),
            java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.READ, java.nio.file.StandardOpenOption.WRITE);
         java.nio.channels.FileLock lock = ch.lock()) {
      java.nio.ByteBuffer buf = java.nio.ByteBuffer.allocate(32);
      int read = ch.read(buf, 0);
      String text = read <= 0 ? "" : new String(buf.array(), 0, read).trim();
      int n = text.isEmpty() ? 0 : Integer.parseInt(text);
      ch.truncate(0);
      ch.write(java.nio.ByteBuffer.wrap(String.valueOf(n + 1).getBytes()), 0);
      return n;
    }
  }`;
}

/**
 * A two-project build (:app with tests, :lib without) on JUnit 4. CheckoutTest.appliesDiscount
 * is flaky across processes: it bumps a counter file and fails when the count is 2 mod 4, so
 * the first pass (count 0) passes and ten repetitions (1..10) fail three times (2, 6, 10). Under
 * the direct executor those ten run side by side, so the candidate runs ten more times alone
 * (11..20), which fail twice (14, 18): the verdict is "2 failed". clearsCart sleeps
 * -PfixtureSleep ms (default 0).
 */
export function checkoutProject(): Record<string, string> {
  const counter = lockedCounter('new java.io.File(System.getProperty("fixture.dir"), name + ".count")');
  return {
    'settings.gradle': "rootProject.name = 'checkout'\ninclude 'app', 'lib'\n",
    'build.gradle': '',
    'lib/build.gradle': "apply plugin: 'java'\n",
    'app/build.gradle': `apply plugin: 'java'
dependencies { testCompile ${JUNIT} }
test {
  systemProperty 'fixture.dir', rootProject.projectDir.absolutePath
  systemProperty 'fixture.sleep', project.findProperty('fixtureSleep') ?: '0'
}
`,
    'app/src/test/java/com/shop/CheckoutTest.java': `package com.shop;
import org.junit.Test;
import static org.junit.Assert.*;
public class CheckoutTest {${counter}
  @Test public void appliesDiscount() throws Exception { int n = bump("appliesDiscount"); assertTrue("expected 30 but was 27 (run " + n + ")", n % 4 != 2); }
  @Test public void clearsCart() throws Exception { Thread.sleep(Integer.getInteger("fixture.sleep", 0)); assertEquals(0, 0); }
  @Test public void total() { assertEquals(4, 2 + 2); }
}
`,
    'app/src/test/java/com/shop/CartTest.java': `package com.shop;
import org.junit.Test;
import static org.junit.Assert.*;
public class CartTest {
  @Test public void existing() { assertTrue(true); }
}
`,
  };
}

/**
 * The awkward identities on one project: a JUnit 4 Parameterized test (names with quotes and
 * brackets), a non-ASCII method name, a nested class, a test inherited from an abstract base by
 * two subclasses, and a second Test task (integrationTest) running the same classes.
 */
export function identitiesProject(): Record<string, string> {
  return {
    'settings.gradle': "rootProject.name = 'identities'\n",
    'build.gradle': `apply plugin: 'java'
dependencies { testCompile ${JUNIT} }
task integrationTest(type: Test) {
  testClassesDirs = sourceSets.test.output.classesDirs
  classpath = sourceSets.test.runtimeClasspath
  include '**/ATest*'
}
`,
    'src/test/java/com/id/SumTest.java': `package com.id;
import java.util.Arrays;
import java.util.Collection;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;
import static org.junit.Assert.*;
@RunWith(Parameterized.class)
public class SumTest {
  @Parameters(name = "{index}: {0}+{1} \\"{2}\\"")
  public static Collection<Object[]> data() {
    return Arrays.asList(new Object[][] { { 1, 1, "two" }, { 2, 2, "four" }, { 2, 3, "five" } });
  }
  private final int a, b; private final String word;
  public SumTest(int a, int b, String word) { this.a = a; this.b = b; this.word = word; }
  @Test public void adds() { assertTrue(a + b > 0); }
}
`,
    'src/test/java/com/id/GrößeTest.java': `package com.id;
import org.junit.Test;
public class GrößeTest { @Test public void größe() {} }
`,
    'src/test/java/com/id/Outer.java': `package com.id;
import org.junit.Test;
public class Outer { public static class Inner { @Test public void inner() {} } }
`,
    'src/test/java/com/id/BaseTest.java': `package com.id;
import org.junit.Test;
public abstract class BaseTest { @Test public void inherited() {} }
`,
    'src/test/java/com/id/ATest.java': 'package com.id;\npublic class ATest extends BaseTest {}\n',
    'src/test/java/com/id/BTest.java': 'package com.id;\npublic class BTest extends BaseTest {}\n',
  };
}
