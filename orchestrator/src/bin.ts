// The command's entry: bundled with its dependencies into dist/bundle/stress-orchestrator.js
// (scripts/bundle-cli.mjs), which bin/stress-orchestrator.js loads. One file instead of several
// hundred modules: the CLI starts in about 0.2 s instead of 0.45 s, time every gated build pays.
import { main, realDeps } from './cli.js';
import { cancelOnSignals } from './gate/cancellation.js';

// SIGINT and SIGTERM (a cancelled CI job) cancel Gradle, write the report and exit 130 or 143.
const cancellation = cancelOnSignals();
process.exitCode = await main(process.argv.slice(2), realDeps(process.env, cancellation.signal));
cancellation.dispose();
