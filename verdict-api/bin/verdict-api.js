#!/usr/bin/env node
import { main } from '../dist/main.js';

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`verdict-api: ${error?.stack ?? error}\n`);
    process.exit(1);
  },
);
