// Writes the JSON report file and, on GitHub Actions, appends the job summary.
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { GateReport } from './gate-report.js';
import { renderStepSummary } from './step-summary.js';

/** Writes `report` as JSON; returns a problem sentence instead of throwing. */
export async function writeJsonReport(file: string, report: GateReport): Promise<string | null> {
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
    return null;
  } catch (e) {
    return `could not write the JSON report ${file}: ${(e as Error).message}`;
  }
}

/** Appends the Markdown summary when GITHUB_STEP_SUMMARY names a file. */
export async function appendStepSummary(env: NodeJS.ProcessEnv, report: GateReport, runPage: string | null = null): Promise<string | null> {
  const file = env['GITHUB_STEP_SUMMARY'];
  if (!file) return null;
  const markdown = renderStepSummary(report, runPage);
  if (!markdown) return null;
  try {
    await appendFile(file, markdown);
    return null;
  } catch (e) {
    return `could not append the job summary to ${file}: ${(e as Error).message}`;
  }
}
