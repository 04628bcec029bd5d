import { describe, expect, it } from '@jest/globals';
import { formatDuration, formatLimit, plural, wrap } from './format.js';

describe('format', () => {
  it('formats durations as the report prints them', () => {
    expect(formatDuration(4)).toBe('4ms');
    expect(formatDuration(4_240)).toBe('4.2s');
    expect(formatDuration(362_000)).toBe('6m 2s');
    expect(formatDuration(600_000)).toBe('10m');
    expect(formatDuration(3_723_000)).toBe('1h 2m 3s');
  });

  it('formats limits in words, and as adjectives', () => {
    expect(formatLimit(300_000)).toBe('5 minutes');
    expect(formatLimit(60_000)).toBe('1 minute');
    expect(formatLimit(30_000)).toBe('30 seconds');
    expect(formatLimit(600_000, true)).toBe('10-minute');
    expect(formatLimit(90_000)).toBe('1m 30s');
  });

  it('pluralises', () => {
    expect(plural(1, 'new test case')).toBe('1 new test case');
    expect(plural(3, 'new test case')).toBe('3 new test cases');
  });

  it('wraps at 80 columns with a hanging indent, never splitting a word', () => {
    const text = 'appliesDiscount failed 2 of 10 repetitions and would have blocked this merge request. Pass --stress-new-tests enforce to make it blocking.';
    expect(wrap(text, ' ! ', '   ')).toEqual([
      ' ! appliesDiscount failed 2 of 10 repetitions and would have blocked this merge',
      '   request. Pass --stress-new-tests enforce to make it blocking.',
    ]);
    expect(wrap('x'.repeat(100), ' ! ', '   ')).toEqual([` ! ${'x'.repeat(100)}`]);
  });
});
