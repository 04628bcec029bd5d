#!/usr/bin/env node
// Checks the commands and references of every Markdown file against the repository as built
// (`npm run check:docs`, run by `make test`), so a renamed script, target, file, flag or
// environment key breaks the build rather than the reader:
//   npm run X / npm test     X is a script of the root package.json (or of the -w workspace)
//   make X                   X is a target of the Makefile
//   repository paths         a path in code (`scripts/…`, `verdict-api/…`, …) exists; a .js
//                            under scripts/ may be compiled in place from its .ts
//   relative links           [text](path#anchor): the file exists, the anchor is a heading of it
//   stress-orchestrator …    the CLI's own parser (orchestrator/dist) accepts the command; a
//                            `--flag` it passes on to the build must be a known Gradle/Maven one
//   environment keys         every STRESS_GATE_*, STRESS_NEW_TESTS, VERDICT_API_*, CLICKHOUSE_*
//                            and BENCH_* key named appears in some code of the repository
// Usage: node scripts/check-docs.mjs [--root DIR]. Exit 1 with `file:line: problem` lines.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..');

/** Folders never read: dependencies, build output, VCS. */
const SKIP_DIRS = new Set(['node_modules', '.git', 'dist', 'build', 'target', 'vendor', '.gradle', 'test-artifacts', 'coverage']);
/** Top-level folders whose paths are checked when code names them. */
const ROOTED = ['orchestrator/', 'verdict-api/', 'gradle-plugin/', 'clickhouse/', 'scripts/', 'examples/', 'docs/', '.ci/'];
/**
 * Pages other branches add, linked before they are merged (the lead merges them). A link to one
 * that does not exist yet is allowed; once it exists, its anchors are checked like any other.
 * None now: docs/security.md and docs/failure-evidence.md are merged.
 */
export const PENDING_PAGES = [];
/** Options of Gradle and Maven that docs pass through `stress-orchestrator` to the build tool. */
const BUILD_TOOL_OPTIONS = new Set([
  '--info', '--debug', '--quiet', '--warn', '--stacktrace', '--full-stacktrace', '--scan', '--offline', '--continue',
  '--no-daemon', '--daemon', '--parallel', '--build-cache', '--no-build-cache', '--configure-on-demand', '--refresh-dependencies',
  '--tests', '--rerun-tasks', '--dry-run', '--console', '--exclude-task', '--project-cache-dir', '--gradle-user-home', '--init-script',
  '--batch-mode', '--also-make', '--projects', '--fail-at-end', '--fail-fast', '--threads', '--settings', '--file', '--define', '--activate-profiles',
]);
const MODES = new Set(['report', 'enforce', 'off']);
const ENV_KEY = /\b(STRESS_GATE_[A-Z0-9_]*[A-Z0-9]|STRESS_NEW_TESTS|VERDICT_API_[A-Z0-9_]*[A-Z0-9]|CLICKHOUSE_[A-Z0-9_]*[A-Z0-9]|BENCH_[A-Z0-9_]*[A-Z0-9])\b/g;
/** Files whose text counts as "the code" for environment keys. */
const CODE_FILE = /\.(ts|tsx|mts|mjs|js|java|sh|gradle|kts)$|^Makefile$|^run$/;

/** Every Markdown file under `root`, relative, sorted. */
export function markdownFiles(root) {
  const out = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) walk(path.join(dir, entry.name));
      } else if (entry.name.endsWith('.md')) out.push(path.relative(root, path.join(dir, entry.name)));
    }
  };
  walk(root);
  return out.sort();
}

/** The text of every code file under `root` (sources, tests, scripts, Java, the Makefile), joined. */
function codeText(root) {
  const parts = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) walk(path.join(dir, entry.name));
      } else if (CODE_FILE.test(entry.name) && !entry.name.endsWith('.d.ts')) parts.push(readFileSync(path.join(dir, entry.name), 'utf8'));
    }
  };
  walk(root);
  return parts.join('\n');
}

