#!/usr/bin/env node
// The `svc` command as the shell runs it: see cli/main.ts.
import { main } from './cli/main.js';

const code = await main(process.argv.slice(2), process.env);
// serve keeps running (-1): its exit status is set when it stops.
if (code >= 0) process.exitCode = code;
