// A Test task's fork settings as the plugin exported them when the task ran in the first pass
// (<manifest>.forks/<path>.json): what the direct executor needs to start the same test JVM.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as v from 'valibot';

/** Schema of one fork-settings file. */
export const ForkSpecSchema = v.object({
  path: v.string(),
  framework: v.string(),
  executable: v.pipe(v.string(), v.minLength(1)),
  jvmArgs: v.array(v.string()),
  classpath: v.array(v.string()),
  workingDir: v.string(),
  environment: v.record(v.string(), v.nullable(v.string())),
});
/** One Test task's resolved fork settings. */
export type ForkSpec = v.InferOutput<typeof ForkSpecSchema>;

/** `/x/manifest.json` + `:app:test` → `/x/manifest.forks/app_test.json`, as the plugin names it. */
export function forkSpecPath(manifest: string, taskPath: string): string {
  const dir = `${manifest.endsWith('.json') ? manifest.slice(0, -5) : manifest}.forks`;
  return path.join(dir, `${taskPath.replace(/^:/, '').replaceAll(':', '_')}.json`);
}

/** The spec of `taskPath`, or why there is none (then the Gradle executor runs the pass). */
export async function readForkSpec(manifest: string, taskPath: string): Promise<{ ok: true; spec: ForkSpec } | { ok: false; why: string }> {
  const file = forkSpecPath(manifest, taskPath);
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return { ok: false, why: `${taskPath} left no fork settings (it did not execute in the first pass)` };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ok: false, why: `${file}: not JSON: ${(e as Error).message}` };
  }
  const parsed = v.safeParse(ForkSpecSchema, json);
  if (!parsed.success) return { ok: false, why: `${file}: ${v.getDotPath(parsed.issues[0]) ?? ''}: ${parsed.issues[0].message}` };
  return { ok: true, spec: parsed.output };
}
