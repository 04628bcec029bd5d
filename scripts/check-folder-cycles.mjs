#!/usr/bin/env node
// Folders of one workspace that import each other (directly or round a longer loop) are one
// responsibility split in two, or two tangled: `npm run lint` refuses them, as dependency-cruiser
// (.dependency-cruiser.cjs) refuses cycles between modules. A folder is the first level under
// orchestrator/src/ or verdict-api/src/ (files directly under src/ are the entry points).
import { cruise } from 'dependency-cruiser';

const result = await cruise(['orchestrator/src', 'verdict-api/src'], {
  exclude: { path: '(^|/)(dist|vendor|node_modules)/|\\.test\\.tsx?$' },
  doNotFollow: { path: 'node_modules' },
  tsPreCompilationDeps: true,
  tsConfig: { fileName: 'tsconfig.json' },
});
const folder = (file) => /^((?:orchestrator|verdict-api)\/src\/[^/]+)\//.exec(file)?.[1] ?? null;
const edges = new Map();
for (const m of result.output.modules) {
  const from = folder(m.source);
  if (!from) continue;
  for (const d of m.dependencies) {
    const to = folder(d.resolved);
    if (to && to !== from) (edges.get(from) ?? edges.set(from, new Set()).get(from)).add(to);
  }
}
// Tarjan's strongly connected components: every component of more than one folder is a loop.
let index = 0;
const stack = [];
const info = new Map();
const loops = [];
function visit(v) {
  info.set(v, { index, low: index, onStack: true });
  index++;
  stack.push(v);
  for (const w of edges.get(v) ?? []) {
    if (!info.has(w)) {
      visit(w);
      info.get(v).low = Math.min(info.get(v).low, info.get(w).low);
    } else if (info.get(w).onStack) info.get(v).low = Math.min(info.get(v).low, info.get(w).index);
  }
  if (info.get(v).low === info.get(v).index) {
    const component = [];
    let w;
    do {
      w = stack.pop();
      info.get(w).onStack = false;
      component.push(w);
    } while (w !== v);
    if (component.length > 1) loops.push(component.sort());
  }
}
for (const v of edges.keys()) if (!info.has(v)) visit(v);
if (loops.length) {
  for (const loop of loops) console.error(`folder cycle: ${loop.join(' <-> ')}`);
  console.error(`check-folder-cycles: ${loops.length} loop(s) of folders that import each other`);
  process.exit(1);
}
console.log(`check-folder-cycles: ${edges.size} folders, no loops`);
