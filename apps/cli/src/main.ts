#!/usr/bin/env node
// The `vr` binary: the real process streams and environment around runCli.
import { runCli } from './run-cli.js';

// `vr say … | head -c 100` closes the pipe early; that is the reader's choice, not a failure.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

process.exitCode = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
