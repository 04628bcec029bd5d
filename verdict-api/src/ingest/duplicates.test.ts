import { describe, expect, it } from '@jest/globals';
import { BadRequestError } from '../errors/errors.js';
import { rejectDuplicates } from './duplicates.js';

describe('rejectDuplicates', () => {
  it('names both positions of a repeated identity', () => {
    const items = [
      { module: ':app', suite: 'S', name: 'a' },
      { module: ':app', suite: 'S', name: 'b' },
      { module: ':app', suite: 'S', name: 'a' },
    ];
    expect(() => rejectDuplicates(items, 'testCases')).toThrow(BadRequestError);
    expect(() => rejectDuplicates(items, 'testCases')).toThrow('testCases[2]: duplicate identity of testCases[0] (:app S a)');
  });

  it('keeps identities apart that differ only in where a NUL splits their parts', () => {
    const items = [
      { module: 'a\u0000b', suite: 'c', name: 'd' },
      { module: 'a', suite: 'b\u0000c', name: 'd' },
      { module: 'a', suite: 'b', name: 'c\u0000d' },
    ];
    expect(() => rejectDuplicates(items, 'testCases')).not.toThrow();
  });
});
