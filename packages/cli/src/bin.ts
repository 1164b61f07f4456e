#!/usr/bin/env node
/**
 * The `kubekit` executable: runs {@link runCli} with the process's arguments and exits with its code.
 */
import { runCli } from './program.js';

// A closed pipe (`kubekit … | head`) ends the output, not the process with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    process.exit(process.exitCode ?? 0);
  });
}

process.exitCode = await runCli(process.argv.slice(2));
