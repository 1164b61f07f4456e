/**
 * `buildReferenceApiServer`: compiles kube-apiserver (with an embedded etcd) from the official
 * k8s.io/kubernetes Go modules into an ignored folder, once per version and source change.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync, openSync, closeSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EnvtestError } from './envtestError.js';
import { findGoToolchain, goModGoVersion, type GoToolchain } from './internal/goToolchain.js';

/** The k8s.io/kubernetes version whose go.mod and go.sum ship with this package (`go/`). */
export const defaultReferenceVersion = 'v1.34.4';

/** Options of {@link buildReferenceApiServer}. */
export interface BuildReferenceOptions {
  /**
   * The k8s.io/kubernetes version (`v1.34.4` or `1.34.4`). Another version than
   * {@link defaultReferenceVersion} gets its go.mod generated from that version's own go.mod and
   * resolved with `go mod tidy`. @defaultValue {@link defaultReferenceVersion}
   */
  version?: string;
  /** The folder for built binaries and generated modules. @defaultValue `KUBEKIT_ENVTEST_DIR`, else this package's `.build/` */
  cacheDir?: string;
  /** The go command. @defaultValue `KUBEKIT_GO`, else `go` on PATH */
  go?: string;
  /** Receives progress lines. @defaultValue writes them to stderr */
  log?: (line: string) => void;
  /** How often a running build reports progress. @defaultValue 30000 ms */
  progressIntervalMs?: number;
}

/** A built reference server binary. */
export interface ReferenceBuild {
  /** The path of the executable. */
  binary: string;
  /** The k8s.io/kubernetes version it was built from (`v1.34.4`). */
  version: string;
  /** Whether this call compiled it (false: an up-to-date binary was reused). */
  built: boolean;
  /** Seconds the build took (0 when reused). */
  seconds: number;
  /** The Go toolchain used. */
  go: GoToolchain;
}

const packageRoot = fileURLToPath(new URL('..', import.meta.url));

/** Normalises `1.34.4` to `v1.34.4`, rejecting anything that is not a k8s.io/kubernetes release. */
export function normalizeReferenceVersion(version: string): string {
  const v = version.startsWith('v') ? version : `v${version}`;
  if (!/^v1\.\d+\.\d+$/.test(v)) {
    throw new EnvtestError(`version must be a k8s.io/kubernetes release like "v1.34.4" or "1.34.4", got ${JSON.stringify(version)}`);
  }
  return v;
}

/** The linker flags that stamp the version into `/version` (release builds get them from the Makefile). */
function ldflags(version: string): string {
  const [, minor] = /^v1\.(\d+)\./.exec(version)!;
  const stamp = (pkg: string) => [
    `-X ${pkg}.gitVersion=${version}`, `-X ${pkg}.gitMajor=1`, `-X ${pkg}.gitMinor=${minor}`, `-X ${pkg}.gitTreeState=clean`,
  ];
  return ['-s', '-w', ...stamp('k8s.io/component-base/version'), ...stamp('k8s.io/client-go/pkg/version')].join(' ');
}

function runGo(go: string, args: string[], cwd: string, logTail: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(go, args, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, GOTOOLCHAIN: 'local', CGO_ENABLED: '0', GOWORK: 'off', GO111MODULE: 'on' },
    });
    const keep = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') logTail.push(line);
      if (logTail.length > 200) logTail.splice(0, logTail.length - 200);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new EnvtestError(`\`go ${args.join(' ')}\` in ${cwd} failed (${signal ?? `exit ${code}`}):\n${logTail.slice(-40).join('\n')}`));
    });
  });
}

