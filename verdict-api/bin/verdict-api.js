#!/usr/bin/env -S node --max-semi-space-size=64
// The service's Node flags are on the line above, so every start through this file has them (the
// API benchmarks read them from there too). A 64 MiB young generation: a request body of 50,000
// test cases lives and dies young, and with the default 16 MiB the scavenger took about a tenth
// of the API thread under load (bench:load: CPU per verdict 3.3 -> 2.8 ms, +12% verdicts/s on
// clickhouse-server, two paired runs).
import { main } from '../dist/main.js';

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`verdict-api: ${error?.stack ?? error}\n`);
    process.exit(1);
  },
);
