// `npm run soak -- --minutes N [--reset-every S] [--restart-every S] [--seed K] [--backend embedded|reference]`:
// the long form of the soak test (see soak.ts). Prints progress, then the figures as JSON; exits 1
// when a check failed. `--backend reference` runs it against the real kube-apiserver (@kubekit/envtest;
// Go on PATH, built on first use).
import { runSoak, type SoakBackend } from './soak.js';

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const value = Number(process.argv[i + 1]);
  if (!Number.isFinite(value) || value <= 0) {
    process.stderr.write(`--${name}: expected a positive number, got ${JSON.stringify(process.argv[i + 1])}\n`);
    process.exit(2);
  }
  return value;
}

function backend(): SoakBackend {
  const i = process.argv.indexOf('--backend');
  if (i < 0) return 'embedded';
  const value = process.argv[i + 1];
  if (value !== 'embedded' && value !== 'reference') {
    process.stderr.write(`--backend: expected "embedded" or "reference", got ${JSON.stringify(value)}\n`);
    process.exit(2);
  }
  return value;
}

const minutes = flag('minutes', 10);
const result = await runSoak({
  backend: backend(),
  durationMs: minutes * 60_000,
  resetEveryMs: flag('reset-every', 20) * 1000,
  restartEveryMs: flag('restart-every', 120) * 1000,
  seed: flag('seed', 1),
  log: (line) => process.stdout.write(`${line}\n`),
});
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
const unexplained = result.leaderChanges.filter((c) => !c.duringFault).length;
const ok = result.problems.length === 0 && unexplained === 0;
process.stdout.write(`${ok ? 'PASS' : 'FAIL'}: converged after ${result.convergedAfterMs} ms; heap ${(result.heapUsedBytes.perHour / 1e6).toFixed(2)} MB/h; handles ${result.activeHandles.perHour}/h (without sockets ${result.nonSocketHandles.perHour}/h, at most ${result.maxSockets} sockets); ${result.leaderChanges.length} leader changes (${unexplained} without a fault); ${result.restarts} server restarts, ${result.resets} connection resets\n`);
process.exit(ok ? 0 : 1);
