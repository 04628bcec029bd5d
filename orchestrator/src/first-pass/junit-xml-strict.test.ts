// The strict fast path is held to sax: whatever it accepts, sax reads to the same cases. Generated
// documents, well-formed and broken; the fixtures of real tools; and the shape Gradle writes,
// which it must accept (or it would be a fast path never taken).
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseJUnitXmlWithSax } from './junit-xml.js';
import { parseStrictJUnitXml } from './junit-xml-strict.js';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/junit-xml');

/** Attribute values: plain, with the predefined entities, and with what the fast path refuses. */
const value = fc.oneof(
  { weight: 40, arbitrary: fc.constantFrom('S', 'com.example.CheckoutTest', 'pays()', '0.012', '1.5', '', 'x y', 'Ünïcødé 🧪', '[1] a=1, b=2') },
  { weight: 2, arbitrary: fc.constantFrom('a &amp; b', '&lt;init&gt;', '&quot;q&quot;', '&apos;', '&#65;', '&#x42;', '&foo;', '& loose', 'tab\there', 'new\nline', 'cr\rx', 'lt<', 'gt>', "it's", 'say "hi"') },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
);
const attrName = fc.constantFrom('name', 'classname', 'time', 'message', 'type', 'tests', 'failures', 'x:y');
const text = fc.oneof(
  { weight: 30, arbitrary: fc.constantFrom('', ' ', '\n  ', 'output line', 'java.lang.AssertionError: expected:&lt;1&gt;', '&amp;&quot;&apos;', '<![CDATA[raw <testcase name="fake"/> & ]]>', '<![CDATA[]]>') },
  { weight: 1, arbitrary: fc.constantFrom('&bogus;', '&#65;', '& loose', 'a ]]> b', '<!-- a comment -->', '<?pi data?>') },
);

interface Node {
  name: string;
  attrs: [string, string][];
  children: (Node | string)[];
}

const node: fc.Memo<Node> = fc.memo((depth) =>
  fc.record({
    name: fc.constantFrom('testsuite', 'testsuites', 'testcase', 'failure', 'error', 'skipped', 'flakyFailure', 'rerunFailure', 'system-out', 'properties', 'property', 'other'),
    // Mostly named (a testcase without a name or classname is refused by both).
    // Mostly named (a testcase without a name or classname is refused by both), and a repeated
    // attribute only now and then (the fast path leaves those to sax).
    attrs: fc
      .tuple(fc.boolean(), value, value, fc.array(fc.tuple(attrName, value), { maxLength: 3 }), fc.integer({ min: 0, max: 9 }))
      .map(([named, n, c, rest, dice]) => {
        const all: [string, string][] = named ? [['name', n], ['classname', c], ...rest] : rest;
        return dice === 0 ? all : all.filter(([k], i) => all.findIndex(([other]) => other === k) === i);
      }),
    children: depth <= 1 ? fc.array(text, { maxLength: 2 }) : fc.array(fc.oneof(text, node(depth - 1)), { maxLength: 4 }),
  }),
);

interface Style {
  quote: '"' | "'";
  spaceAroundEq: boolean;
  emptyAsPair: boolean;
}

function serialize(n: Node | string, style: Style): string {
  if (typeof n === 'string') return n;
  const eq = style.spaceAroundEq ? ' = ' : '=';
  const attrs = n.attrs.map(([k, v]) => ` ${k}${eq}${style.quote}${v}${style.quote}`).join('');
  if (n.children.length === 0 && !style.emptyAsPair) return `<${n.name}${attrs}/>`;
  return `<${n.name}${attrs}>${n.children.map((c) => serialize(c, style)).join('')}</${n.name}>`;
}

const document = fc.record({
  // Mostly a report (a root that is not one is refused by both, so compares nothing).
  root: fc.tuple(node(4), fc.constantFrom('testsuite', 'testsuite', 'testsuites', 'other')).map(([n, name]) => ({ ...n, name })),
  style: fc.record({ quote: fc.constantFrom('"' as const, "'" as const), spaceAroundEq: fc.boolean(), emptyAsPair: fc.boolean() }),
  declaration: fc.constantFrom('', '<?xml version="1.0" encoding="UTF-8"?>\n', '  <?xml version="1.0"?>'),
  trailer: fc.constantFrom('', '\n', ' <other/>', 'text', '<!-- c -->'),
});

/** Damage: a cut, a character dropped, or one of XML's special characters put in. */
const damage = fc.oneof(
  fc.constant(null),
  fc.record({ at: fc.nat(), kind: fc.constantFrom('cut', 'drop', '<', '>', '&', '"', '/', ' ', '=') }),
);

