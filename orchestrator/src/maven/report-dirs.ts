// Finds the Surefire and Failsafe report folders of a reactor: `<module>/target/surefire-reports`
// and `<module>/target/failsafe-reports`, at any depth below the reactor root.
import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** One report folder and the module it belongs to. */
export interface ReportDir {
  dir: string;
  moduleDir: string;
  plugin: 'surefire' | 'failsafe';
}

const SKIP = new Set(['node_modules', '.git', '.mvn', 'src', '.idea']);
const MAX_DEPTH = 8;

/** Every report folder under `projectDir`, sorted by path. A module's `target` is not searched further. */
export async function findReportDirs(projectDir: string): Promise<ReportDir[]> {
  const found: ReportDir[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (!e.isDirectory() || SKIP.has(e.name)) continue;
      const child = path.join(dir, e.name);
      if (e.name === 'target') {
        for (const plugin of ['surefire', 'failsafe'] as const) {
          const reports = path.join(child, `${plugin}-reports`);
          if ((await readdir(reports).then(() => true, () => false))) found.push({ dir: reports, moduleDir: dir, plugin });
        }
        continue;
      }
      if (depth < MAX_DEPTH) await walk(child, depth + 1);
    }
  };
  await walk(projectDir, 0);
  return found.sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0));
}