/** A Markdown file split into its code (fenced lines, inline spans), links and headings, with line numbers. */
export function parseMarkdown(text) {
  const code = [];
  const links = [];
  const headings = [];
  let fence = null;
  text.split('\n').forEach((line, i) => {
    const n = i + 1;
    const marker = /^\s*(`{3,}|~{3,})/.exec(line);
    if (marker) {
      if (fence === null) fence = marker[1];
      else if (line.trim().startsWith(fence)) fence = null;
      return;
    }
    if (fence !== null) {
      code.push({ line: n, text: line, fenced: true });
      return;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) headings.push(heading[2]);
    const prose = line.replace(/`+([^`]*)`+/g, (_m, span) => {
      code.push({ line: n, text: span, fenced: false });
      return ' ';
    });
    for (const m of prose.matchAll(/\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) links.push({ line: n, target: m[1] });
  });
  return { code, links, headings };
}

/** GitHub's anchors of a page's headings (lower case, punctuation dropped, spaces to hyphens, repeats numbered). */
export function anchorsOf(headings) {
  const seen = new Map();
  const anchors = new Set();
  for (const h of headings) {
    const text = h.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const base = text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Splits a command line into words: quotes group, a `#` after a space starts a comment. */
export function shellWords(line) {
  const words = [];
  let word = null;
  let quote = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = null;
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= '';
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === '#' && word === null) {
      break;
    } else word = (word ?? '') + c;
  }
  if (word !== null) words.push(word);
  return words;
}

const PLACEHOLDER = '\u0000placeholder';
const SHELL_STOP = new Set(['&&', '||', '|', ';', ')', '>', '2>&1']);
/** A placeholder rather than a literal argument (`<dir>`, `…`, `$VAR`, `${{ … }}`). */
const isPlaceholder = (w) => /[<>…${}]/.test(w);

/** The problems of one `stress-orchestrator` command (its words after the command name). */
export function checkCliWords(words, parseArgs) {
  const args = [];
  for (const w of words) {
    if (SHELL_STOP.has(w) || w.startsWith('>') || w.startsWith('2>')) break;
    args.push(w);
  }
  if (args.length === 0 || args.some((w) => isPlaceholder(w) && w.startsWith('-'))) return [];
  // A placeholder value (`"$work/report.json"`, `<dir>`) stands for some value: the parser sees one.
  const literal = args.map((w) => (isPlaceholder(w) ? PLACEHOLDER : w));
  let parsed;
  try {
    parsed = parseArgs(literal);
  } catch (e) {
    return [`stress-orchestrator ${args.join(' ')}: the CLI refuses it: ${e.message}`];
  }
  if (parsed.kind === 'help' || parsed.kind === 'version') return [];
  const problems = [];
  const mode = parsed.flags.mode;
  if (mode !== undefined && mode !== PLACEHOLDER && !MODES.has(mode)) problems.push(`stress-orchestrator … --stress-new-tests ${mode}: not a mode (report, enforce, off)`);
  const verbatim = parsed.buildArgs.length - (literal.includes('--') ? literal.length - literal.indexOf('--') - 1 : 0);
  for (const w of parsed.buildArgs.slice(0, verbatim)) {
    const name = w.split('=')[0];
    if (name.startsWith('--') && !BUILD_TOOL_OPTIONS.has(name)) problems.push(`stress-orchestrator … ${name}: not an option of the CLI, nor a Gradle or Maven option it knows to pass on`);
  }
  return problems;
}

/** The targets a Makefile defines. */
export function makeTargets(makefile) {
  const targets = new Set();
  for (const line of makefile.split('\n')) {
    const m = /^([A-Za-z0-9_.\-/ ]+?)\s*:(?![:=])/.exec(line);
    if (m && !line.startsWith('\t')) for (const t of m[1].split(/\s+/)) if (t) targets.add(t);
  }
  return targets;
}

/**
 * Checks every Markdown file under `root`; resolves to the problems (`file:line: …`) and what was
 * checked. `parseArgs` is the CLI's parser (default: the built one of this repository).
 */
export async function checkDocs(root = REPO, options = {}) {
  const parseArgs = options.parseArgs ?? (await import(pathToFileURL(path.join(REPO, 'orchestrator/dist/args/parse-args.js')).href)).parseArgs;
  const pending = new Set(options.pending ?? PENDING_PAGES);
  const files = options.files ?? markdownFiles(root);
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const scriptsOf = (workspace) => {
    if (!workspace) return pkg.scripts ?? {};
    const file = path.join(root, workspace, 'package.json');
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')).scripts ?? {}) : {};
  };
  const targets = makeTargets(existsSync(path.join(root, 'Makefile')) ? readFileSync(path.join(root, 'Makefile'), 'utf8') : '');
  const code = codeText(root);
  const parsedFiles = new Map();
  const parsed = (rel) => {
    if (!parsedFiles.has(rel)) parsedFiles.set(rel, parseMarkdown(readFileSync(path.join(root, rel), 'utf8')));
    return parsedFiles.get(rel);
  };
  const problems = [];
  const counts = { files: files.length, npm: 0, make: 0, paths: 0, links: 0, cli: 0, env: 0 };
  const envSeen = new Set();

  for (const file of files) {
    const doc = parsed(file);
    const say = (line, message) => problems.push(`${file}:${line}: ${message}`);
    for (const { line, text } of doc.code) {
      const words = shellWords(text);
      words.forEach((w, i) => {
        // npm run X, npm test (-w/--workspace picks a workspace's scripts).
        if (w === 'npm' && (words[i + 1] === 'run' || words[i + 1] === 'test')) {
          let j = i + 1;
          let workspace = null;
          if (words[j] === 'test') {
            counts.npm++;
            if (!('test' in scriptsOf(null))) say(line, 'npm test: no "test" script in package.json');
            return;
          }
          j++;
          while (words[j]?.startsWith('-')) {
            if (words[j] === '-w' || words[j] === '--workspace') workspace = words[++j];
            j++;
          }
          const name = words[j];
          if (!name || isPlaceholder(name)) return;
          counts.npm++;
          if (!(name in scriptsOf(workspace))) say(line, `npm run ${name}: no such script in ${workspace ? `${workspace}/` : ''}package.json`);
        }
        // make X [Y] [VAR=value]
        if (w === 'make') {
          for (let j = i + 1; j < words.length; j++) {
            const t = words[j];
            if (SHELL_STOP.has(t) || t.startsWith('-') || isPlaceholder(t)) break;
            if (t.includes('=')) continue;
            if (!/^[A-Za-z][\w.-]*$/.test(t)) break;
            counts.make++;
            if (!targets.has(t)) say(line, `make ${t}: no such target in the Makefile`);
          }
        }
        // Paths into the repository (commands' files, file names in prose), as built.
        const candidate = w.replace(/^\.\//, '').replace(/[.,:;)]+$/, '');
        if (ROOTED.some((r) => candidate.startsWith(r)) && !/[*…<>{}$|]/.test(candidate) && !candidate.includes('...')) {
          counts.paths++;
          const full = path.join(root, candidate);
          const compiledInPlace = candidate.startsWith('scripts/') && candidate.endsWith('.js') && existsSync(full.replace(/\.js$/, '.ts'));
          if (!existsSync(full) && !compiledInPlace && !pending.has(candidate)) say(line, `${candidate}: no such file or folder`);
        }
        // stress-orchestrator <command>: the CLI's parser decides.
        if (w === 'stress-orchestrator' || w.endsWith('/stress-orchestrator')) {
          const rest = words.slice(i + 1);
          if (rest.length === 0 || isPlaceholder(rest[0] ?? '')) return;
          counts.cli++;
          for (const p of checkCliWords(rest, parseArgs)) say(line, p);
        }
      });
    }
    // Relative links, with their anchors.
    for (const { line, target } of doc.links) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      counts.links++;
      const [rawPath, anchor] = target.split('#');
      const rel = rawPath === '' ? file : path.normalize(path.join(path.dirname(file), decodeURIComponent(rawPath)));
      if (rel.startsWith('..')) {
        say(line, `${target}: points outside the repository`);
        continue;
      }
      const full = path.join(root, rel);
      if (!existsSync(full)) {
        if (!pending.has(rel.split(path.sep).join('/'))) say(line, `${target}: no such file`);
        continue;
      }
      if (anchor && statSync(full).isFile() && rel.endsWith('.md') && !anchorsOf(parsed(rel).headings).has(anchor)) {
        say(line, `${target}: no heading "#${anchor}" in ${rel}`);
      }
    }
    // Environment keys, anywhere in the text.
    readFileSync(path.join(root, file), 'utf8')
      .split('\n')
      .forEach((text, i) => {
        for (const m of text.matchAll(ENV_KEY)) {
          const key = m[1];
          counts.env++;
          envSeen.add(key);
          if (!new RegExp(`\\b${key}\\b`).test(code)) say(i + 1, `${key}: no code reads this environment key`);
        }
      });
  }
  counts.envKeys = envSeen.size;
  return { problems, counts };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--root');
  const root = at > 0 ? path.resolve(process.argv[at + 1]) : REPO;
  const { problems, counts } = await checkDocs(root);
  for (const p of problems) process.stderr.write(`${p}\n`);
  const summary = `${counts.files} Markdown files: ${counts.npm} npm commands, ${counts.make} make targets, ${counts.paths} paths, ${counts.links} links, ${counts.cli} stress-orchestrator commands, ${counts.envKeys} environment keys`;
  if (problems.length > 0) {
    process.stderr.write(`check-docs: ${problems.length} broken reference(s) in ${summary}\n`);
    process.exit(1);
  }
  process.stdout.write(`check-docs: ${summary}: all resolve\n`);
}