/** Takes an exclusive lock file, waiting (bounded) for another build of the same version to finish. */
async function lock(path: string, log: (line: string) => void): Promise<() => void> {
  const deadline = Date.now() + 60 * 60_000;
  let told = false;
  for (;;) {
    try {
      const fd = openSync(path, 'wx');
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = Number(readFileSync(path, 'utf8') || '0');
    let alive = false;
    try {
      if (holder > 0) { process.kill(holder, 0); alive = true; }
    } catch { alive = false; }
    // An empty lock file younger than a few seconds is being written right now.
    if (!alive && (holder > 0 || Date.now() - statSync(path).mtimeMs > 5000)) { rmSync(path, { force: true }); continue; }
    if (Date.now() > deadline) throw new EnvtestError(`another build holds ${path} for over an hour (pid ${holder}); remove the file if no build runs`);
    if (!told) { log(`envtest: waiting for another build of kube-apiserver (pid ${holder}, lock ${path})`); told = true; }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/**
 * The folder for built binaries: `cacheDir`, else `KUBEKIT_ENVTEST_DIR` (an empty value counts as
 * unset), else this package's `.build/`; always absolute (the build runs Go in other folders, so a
 * relative one would name two places).
 */
export function referenceCacheDir(cacheDir?: string, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(cacheDir || env.KUBEKIT_ENVTEST_DIR || join(packageRoot, '.build'));
}

/**
 * Builds the reference kube-apiserver for a version unless an up-to-date binary exists. The first
 * build downloads the Go modules and compiles Kubernetes (minutes); afterwards Go's module and build
 * caches make a rebuild fast, and an unchanged source reuses the binary without running Go at all.
 *
 * @throws {@link EnvtestError} when Go is missing or older than the module's go.mod needs, or the build fails.
 */
export async function buildReferenceApiServer(options: BuildReferenceOptions = {}): Promise<ReferenceBuild> {
  const version = normalizeReferenceVersion(options.version ?? defaultReferenceVersion);
  const cacheDir = referenceCacheDir(options.cacheDir);
  const goCommand = options.go ?? process.env.KUBEKIT_GO ?? 'go';
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const shipped = join(packageRoot, 'go');
  const mainGo = join(shipped, 'main.go');

  let moduleDir = shipped;
  if (version !== defaultReferenceVersion) {
    moduleDir = join(cacheDir, 'src', version);
    mkdirSync(moduleDir, { recursive: true });
    copyFileSync(mainGo, join(moduleDir, 'main.go'));
  }
  const binDir = join(cacheDir, 'bin');
  mkdirSync(binDir, { recursive: true });
  const binary = join(binDir, `kube-apiserver-ref-${version}`);

  const neededGo = goModGoVersion(readFileSync(join(shipped, 'go.mod'), 'utf8')) ?? [1, 24, 0];
  const go = await findGoToolchain(goCommand, neededGo);

  const release = await lock(join(binDir, `.${version}.lock`), log);
  try {
    const started = Date.now();
    const tail: string[] = [];
    const timer = setInterval(() => {
      log(`envtest: building kube-apiserver ${version} … ${Math.round((Date.now() - started) / 1000)} s`);
    }, options.progressIntervalMs ?? 30_000);
    timer.unref();
    try {
      if (version !== defaultReferenceVersion && !existsSync(join(moduleDir, 'go.sum'))) {
        log(`envtest: generating the go.mod for k8s.io/kubernetes ${version} and resolving its modules`);
        await runGo(process.execPath, [join(packageRoot, 'scripts', 'gen-gomod.mjs'), version, moduleDir, go.command], moduleDir, tail);
        await runGo(go.command, ['mod', 'tidy'], moduleDir, tail);
      }
      const flags = ['build', '-trimpath', '-ldflags', ldflags(version), '-o'];
      const stamp = createHash('sha256')
        .update(readFileSync(join(moduleDir, 'main.go')))
        .update(readFileSync(join(moduleDir, 'go.mod')))
        .update(readFileSync(join(moduleDir, 'go.sum')))
        .update(JSON.stringify([flags, go.version]))
        .digest('hex');
      const stampFile = `${binary}.stamp`;
      if (existsSync(binary) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) {
        return { binary, version, built: false, seconds: 0, go };
      }
      log(`envtest: building kube-apiserver ${version} with ${go.version} into ${binDir} (the first build downloads and compiles Kubernetes: minutes; later ones reuse Go's caches)`);
      const tmp = `${binary}.tmp-${process.pid}`;
      await runGo(go.command, [...flags, tmp, '.'], moduleDir, tail);
      renameSync(tmp, binary);
      writeFileSync(stampFile, stamp);
      const seconds = Math.round((Date.now() - started) / 1000);
      log(`envtest: built kube-apiserver ${version} in ${seconds} s`);
      return { binary, version, built: true, seconds, go };
    } finally {
      clearInterval(timer);
    }
  } finally {
    release();
  }
}
