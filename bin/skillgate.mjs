#!/usr/bin/env node
// The `skillgate` command. Runs the bundled CLI (built by `npm run build`, also on `npm ci`).
import { cli } from "../dist/cli.mjs";

process.exitCode = await cli(process.argv.slice(2));
