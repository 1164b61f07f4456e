#!/usr/bin/env node
/**
 * The `kubekit` executable: runs {@link runCli} with the process's arguments and exits with its code.
 */
import { runCli } from './program.js';

process.exitCode = await runCli(process.argv.slice(2));
