import { describe, expect, it } from '@jest/globals';
import { parseJUnitXml } from './junit-xml.js';

// Shaped like Gradle 4.4's TEST-*.xml.
const gradleXml = `<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="com.shop.CheckoutTest" tests="6" skipped="1" failures="1" errors="1" timestamp="2026-01-01T00:00:00" hostname="h" time="0.5">
  <properties/>
  <testcase name="adds[1: 2+2=4]" classname="com.shop.CheckoutTest" time="0.004"/>
  <testcase name="says &quot;hello&quot; to Zoë &amp; 世界 &#233;" classname="com.shop.CheckoutTest" time="1.25"/>
  <testcase name="fails" classname="com.shop.CheckoutTest" time="0.01">
    <failure message="expected:&lt;1&gt; but was:&lt;2&gt;" type="java.lang.AssertionError">java.lang.AssertionError: boom
	at com.shop.CheckoutTest.fails(CheckoutTest.java:10)</failure>
  </testcase>
  <testcase name="errs" classname="com.shop.CheckoutTest" time="0.0"><error message="npe" type="java.lang.NullPointerException">npe</error></testcase>
  <testcase name="ignored" classname="com.shop.CheckoutTest" time="0.0"><skipped/></testcase>
  <testcase name="inner" classname="com.shop.Outer$Inner" time="0.002"/>
  <system-out><![CDATA[<not xml>]]></system-out>
  <system-err><![CDATA[]]></system-err>
</testsuite>
`;

describe('parseJUnitXml', () => {
  it('reads identity, status and duration of every testcase in document order', () => {
    const r = parseJUnitXml(gradleXml, 'TEST-x.xml');
    expect(r).toEqual({
      ok: true,
      cases: [
        { suite: 'com.shop.CheckoutTest', name: 'adds[1: 2+2=4]', status: 'success', durationMs: 4 },
        { suite: 'com.shop.CheckoutTest', name: 'says "hello" to Zoë & 世界 é', status: 'success', durationMs: 1250 },
        { suite: 'com.shop.CheckoutTest', name: 'fails', status: 'failure', durationMs: 10 },
        { suite: 'com.shop.CheckoutTest', name: 'errs', status: 'failure', durationMs: 0 },
        { suite: 'com.shop.CheckoutTest', name: 'ignored', status: 'skipped', durationMs: 0 },
        { suite: 'com.shop.Outer$Inner', name: 'inner', status: 'success', durationMs: 2 },
      ],
    });
  });

  it('reads <testsuites> wrappers and keeps names exactly (spaces, numbers-looking names)', () => {
    const xml = `<testsuites><testsuite name="S"><testcase name=" 1e3 " classname="S" time="2"/></testsuite>
      <testsuite name="T"><testcase name="t" time="0.1"/></testsuite></testsuites>`;
    expect(parseJUnitXml(xml, 'f.xml')).toEqual({
      ok: true,
      cases: [
        { suite: 'S', name: ' 1e3 ', status: 'success', durationMs: 2000 },
        { suite: 'T', name: 't', status: 'success', durationMs: 100 },
      ],
    });
  });

  it('reports broken XML as an error naming the file and the place', () => {
    const r = parseJUnitXml('<testsuite name="S"><testcase name="a" classname="S">', '/abs/build/test-results/test/TEST-S.xml');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(/^\/abs\/build\/test-results\/test\/TEST-S\.xml: broken JUnit XML/);
  });

  it('rejects a file that is not a JUnit report', () => {
    expect(parseJUnitXml('<coverage/>', 'c.xml')).toEqual({ ok: false, error: 'c.xml: not a JUnit XML report (no <testsuite> element)' });
  });

  it('accepts an empty suite', () => {
    expect(parseJUnitXml('<testsuite name="S" tests="0"/>', 'e.xml')).toEqual({ ok: true, cases: [] });
  });
});
