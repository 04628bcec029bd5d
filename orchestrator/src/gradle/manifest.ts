// The manifest the plugin writes at projectsEvaluated: the settings block and every Test task.
import { readFile } from 'node:fs/promises';
import * as v from 'valibot';

const nullableString = v.optional(v.nullable(v.string()), null);

/** Schema of manifest.json (plugin 0.1.x). */
export const ManifestSchema = v.object({
  pluginVersion: v.string(),
  gradleVersion: v.string(),
  rootDir: v.string(),
  settings: v.object({
    mode: nullableString,
    serverUrl: nullableString,
    project: nullableString,
    requestTimeoutSeconds: v.optional(v.nullable(v.number()), null),
    executor: nullableString,
  }),
  testTasks: v.array(
    v.object({
      path: v.string(),
      projectPath: v.string(),
      name: v.string(),
      junitXmlDir: v.nullable(v.string()),
    }),
  ),
});
/** The validated manifest. */
export type Manifest = v.InferOutput<typeof ManifestSchema>;
/** One Test task of the build. */
export type TestTask = Manifest['testTasks'][number];

/** The manifest, or why there is none (missing: Gradle stopped before projectsEvaluated). */
export type ManifestResult = { ok: true; manifest: Manifest } | { ok: false; missing: boolean; error: string };

/** Reads and validates the manifest; a missing file means Gradle stopped before projectsEvaluated. */
export async function readManifest(file: string): Promise<ManifestResult> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return { ok: false, missing: true, error: `the Gradle plugin wrote no manifest (${file})` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ok: false, missing: false, error: `${file}: not JSON: ${(e as Error).message}` };
  }
  const parsed = v.safeParse(ManifestSchema, json);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    return { ok: false, missing: false, error: `${file}: ${v.getDotPath(issue) ?? ''}: ${issue.message}` };
  }
  return { ok: true, manifest: parsed.output };
}
