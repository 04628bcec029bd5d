#!/usr/bin/env node
import { main, realDeps } from '../dist/cli.js';
import { cancelOnSignals } from '../dist/gate/cancellation.js';

// SIGINT and SIGTERM (a cancelled CI job) cancel Gradle, write the report and exit 130 or 143.
const cancellation = cancelOnSignals();
process.exitCode = await main(process.argv.slice(2), realDeps(process.env, cancellation.signal));
cancellation.dispose();
