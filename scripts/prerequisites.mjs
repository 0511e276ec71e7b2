// What the suites need from the machine beyond npm, installed by the project itself so a new user's
// `npm ci && npm test` (and CI, which runs exactly that) works on a fresh Debian machine:
//   suite      Debian packages
//   unit       bubblewrap                    (the bash sandbox's tests run it for real)
//   webview    chromium                      (headless panel tests)
//   vscode     chromium, libkrb5-dev         (the test editor's client; its `kerberos` native module)
//   e2e        chromium, libkrb5-dev
// As root the packages are installed with apt; otherwise the error names the exact command to run.
// Also: `npmFreeEnv()`, an environment without what an outer `npm run` exported (see cleanNpmEnv below).
import { spawnSync } from 'node:child_process';

export const SUITE_PACKAGES = {
  unit: ['bubblewrap'],
  webview: ['chromium'],
  vscode: ['chromium', 'libkrb5-dev'],
  e2e: ['chromium', 'libkrb5-dev'],
};

function installed(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.includes('install ok installed');
}

export function missingPackages(packages) {
  return [...new Set(packages)].filter((p) => !installed(p));
}

/** The one command a user without root must run for `packages`. */
export function installCommand(packages) {
  return `sudo apt-get update && sudo apt-get install -y ${packages.join(' ')}`;
}

/**
 * Installs the Debian packages that are missing (as root), or throws an error naming the command to run.
 * `isRoot` and `run` are injectable for tests.
 */
export function ensureDebianPackages(packages, { log = () => {}, isRoot = process.getuid?.() === 0, run = spawnSync } = {}) {
  const missing = missingPackages(packages);
  if (missing.length === 0) return [];
  if (!isRoot) throw new Error(`missing Debian packages: ${missing.join(' ')}. Run: ${installCommand(missing)}`);
  log(`installing Debian packages ${missing.join(', ')} (apt-get update + install)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const lock = ['-o', 'DPkg::Lock::Timeout=600']; // wait, rather than fail, if another apt holds the lock
  for (const args of [[...lock, 'update', '-qq'], [...lock, 'install', '-y', '-qq', ...missing]]) {
    const r = run('apt-get', args, { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (r.error || r.status !== 0) {
      const tail = `${r.stdout ?? ''}\n${r.stderr ?? ''}`.trim().split('\n').slice(-15).join('\n');
      throw new Error(`apt-get ${args.slice(2).join(' ')} failed (exit ${r.status ?? r.error?.message}); run: ${installCommand(missing)}\n${tail}`);
    }
  }
  const still = missingPackages(missing);
  if (still.length) throw new Error(`apt-get finished but ${still.join(' ')} is still not installed; run: ${installCommand(still)}`);
  return missing;
}

/**
 * `npm run` exports its own settings to every child: npm_config_* (user agent naming *its* Node, nodedir,
 * prefix…), npm_lifecycle_*, npm_package_*, NODE, INIT_CWD, and PATH entries for node_modules/.bin and its
 * node-gyp shim. A nested npm on another Node version inherits them and believes it runs on the outer Node
 * (code-server's postinstall then stops with "requires node v24"). This returns `base` without them.
 */
export function cleanNpmEnv(base = process.env) {
  const env = {};
  for (const [key, value] of Object.entries(base)) {
    if (value === undefined) continue;
    if (/^npm_/i.test(key) || key === 'NODE' || key === 'INIT_CWD') continue;
    env[key] = value;
  }
  if (env.PATH) {
    env.PATH = env.PATH.split(':')
      .filter((dir) => dir && !/[\\/]node_modules[\\/]\.bin$/.test(dir) && !/[\\/]run-script[\\/]lib[\\/]node-gyp-bin$/.test(dir))
      .join(':');
  }
  return env;
}