function damaged(xml: string, d: { at: number; kind: string } | null): string {
  if (d === null || xml.length === 0) return xml;
  const at = d.at % xml.length;
  if (d.kind === 'cut') return xml.slice(0, at);
  if (d.kind === 'drop') return xml.slice(0, at) + xml.slice(at + 1);
  return xml.slice(0, at) + d.kind + xml.slice(at);
}

/** A report as Gradle writes it: testsuite, properties, testcases with a failure or skipped, CDATA output. */
function gradleReport(cases: { name: string; outcome: 'pass' | 'fail' | 'skip'; time: string }[], suite: string): string {
  const esc = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
  const body = cases
    .map((c) => {
      const open = `  <testcase name="${esc(c.name)}" classname="${esc(suite)}" time="${c.time}"`;
      if (c.outcome === 'pass') return `${open}/>`;
      if (c.outcome === 'skip') return `${open}>\n    <skipped/>\n  </testcase>`;
      return `${open}>\n    <failure message="java.lang.AssertionError" type="java.lang.AssertionError">java.lang.AssertionError\n\tat ${esc(suite)}.${esc(c.name)}(X.java:1)\n</failure>\n  </testcase>`;
    })
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="${esc(suite)}" tests="${cases.length}" skipped="0" failures="0" errors="0" timestamp="2026-12-01T10:00:00" hostname="ci" time="0.5">
  <properties/>
${body}
  <system-out><![CDATA[some output <with> & markup]]></system-out>
  <system-err><![CDATA[]]></system-err>
</testsuite>
`;
}

describe('the strict JUnit XML fast path', () => {
  it('reads whatever it accepts to exactly what sax reads (generated documents, well-formed and damaged)', () => {
    let accepted = 0;
    fc.assert(
      fc.property(document, damage, ({ root, style, declaration, trailer }, d) => {
        const xml = damaged(`${declaration}${serialize(root, style)}${trailer}`, d);
        const strict = parseStrictJUnitXml(xml, 'TEST-gen.xml');
        if (strict === null) return;
        accepted++;
        expect(strict).toEqual(parseJUnitXmlWithSax(xml, 'TEST-gen.xml'));
      }),
      { numRuns: 4000 },
    );
    // Not a vacuous comparison: a good share of the documents took the fast path.
    expect(accepted).toBeGreaterThan(250);
  });

  it('accepts the reports Gradle writes, failures and skips included, and reads them as sax does', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ name: fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !/[\u0000-\u001f\ud800-\udfff\ufffe\uffff]/.test(s)), outcome: fc.constantFrom('pass' as const, 'fail' as const, 'skip' as const), time: fc.constantFrom('0.001', '0.5', '12.25') }), { maxLength: 8 }),
        fc.constantFrom('com.example.CheckoutTest', 'a.b.C$Inner', 'Ünï'),
        (cases, suite) => {
          const xml = gradleReport(cases, suite);
          const strict = parseStrictJUnitXml(xml, 'TEST-gradle.xml');
          expect(strict).not.toBeNull();
          expect(strict).toEqual(parseJUnitXmlWithSax(xml, 'TEST-gradle.xml'));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('agrees with sax on the fixtures of real tools', () => {
    const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.xml'));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const xml = readFileSync(path.join(FIXTURES, f), 'utf8');
      const strict = parseStrictJUnitXml(xml, f);
      if (strict !== null) expect(strict).toEqual(parseJUnitXmlWithSax(xml, f));
    }
    // Gradle's own (test-retry's discrete executions, and mergeReruns) take the fast path.
    for (const f of files.filter((name) => name.startsWith('gradle-'))) expect(parseStrictJUnitXml(readFileSync(path.join(FIXTURES, f), 'utf8'), f)).not.toBeNull();
  });

  it('leaves to sax what it does not read: a DOCTYPE, a comment, a character reference, a missing name, an unknown entity, an unclosed or foreign root', () => {
    for (const xml of [
      '<!DOCTYPE t><testsuite name="S"/>',
      '<testsuite name="S"><!-- c --></testsuite>',
      '<testsuite name="S"><testcase name="a" classname="S"><failure>&#65;</failure></testcase></testsuite>',
      '<testsuite name="S"><testcase classname="S"/></testsuite>',
      '<testsuite name="S"><testcase name="&lol;" classname="S"/></testsuite>',
      '<testsuite name="S">',
      '<other/>',
    ]) {
      expect(parseStrictJUnitXml(xml, 'x.xml')).toBeNull();
    }
  });
});
