import { describe, expect, it } from '@jest/globals';
import { inTestClass, trimTrace } from './trim-trace.js';

const S = 'shop.CheckoutTest';
// As JUnit 4 under the stress runner prints it (shortened from a real run).
const junit4 = `java.lang.AssertionError: expected 30 but was 27
\tat org.junit.Assert.fail(Assert.java:89)
\tat shop.CheckoutTest.total(CheckoutTest.java:17)
\tat shop.CheckoutTest.appliesDiscount(CheckoutTest.java:42)
\tat java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)
\tat java.base/java.lang.reflect.Method.invoke(Method.java:568)
\tat org.junit.runners.model.FrameworkMethod$1.runReflectiveCall(FrameworkMethod.java:59)
\tat dev.stressgate.jvm.StressRunner.main(StressRunner.java:30)
`;

describe('trimTrace', () => {
  it('keeps the frames down to the test\'s own last frame, and counts the rest', () => {
    const t = trimTrace(junit4, S);
    expect(t.trace).toBe(`java.lang.AssertionError: expected 30 but was 27
\tat org.junit.Assert.fail(Assert.java:89)
\tat shop.CheckoutTest.total(CheckoutTest.java:17)
\tat shop.CheckoutTest.appliesDiscount(CheckoutTest.java:42)
\t... 4 more`);
    expect(t.framesOmitted).toBe(4);
    expect(t.testFrame).toBe('shop.CheckoutTest.total(CheckoutTest.java:17)');
  });

  it('keeps the cause chain; a cause with no test frame keeps its first frames; "... n more" is counted', () => {
    const trace = `java.lang.IllegalStateException: checkout failed
\tat shop.CheckoutTest.appliesDiscount(CheckoutTest.java:42)
\tat org.junit.runners.ParentRunner.run(ParentRunner.java:413)
Caused by: java.io.IOException: disk
full
${Array.from({ length: 12 }, (_, i) => `\tat shop.io.Disk.write${i}(Disk.java:${i})`).join('\n')}
\t... 2 more
`;
    const t = trimTrace(trace, S);
    const lines = t.trace.split('\n');
    expect(lines.slice(0, 4)).toEqual(['java.lang.IllegalStateException: checkout failed', '\tat shop.CheckoutTest.appliesDiscount(CheckoutTest.java:42)', '\t... 1 more', 'Caused by: java.io.IOException: disk']);
    expect(lines[4]).toBe('full');
    expect(lines.filter((l) => l.includes('Disk.write'))).toHaveLength(8);
    expect(lines.at(-1)).toBe('\t... 6 more');
    expect(t.framesOmitted).toBe(1 + 4 + 2);
  });

  it('keeps an inherited test\'s frames down to its first frame of user code, below more than a few of the framework\'s, and groups by it', () => {
    const trace = [
      'org.opentest4j.AssertionFailedError: expected: <30> but was: <27>',
      ...Array.from({ length: 10 }, (_, i) => `\tat org.junit.jupiter.api.Assert${i}.fail(Assert${i}.java:${i})`),
      '\tat app//shop.AbstractCheckoutTest.appliesDiscount(AbstractCheckoutTest.java:42)',
      '\tat java.base/java.lang.reflect.Method.invoke(Method.java:569)',
    ].join('\n');
    const t = trimTrace(trace, S);
    expect(t.trace.split('\n').slice(-2)).toEqual(['\tat app//shop.AbstractCheckoutTest.appliesDiscount(AbstractCheckoutTest.java:42)', '\t... 1 more']);
    expect(t.testFrame).toBe('shop.AbstractCheckoutTest.appliesDiscount(AbstractCheckoutTest.java:42)');
  });

  it('knows nested classes and module or loader prefixes as the test\'s own', () => {
    expect(inTestClass('shop.CheckoutTest$Nested.works(CheckoutTest.java:3)', S)).toBe(true);
    expect(inTestClass('app//shop.CheckoutTest.works(CheckoutTest.java:3)', `${S}$Nested`)).toBe(true);
    expect(inTestClass('shop.CheckoutTestHelper.works(X.java:3)', S)).toBe(false);
  });
});
