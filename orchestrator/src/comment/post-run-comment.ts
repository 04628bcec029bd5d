// `--comment`: the run report from the verdict API (GET …/runs/:runId/report.md, with the CI
// token), or the gate's own report when the server has none, plus the run page's address,
// posted as the one merge-request comment. Returns a warning sentence or null; never throws.
import { readFileSync } from 'node:fs';
import { commentTarget } from './comment-target.js';
import { upsertComment } from './upsert-comment.js';

/** What the comment needs to know. */
export interface CommentInput {
  env: NodeJS.ProcessEnv;
  serverUrl: string | undefined;
  project: string | undefined;
  token: string | undefined;
  runId: string;
  /** The dashboard's run page, or null. */
  runPage: string | null;
  /** The gate's report in Markdown (the job summary's), used when the server's is unavailable. */
  fallback: string;
  fetch?: typeof fetch;
}

/** Posts or updates the comment; returns a problem sentence for a warning, or null. */
export async function postRunComment(input: CommentInput): Promise<string | null> {
  const f = input.fetch ?? globalThis.fetch;
  const target = commentTarget(input.env, (p) => readFileSync(p, 'utf8'));
  if (!target.ok) return `no merge-request comment: ${target.problem}`;
  let markdown = input.fallback;
  if (input.serverUrl && input.project && input.token) {
    try {
      const url = `${input.serverUrl.replace(/\/+$/, '')}/api/v1/projects/${encodeURIComponent(input.project)}/runs/${encodeURIComponent(input.runId)}/report.md`;
      const res = await f(url, { headers: { Authorization: `Bearer ${input.token}` }, signal: AbortSignal.timeout(15_000) });
      if (res.ok) markdown = `${await res.text()}\n${input.fallback}`;
    } catch {
      // the gate's own report stands in
    }
  }
  if (input.runPage) markdown += `\n[The run page in the dashboard](${input.runPage})\n`;
  if (markdown.trim() === '') return null;
  const result = await upsertComment(target.target, markdown, f);
  return result.ok ? null : `the merge-request comment was not posted: ${result.problem}`;
}
