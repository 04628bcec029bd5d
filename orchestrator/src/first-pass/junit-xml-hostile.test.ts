// Hostile JUnit XML: every case is an error value naming the file, and nothing is expanded or read.
import { describe, expect, it } from '@jest/globals';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseJUnitXml, readJUnitXmlFile } from './junit-xml.js';
import { MAX_BUFFER_CHARS } from './junit-xml-reader.js';
import { readResults } from './read-results.js';

async function tempFile(name: string, content: string | Buffer): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'junit-hostile-'));
  const file = path.join(dir, name);
  await writeFile(file, content);
  return file;
}

const billionLaughs = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<testsuite name="S"><testcase name="&lol9;" classname="S"/></testsuite>`;

describe('hostile JUnit XML', () => {
  it('refuses a billion-laughs DOCTYPE without expanding anything', async () => {
    const file = await tempFile('TEST-bomb.xml', billionLaughs);
    const r = await readJUnitXmlFile(file);
    expect(r).toEqual({ ok: false, error: expect.stringMatching(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: refused at line 7.*DOCTYPE`)) });
  });

  it('never reads a file named by an external entity (XXE)', async () => {
    const secret = await tempFile('secret.txt', 'TOP-SECRET-CONTENT');
    const xml = `<?xml version="1.0"?><!DOCTYPE t [<!ENTITY xxe SYSTEM "file://${secret}">]><testsuite name="S"><testcase name="&xxe;" classname="S"/></testsuite>`;
    const r = parseJUnitXml(xml, 'TEST-xxe.xml');
    expect(r.ok).toBe(false);
    expect(JSON.stringify(r)).not.toContain('TOP-SECRET');
    expect(!r.ok && r.error).toMatch(/^TEST-xxe\.xml: refused .*DOCTYPE/);
  });

  it('does not expand an undeclared entity either', () => {
    const r = parseJUnitXml('<testsuite name="S"><testcase name="&lol;" classname="S"/></testsuite>', 'e.xml');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(/^e\.xml: broken JUnit XML at line 1, column \d+: .*entity/i);
  });

  it('names a file with invalid UTF-8', async () => {
    const bytes = Buffer.concat([Buffer.from('<testsuite name="S"><testcase name="caf'), Buffer.from([0xc3, 0x28]), Buffer.from('" classname="S"/></testsuite>')]);
    const file = await tempFile('TEST-utf8.xml', bytes);
    expect(await readJUnitXmlFile(file)).toEqual({ ok: false, error: `${file}: not valid UTF-8 (within bytes 0-${bytes.length - 1}); JUnit XML must be UTF-8` });
  });

  it('names a file that ends inside a UTF-8 character', async () => {
    const file = await tempFile('TEST-cut.xml', Buffer.concat([Buffer.from('<testsuite name="S"/><!-- '), Buffer.from([0xe4, 0xb8])]));
    expect(await readJUnitXmlFile(file)).toEqual({ ok: false, error: `${file}: not valid UTF-8 (it ends inside a character); JUnit XML must be UTF-8` });
  });

  it('reads statuses from child elements only, never from attributes of the same name', () => {
    const xml = `<testsuite name="S">
      <testcase name="a" classname="S" failure="yes" skipped="true" error="1"/>
      <testcase name="b" classname="S"><name>evil</name><classname>Other</classname></testcase>
      <testcase name="c" classname="S"><system-out><failure/></system-out></testcase>
    </testsuite>`;
    expect(parseJUnitXml(xml, 'f.xml')).toEqual({
      ok: true,
      cases: [
        { suite: 'S', name: 'a', status: 'success', durationMs: 0 },
        { suite: 'S', name: 'b', status: 'success', durationMs: 0 },
        { suite: 'S', name: 'c', status: 'success', durationMs: 0 },
      ],
    });
  });

  it('keeps the first of two equal attributes (sax drops the second)', () => {
    const r = parseJUnitXml('<testsuite name="S"><testcase name="a" name="b" classname="S"/></testsuite>', 'd.xml');
    expect(r).toEqual({ ok: true, cases: [{ suite: 'S', name: 'a', status: 'success', durationMs: 0 }] });
  });

  it('reads past a huge system-out (CDATA and escaped text) without keeping it', async () => {
    const chunk = 'x'.repeat(1024 * 1024);
    const big = Array.from({ length: 20 }, () => chunk).join('\n');
    const file = await tempFile(
      'TEST-big.xml',
      `<testsuite name="S"><testcase name="a" classname="S" time="1"><system-out><![CDATA[${big}]]></system-out></testcase>` +
        `<system-out>${big}&amp;</system-out><system-err><![CDATA[${big}]]></system-err><testcase name="b" classname="S"/></testsuite>`,
    );
    const r = await readJUnitXmlFile(file);
    expect(r.ok ? r : r.error).toEqual({
      ok: true,
      cases: [
        { suite: 'S', name: 'a', status: 'success', durationMs: 1000 },
        { suite: 'S', name: 'b', status: 'success', durationMs: 0 },
      ],
    });
  });

  it('refuses an attribute longer than the buffer bound, naming the file', () => {
    const r = parseJUnitXml(`<testsuite name="S"><testcase name="${'n'.repeat(MAX_BUFFER_CHARS + 256 * 1024)}" classname="S"/></testsuite>`, 'long.xml');
    expect(r.ok ? 'parsed' : r.error).toMatch(/^long\.xml: broken JUnit XML at line 1, column \d+: Max buffer length exceeded: attribValue/);
  });

  it('names an unreadable path', async () => {
    const r = await readJUnitXmlFile('/nonexistent/TEST-x.xml');
    expect(r).toEqual({ ok: false, error: expect.stringMatching(/^\/nonexistent\/TEST-x\.xml: could not be read: ENOENT/) });
  });

  it('keeps reading the other reports of the first pass when one is hostile', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'junit-hostile-dir-'));
    await writeFile(path.join(dir, 'TEST-A.xml'), billionLaughs);
    await writeFile(path.join(dir, 'TEST-B.xml'), Buffer.from([0x3c, 0xff, 0xfe]));
    await writeFile(path.join(dir, 'TEST-C.xml'), '<testsuite name="S"><testcase name="c" classname="S"/></testsuite>');
    const r = await readResults([{ path: ':t', projectPath: ':', name: 't', junitXmlDir: dir }], 0);
    expect(r.errors).toEqual([expect.stringContaining(`${path.join(dir, 'TEST-A.xml')}: refused`), expect.stringContaining(`${path.join(dir, 'TEST-B.xml')}: not valid UTF-8`)]);
    expect(r.tasks[0]!.cases.map((c) => c.name)).toEqual(['c']);
  });
});
