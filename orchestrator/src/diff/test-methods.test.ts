import { describe, expect, it } from '@jest/globals';
import { fingerprintTokens, methodDigest, providersOf } from './fingerprint.js';
import { namedMethod } from './source-index.js';
import { scanSource } from './test-methods.js';

const JAVA = `package com.shop;

import org.junit.jupiter.api.Test;

/** Checkout { not code } */
class CheckoutTest {
  private final Runnable r = () -> { System.out.println("}"); };
  static { init(); }

  @Test
  void appliesDiscount() {
    String s = "{ \\" }"; char c = '}';
    assertEquals(1, 1); // }
  }

  @ParameterizedTest
  @MethodSource("amounts")
  void adds(int a) {
    assertTrue(a > 0);
  }

  static Stream<Integer> amounts() { return Stream.of(1, 2); }

  @Nested
  class Refunds {
    @Test @Timeout(value = 5, unit = SECONDS) public void refunds() throws Exception {
      new Thread() { public void run() {} }.start();
    }
  }
}
`;

const KOTLIN = `package com.shop

class CartTest {
    private val items = listOf(1, 2).map { it * 2 }

    @Test
    fun \`adds an item\`() {
        val s = "\${items.map { "}" }}"
        assertEquals(2, items.size)
    }

    @Test fun total() = runTest {
        assertEquals(6, items.sum())
    }

    val after = 1

    companion object {
        @JvmStatic fun sizes() = listOf(1, 2)
    }
}
`;

describe('scanSource', () => {
  it('finds Java methods with their spans, past braces in strings, comments, lambdas and anonymous classes', () => {
    const file = scanSource(JAVA, 'java');
    expect(file.packageName).toBe('com.shop');
    const spans = file.methods.map((m) => [m.className, m.name, m.startLine, m.endLine]);
    expect(spans).toEqual([
      ['CheckoutTest', 'appliesDiscount', 10, 14],
      ['CheckoutTest', 'adds', 16, 20],
      ['CheckoutTest', 'amounts', 22, 22],
      ['CheckoutTest$Refunds', 'refunds', 26, 28],
    ]);
    const refunds = file.methods.find((m) => m.name === 'refunds')!;
    expect(refunds.annotations.map((a) => a.name)).toEqual(['Test', 'Timeout']);
  });

  it('finds Kotlin functions with block and expression bodies, backticked names and companions', () => {
    const file = scanSource(KOTLIN, 'kotlin');
    expect(file.methods.map((m) => [m.className, m.name, m.startLine, m.endLine])).toEqual([
      ['CartTest', 'adds an item', 6, 10],
      ['CartTest', 'total', 12, 14],
      ['CartTest$Companion', 'sizes', 19, 19],
    ]);
  });

  it('keeps a fingerprint through a rename, a move, comments and layout, and changes it with a line of the body or of its provider', () => {
    const digest = (src: string, name: string) => {
      const file = scanSource(src, 'java');
      return methodDigest(fingerprintTokens(file, file.methods.find((m) => m.name === name)!));
    };
    const base = digest(JAVA, 'adds');
    const renamed = JAVA.replace('void adds(int a)', 'void addsAmounts(int a)').replace('class CheckoutTest', 'class OtherTest');
    expect(digest(renamed, 'addsAmounts')).toBe(base);
    expect(digest(JAVA.replace('assertTrue(a > 0);', '// why\n    assertTrue(  a > 0 );'), 'adds')).toBe(base);
    expect(digest(JAVA.replace('assertTrue(a > 0);', 'assertTrue(a >= 0);'), 'adds')).not.toBe(base);
    expect(digest(JAVA.replace('Stream.of(1, 2)', 'Stream.of(1, 2, 3)'), 'adds')).not.toBe(base);
  });

  it('finds TestNG data providers and JUnit 4 Parameters methods', () => {
    const testng = scanSource(
      `package p; class T {
        @DataProvider(name = "rows") Object[][] data() { return new Object[][] {{1}}; }
        @Test(dataProvider = "rows") public void reads(int x) {}
      }`,
      'java',
    );
    expect(providersOf(testng, testng.methods[1]!).map((m) => m.name)).toEqual(['data']);
    const junit4 = scanSource(
      `package p; @RunWith(Parameterized.class) public class T {
        @Parameters public static Collection<Object[]> data() { return List.of(); }
        @Test public void reads() {}
      }`,
      'java',
    );
    expect(providersOf(junit4, junit4.methods[1]!).map((m) => m.name)).toEqual(['data']);
  });
});

describe('namedMethod', () => {
  it('reads the method from the JUnit Platform unique ID, else from the name', () => {
    expect(namedMethod({ module: ':', suite: 'com.x.A$B', name: 'my display name', source: { uniqueId: '[engine:junit-jupiter]/[class:com.x.A]/[nested-class:B]/[test-template:adds(int)]/[test-template-invocation:#2]' } })).toEqual({
      packageName: 'com.x',
      className: 'A$B',
      method: 'adds',
      invocation: '(int)#2',
    });
    expect(namedMethod({ module: ':', suite: 'com.x.A', name: 'adds[3]' })).toEqual({ packageName: 'com.x', className: 'A', method: 'adds', invocation: '[3]' });
    expect(namedMethod({ module: ':', suite: 'A', name: 'plain' })).toEqual({ packageName: '', className: 'A', method: 'plain', invocation: '' });
    expect(namedMethod({ module: ':', suite: 'A', name: '1 + 1 = 2' })).toBeNull();
  });
});
