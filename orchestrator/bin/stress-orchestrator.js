#!/usr/bin/env node
// The CLI, bundled (`npm run build`): see src/bin.ts.
import '../dist/bundle/stress-orchestrator.js';
