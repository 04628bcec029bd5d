import { describe, expect, it } from '@jest/globals';
import { testNgName } from './testng-names.js';

describe('testNgName', () => {
  it('reads a data-provider invocation as Gradle and Surefire write it (both as seen in real reports)', () => {
    expect(testNgName('adds[0](1, 1, 2)', 'gradle')).toEqual({ method: 'adds', invocation: 0 });
    expect(testNgName('adds[2](3, 3, 6)', 'gradle')).toEqual({ method: 'adds', invocation: 2 });
    expect(testNgName('adds[1, 1, 2](1)', 'surefire')).toEqual({ method: 'adds', invocation: 0 });
    expect(testNgName('adds[3, 3, 6](3)', 'surefire')).toEqual({ method: 'adds', invocation: 2 });
  });

  it('takes a plain name, or one in the other tool\'s form, as the method itself', () => {
    expect(testNgName('plain', 'gradle')).toEqual({ method: 'plain', invocation: -1 });
    expect(testNgName('plain', 'surefire')).toEqual({ method: 'plain', invocation: -1 });
    expect(testNgName('adds[1, 1, 2](1)', 'gradle')).toEqual({ method: 'adds[1, 1, 2](1)', invocation: -1 });
  });

  it('keeps arguments holding brackets, parentheses and newlines inside the invocation', () => {
    expect(testNgName('parses[4]((a), [b]\nc)', 'gradle')).toEqual({ method: 'parses', invocation: 4 });
    expect(testNgName('parses[(a), [b]](12)', 'surefire')).toEqual({ method: 'parses', invocation: 11 });
  });
});
