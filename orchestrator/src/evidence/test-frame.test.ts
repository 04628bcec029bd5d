import { describe, expect, it } from '@jest/globals';
import { groupingFrame, inTestClass, parseFrame } from './test-frame.js';

const S = 'shop.SlowTest';

describe('parseFrame', () => {
  it('takes off a named module, a class loader and a hidden class\'s address', () => {
    expect(parseFrame('java.base@17.0.9/java.lang.Thread.sleep(Native Method)')).toEqual({ cls: 'java.lang.Thread', method: 'sleep', source: 'Native Method' });
    expect(parseFrame('app//shop.SlowTest.lambda$waits$0(SlowTest.java:20)')).toEqual({ cls: 'shop.SlowTest', method: 'lambda$waits$0', source: 'SlowTest.java:20' });
    expect(parseFrame('app//shop.SlowTest$$Lambda$54/0x0000000800c4b8.run(Unknown Source)')).toEqual({ cls: 'shop.SlowTest$$Lambda$54', method: 'run', source: 'Unknown Source' });
    expect(parseFrame('shop.SlowTest$$Lambda/0x00007f3c8c00a000.run(Unknown Source)').cls).toBe('shop.SlowTest$$Lambda');
  });
});

describe('inTestClass', () => {
  it('counts nested, anonymous and lambda classes of the test\'s class as its own', () => {
    for (const f of ['shop.SlowTest$Nested.works(SlowTest.java:3)', 'shop.SlowTest$1.run(SlowTest.java:3)', 'shop.SlowTest$$Lambda$12/0x0000000800c0b8.run(Unknown Source)', 'shop.SlowTest.lambda$waits$0(SlowTest.java:20)']) {
      expect(inTestClass(f, S)).toBe(true);
    }
    expect(inTestClass('shop.SlowTestHelper.works(SlowTestHelper.java:3)', S)).toBe(false);
  });
});

describe('groupingFrame', () => {
  it('is the first frame of the test\'s class with a line, past the JDK\'s frames and a lambda\'s hidden class', () => {
    const frames = ['java.base/java.lang.Thread.sleep0(Native Method)', 'java.base/java.lang.Thread.sleep(Thread.java:509)', 'app//shop.SlowTest$$Lambda/0x00007f3c8c00a000.run(Unknown Source)', 'app//shop.SlowTest.lambda$waits$0(SlowTest.java:20)', 'app//shop.SlowTest.waits(SlowTest.java:25)'];
    expect(groupingFrame(frames, S)).toBe('shop.SlowTest.lambda$waits$0(SlowTest.java:20)');
    expect(groupingFrame(frames, `${S}$Nested`)).toBe('shop.SlowTest.lambda$waits$0(SlowTest.java:20)');
  });

  it('without a frame of the test\'s class, is the first of user code: not the JDK, a test framework, an assertion or mock library, reflection or the runner', () => {
    const frames = [
      'org.assertj.core.api.AbstractAssert.isEqualTo(AbstractAssert.java:90)',
      'org.mockito.internal.MockitoCore.verify(MockitoCore.java:1)',
      'shop.Counter$MockitoMock$12345.get(Counter.java:1)',
      'shop.Counter$$EnhancerByMockito$$1.get(Counter.java:1)',
      'java.base/jdk.internal.reflect.DirectMethodHandleAccessor.invoke(DirectMethodHandleAccessor.java:103)',
      'java.base/java.lang.invoke.LambdaForm$DMH/0x0000000801010800.invokeVirtual(LambdaForm$DMH:1000010)',
      'shop.AbstractCounterTest.counts(AbstractCounterTest.java:20)',
      'org.junit.platform.commons.util.ReflectionUtils.invokeMethod(ReflectionUtils.java:728)',
      'dev.stressgate.jvm.StressRunner.main(StressRunner.java:30)',
    ];
    expect(groupingFrame(frames, 'shop.FlakyCounterTest')).toBe('shop.AbstractCounterTest.counts(AbstractCounterTest.java:20)');
    expect(groupingFrame(['java.base/java.lang.Thread.sleep(Native Method)', 'org.junit.runners.ParentRunner.run(ParentRunner.java:413)'], S)).toBeNull();
  });
});
