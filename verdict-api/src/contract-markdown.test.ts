import { describe, expect, it } from '@jest/globals';
import MarkdownIt from 'markdown-it';
import { code, codeBlock, cut, framesShown, visible } from './contract-markdown.js';

// A CommonMark parser with raw HTML on, as GitHub and GitLab read a comment before sanitising it.
const md = new MarkdownIt({ html: true, linkify: true });
const inline = (s: string) => md.parseInline(s, {})[0]!.children!;

describe('code', () => {
  it.each([
    ['plain', 'com.shop.CheckoutTest', '`com.shop.CheckoutTest`'],
    ['a backtick inside', 'a`b', '``a`b``'],
    ['a run of three', 'x```y', '````x```y````'],
    ['a leading backtick (padded)', '`x', '`` `x ``'],
    ['a trailing space (padded)', 'x ', '` x  `'],
    ['newlines', 'a\nb\r\nc\rd', '`a b c d`'],
  ])('%s', (_label, text, expected) => {
    expect(code(text)).toBe(expected);
  });

  it.each(['a`b', '`x', 'x`', '``', 'x ', ' x', '<!-- swallow', '-->', '<details><summary>x</summary>', '<script>alert(1)</script>', '@octocat', '[x](https://evil.example)', '![i](https://evil.example/i.png)', 'https://evil.example', '*em* _u_ **b**', '&amp; &#64;', 'back\\slash\\'])(
    'reads back %j as exactly one code span holding the text',
    (text) => {
      const tokens = inline(code(text));
      expect(tokens.map((t) => t.type)).toEqual(['code_inline']);
      expect(tokens[0]!.content).toBe(text);
    },
  );

  it('keeps a GFM table row whole around pipes, with or without backslashes before them', () => {
    for (const name of ['a|b', 'a\\|b', 'a\\\\|b', '|', '||x||', 'end\\']) {
      const table = md.parse(`| Test | Module |\n| --- | --- |\n| ${code(name, { in: 'table' })} | ${code(':app', { in: 'table' })} |\n`, {});
      const cells = table.filter((t) => t.type === 'td_open').length;
      expect([name, cells]).toEqual([name, 2]);
      const spans = table.filter((t) => t.type === 'inline').flatMap((t) => t.children!.filter((c) => c.type === 'code_inline').map((c) => c.content));
      // The pipe's own escape is read away; the text keeps every other character.
      expect(spans[0]!.replaceAll('\\', '')).toBe(name.replaceAll('\\', ''));
    }
  });
});

describe('codeBlock', () => {
  it('uses a fence longer than any backtick run inside, at least three', () => {
    expect(codeBlock('x')).toBe('```text\nx\n```\n');
    expect(codeBlock('a ```` b', 'sh')).toBe('`````sh\na ```` b\n`````\n');
  });

  it.each(['```', '````\nafter the fence', '~~~\n<!-- x', '</details>\n\n# heading\n@octocat', '\tat x(X.java:1)\r\n\tat y(Y.java:2)\r', ''])('reads back %j as one fence holding the text', (text) => {
    const tokens = md.parse(`before\n\n${codeBlock(text)}\nafter\n`, {});
    const fences = tokens.filter((t) => t.type === 'fence');
    expect(fences).toHaveLength(1);
    expect(fences[0]!.content).toBe(`${text.replace(/\r\n?/g, '\n').replace(/\n$/, '')}\n`);
    expect(tokens.filter((t) => t.type === 'inline').map((t) => t.content)).toEqual(['before', 'after']);
  });
});

describe('cut', () => {
  it('keeps short text and marks a cut one', () => {
    expect(cut('abc', 3)).toBe('abc');
    expect(cut('abcdef', 4)).toBe('abc…');
  });
  it('never splits a surrogate pair', () => {
    const s = cut('ab🧪cd', 4);
    expect(s.isWellFormed()).toBe(true);
    expect(s).toBe('ab…');
  });
});

describe('framesShown', () => {
  const frames = ['at a.A.x(A.java:1)', 'at a.A.y(A.java:2)', 'at a.A.z(A.java:3)', 'at t.T.test(T.java:9)', 'at r.R.run(R.java:4)'];
  const gap = (n: number) => `… ${n}`;
  it('shows the top frames when the test line is among them, or unknown', () => {
    expect(framesShown(frames, 4, 'T.java:9', gap)).toEqual({ lines: frames.slice(0, 4), left: 1 });
    expect(framesShown(frames, 3, null, gap)).toEqual({ lines: frames.slice(0, 3), left: 2 });
    expect(framesShown(frames, 3, 'Elsewhere.java:1', gap)).toEqual({ lines: frames.slice(0, 3), left: 2 });
  });
  it('keeps the test line when it lies deeper, within the same number of lines', () => {
    expect(framesShown(frames, 3, 'T.java:9', gap)).toEqual({ lines: ['at a.A.x(A.java:1)', '… 2', 'at t.T.test(T.java:9)'], left: 1 });
  });
});

describe('visible', () => {
  it('writes control and bidirectional characters as escapes, and keeps tab and newline', () => {
    expect(visible('a\u001b[31mred\u0000\u0007\u007f\u0085')).toBe('a\\u001b[31mred\\u0000\\u0007\\u007f\\u0085');
    expect(visible('invoice\u202egnp.exe \u2066x\u2069 \u200e\u200f\u061c')).toBe('invoice\\u202egnp.exe \\u2066x\\u2069 \\u200e\\u200f\\u061c');
    expect(visible('line\tone\nline two \u2028')).toBe('line\tone\nline two \\u2028');
    expect(visible('Größe 数据 😀')).toBe('Größe 数据 😀');
  });

  it('leaves no control or bidirectional character in a code span or a code block', () => {
    const hostile = 'a\u202eb\u001b[2Jc\u0000';
    expect(code(hostile)).toBe('`a\\u202eb\\u001b[2Jc\\u0000`');
    expect(codeBlock(`${hostile}\nnext`)).toBe('```text\na\\u202eb\\u001b[2Jc\\u0000\nnext\n```\n');
  });
});
