// The class path a repetition JVM starts with, laid out so that a class-data-sharing archive can
// hold its libraries. The JDK archives classes only from jar files at the head of the class path
// and refuses a class path whose archived part holds a non-empty directory (JDK 17: "Cannot have
// non-empty directory in paths"); a build's test class path usually starts with its class
// directories (build/classes/java/test, target/test-classes), so nothing of it could be archived.
//
// The layout moves the directories after the jars, the runner jar among the jars. Fidelity: a JVM
// looks a class or resource up entry by entry and takes the first that has it, so moving entries
// changes what a test observes only for a name in more than one of them. The directories move only
// when no file name in any of them is in any jar (nor in the runner jar, nor in a jar another names
// in its Class-Path manifest attribute: those are searched right after it, so they move with it,
// and a directory named there keeps the order); otherwise the class path keeps
// the build's order and the archive holds the jars that lead it, if any. A test reading
// `java.class.path` still sees the build's order: the runner sets it back (runner-request.ts).
import { open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';

/** How one target's JVMs lay out their class path. */
export interface ClassPathLayout {
  /** The JVM's class path, in the order it starts with. */
  runtime: string[];
  /** The jars leading `runtime`: what a class archive can hold (the dump's class path). */
  archived: string[];
  /** The directories were moved after the jars. */
  reordered: boolean;
  /** Why they were not (when some jar follows a directory). */
  kept?: string;
}

/** Most files read from a class path's directories before the layout gives up moving them. */
export const MAX_DIRECTORY_FILES = 200_000;

type Kind = 'jar' | 'dir' | 'none';

/** Lays out `classpath` (the runner jar already in it). Never throws: trouble keeps the build's order. */
export async function layoutClassPath(classpath: readonly string[]): Promise<ClassPathLayout> {
  const kinds = await Promise.all(classpath.map(kindOf));
  const firstNonJar = kinds.findIndex((k) => k !== 'jar');
  const leading = firstNonJar < 0 ? [...classpath] : classpath.slice(0, firstNonJar);
  const jarAfter = firstNonJar >= 0 && kinds.slice(firstNonJar).includes('jar');
  if (!jarAfter) return { runtime: [...classpath], archived: leading, reordered: false };
  const keep = (kept: string): ClassPathLayout => ({ runtime: [...classpath], archived: leading, reordered: false, kept });
  try {
    const jars = classpath.filter((_, i) => kinds[i] === 'jar');
    const dirs = classpath.filter((_, i) => kinds[i] === 'dir');
    const inJars = new Set<string>();
    const seen = new Set<string>();
    const queue = [...jars];
    while (queue.length) {
      const jar = queue.shift()!;
      if (seen.has(jar)) continue;
      seen.add(jar);
      const listing = await jarListing(jar);
      for (const name of listing.files) inJars.add(name);
      for (const ref of listing.classPath) {
        const entry = path.resolve(path.dirname(jar), ref);
        const kind = await kindOf(entry);
        if (kind === 'dir') return keep(`${jar} names the directory ${entry} in its manifest (Class-Path)`);
        if (kind === 'jar') queue.push(entry);
      }
    }
    let files = 0;
    for (const dir of dirs) {
      for await (const name of filesUnder(dir)) {
        if (++files > MAX_DIRECTORY_FILES) return keep(`the class directories hold more than ${MAX_DIRECTORY_FILES} files`);
        if (inJars.has(name)) return keep(`${name} is both in ${dir} and in a jar: moving the directory would change which one a test gets`);
      }
    }
  } catch (e) {
    return keep(`the class path could not be read (${(e as Error).message})`);
  }
  const jars = classpath.filter((_, i) => kinds[i] === 'jar');
  return { runtime: [...jars, ...classpath.filter((_, i) => kinds[i] !== 'jar')], archived: jars, reordered: true };
}

async function kindOf(entry: string): Promise<Kind> {
  const s = await stat(entry).catch(() => null);
  if (!s) return 'none';
  return s.isDirectory() ? 'dir' : s.isFile() ? 'jar' : 'none';
}

/** Files under `dir`, as class path names (`com/x/Foo.class`). */
async function* filesUnder(dir: string, prefix = ''): AsyncGenerator<string> {
  const entries = await readdir(path.join(dir, prefix), { withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    const name = `${prefix}${e.name}`;
    if (e.isDirectory()) yield* filesUnder(dir, `${name}/`);
    else yield name;
  }
}

/** A jar's file names (versioned entries of a multi-release jar under their base name) and the entries its manifest's Class-Path names (relative to it). */
export interface JarListing {
  files: string[];
  classPath: string[];
}

const listings = new Map<string, Promise<JarListing>>();

/** Reads a jar's central directory (and its manifest); one read per jar, size and mtime per process. */
export async function jarListing(jar: string): Promise<JarListing> {
  const s = await stat(jar);
  const key = `${jar}\0${s.size}\0${s.mtimeMs}`;
  let listing = listings.get(key);
  if (!listing) {
    listing = readJarListing(jar, s.size);
    listings.set(key, listing);
    listing.catch(() => listings.delete(key));
  }
  return listing;
}

const EOCD = 0x06054b50;
const CEN = 0x02014b50;
const LOC = 0x04034b50;

async function readJarListing(jar: string, size: number): Promise<JarListing> {
  const fh = await open(jar, 'r');
  try {
    const read = async (at: number, length: number): Promise<Buffer> => {
      const b = Buffer.alloc(length);
      const { bytesRead } = await fh.read(b, 0, length, at);
      return b.subarray(0, bytesRead);
    };
    // The end of central directory record: within the last 64 KiB + 22 bytes (its comment).
    const tailStart = Math.max(0, size - (0xffff + 22));
    const tail = await read(tailStart, size - tailStart);
    let eocd = -1;
    for (let i = tail.length - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === EOCD) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) throw new Error(`${jar} is not a zip file`);
    const entries = tail.readUInt16LE(eocd + 10);
    const cenSize = tail.readUInt32LE(eocd + 12);
    const cenOffset = tail.readUInt32LE(eocd + 16);
    if (entries === 0xffff || cenSize === 0xffffffff || cenOffset === 0xffffffff) throw new Error(`${jar} is a ZIP64 file`);
    const cen = await read(cenOffset, cenSize);
    const files: string[] = [];
    let manifest: { offset: number; method: number; compressed: number } | null = null;
    for (let at = 0, n = 0; n < entries; n++) {
      if (at + 46 > cen.length || cen.readUInt32LE(at) !== CEN) throw new Error(`${jar}: a broken central directory`);
      const method = cen.readUInt16LE(at + 10);
      const compressed = cen.readUInt32LE(at + 20);
      const nameLength = cen.readUInt16LE(at + 28);
      const extraLength = cen.readUInt16LE(at + 30);
      const commentLength = cen.readUInt16LE(at + 32);
      const offset = cen.readUInt32LE(at + 42);
      const name = cen.toString('utf8', at + 46, at + 46 + nameLength);
      at += 46 + nameLength + extraLength + commentLength;
      if (name.endsWith('/')) continue;
      files.push(name.replace(/^META-INF\/versions\/\d+\//, ''));
      if (name.toUpperCase() === 'META-INF/MANIFEST.MF') manifest = { offset, method, compressed };
    }
    let classPath: string[] = [];
    if (manifest) {
      const header = await read(manifest.offset, 30);
      if (header.readUInt32LE(0) !== LOC) throw new Error(`${jar}: a broken manifest entry`);
      const dataAt = manifest.offset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
      const raw = await read(dataAt, manifest.compressed);
      const text = (manifest.method === 8 ? inflateRawSync(raw) : raw).toString('utf8');
      classPath = manifestClassPath(text);
    }
    return { files, classPath };
  } finally {
    await fh.close();
  }
}

/** Pure: the Class-Path attribute's entries of a manifest (continuation lines joined, URL-decoded). */
export function manifestClassPath(manifest: string): string[] {
  const main = manifest.replace(/\r\n?/g, '\n').split('\n\n')[0]!.replace(/\n /g, '');
  const line = main.split('\n').find((l) => /^class-path:/i.test(l));
  if (!line) return [];
  return line
    .slice('class-path:'.length)
    .trim()
    .split(/\s+/)
    .filter((e) => e !== '')
    .map((e) => {
      try {
        return decodeURIComponent(e);
      } catch {
        return e;
      }
    });
}
