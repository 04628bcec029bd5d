// The class path's layout for the archive, on real jars made by the JDK's `jar` tool: the
// directories move after the jars only when no name is in both.
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { jarListing, layoutClassPath, manifestClassPath } from './class-path-layout.js';

/** A directory of `files` (name → text). */
function tree(root: string, name: string, files: Record<string, string>): string {
  const dir = path.join(root, name);
  mkdirSync(dir, { recursive: true });
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

/** A jar of `files`, with `manifest` lines when given. */
function jar(root: string, name: string, files: Record<string, string>, manifest?: string): string {
  const src = tree(root, `${name}-src`, files);
  const file = path.join(root, `${name}.jar`);
  const args = manifest ? ['--create', '--file', file, '--manifest', path.join(root, `${name}.mf`), '-C', src, '.'] : ['--create', '--file', file, '-C', src, '.'];
  if (manifest) writeFileSync(path.join(root, `${name}.mf`), `${manifest}\n`);
  execFileSync('jar', args);
  return file;
}

const fresh = () => mkdtempSync(path.join(os.tmpdir(), 'class-path-layout-'));

describe('the class path layout', () => {
  it('moves the class directories after the jars when no name is in both, and archives the jars', async () => {
    const root = fresh();
    const classes = tree(root, 'test-classes', { 'com/x/FooTest.class': 'a', 'fixtures/data.json': '{}' });
    const missing = path.join(root, 'resources-that-do-not-exist');
    const lib = jar(root, 'lib', { 'org/lib/Lib.class': 'b', 'META-INF/services/org.lib.Spi': 'org.lib.Impl' });
    const runner = jar(root, 'runner', { 'dev/stressgate/jvm/StressRunner.class': 'c' });
    const layout = await layoutClassPath([classes, missing, lib, runner]);
    expect(layout).toEqual({ runtime: [lib, runner, classes, missing], archived: [lib, runner], reordered: true });
  });

  it('keeps the build order when a directory and a jar hold the same name, and says which', async () => {
    const root = fresh();
    const resources = tree(root, 'resources', { 'log4j2-test.xml': '<a/>' });
    const lib = jar(root, 'lib', { 'log4j2-test.xml': '<b/>', 'org/lib/Lib.class': 'b' });
    const tail = jar(root, 'tail', { 'org/tail/T.class': 'c' });
    const layout = await layoutClassPath([lib, resources, tail]);
    expect(layout.reordered).toBe(false);
    expect(layout.runtime).toEqual([lib, resources, tail]);
    // The jar before the first directory is still archived.
    expect(layout.archived).toEqual([lib]);
    expect(layout.kept).toContain(`log4j2-test.xml is both in ${resources} and in a jar`);
  });

  it('counts the names of a jar that another names in its Class-Path, and keeps the order for a directory named there', async () => {
    const root = fresh();
    const classes = tree(root, 'classes', { 'org/hamcrest/Matcher.class': 'shadow' });
    jar(root, 'hamcrest', { 'org/hamcrest/Matcher.class': 'real' });
    const junit = jar(root, 'junit', { 'org/junit/Test.class': 'j' }, 'Class-Path: hamcrest.jar');
    expect((await jarListing(junit)).classPath).toEqual(['hamcrest.jar']);
    expect((await layoutClassPath([classes, junit])).kept).toContain('org/hamcrest/Matcher.class is both in');
    tree(root, 'extra', { 'e.txt': 'x' });
    const naming = jar(root, 'naming', { 'n/N.class': 'n' }, 'Class-Path: extra/');
    const plain = tree(root, 'plain', { 'p/P.class': 'p' });
    expect((await layoutClassPath([plain, naming])).kept).toContain('names the directory');
  });

  it('leaves an order that already has its jars first as it is', async () => {
    const root = fresh();
    const lib = jar(root, 'lib', { 'a/A.class': 'a' });
    const classes = tree(root, 'classes', { 'a/A.class': 'other' });
    expect(await layoutClassPath([lib, classes])).toEqual({ runtime: [lib, classes], archived: [lib], reordered: false });
    expect(await layoutClassPath([classes])).toEqual({ runtime: [classes], archived: [], reordered: false });
  });

  it('keeps the order for a class path entry that is not a zip file', async () => {
    const root = fresh();
    const classes = tree(root, 'classes', { 'a/A.class': 'a' });
    const notZip = path.join(root, 'not-a.jar');
    writeFileSync(notZip, 'plain text');
    const layout = await layoutClassPath([classes, notZip]);
    expect(layout).toMatchObject({ reordered: false, kept: expect.stringContaining('is not a zip file') });
  });

  it('reads a manifest Class-Path with continuation lines, and only from the main section', () => {
    expect(manifestClassPath('Manifest-Version: 1.0\r\nClass-Path: a.jar lib/b%20c.ja\r\n r d.jar\r\n\r\nName: x\r\nClass-Path: no.jar\r\n')).toEqual(['a.jar', 'lib/b c.jar', 'd.jar']);
    expect(manifestClassPath('Manifest-Version: 1.0\n')).toEqual([]);
  });
});
