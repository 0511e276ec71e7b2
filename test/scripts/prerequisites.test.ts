/**
 * The fresh-machine path of the README's two commands: the test editor's nested npm (on Node 24) must not
 * inherit what the outer `npm` (Node 20) exported, and missing Debian packages are installed or named.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
// @ts-expect-error -- plain ESM script without types; its exports are checked by these tests
import { editorEnv, editorPaths } from '../../scripts/editor/install-editor.mjs';
// @ts-expect-error -- plain ESM script without types
import { cleanNpmEnv, ensureDebianPackages, installCommand } from '../../scripts/prerequisites.mjs';

type Env = Record<string, string | undefined>;
const ROOT = join(__dirname, '..', '..');

/** What `npm run start` exports to its children (as measured with `npm run env` on Node 20, npm 11). */
const outerNpm: Env = {
  HOME: '/root',
  LANG: 'C.UTF-8',
  PATH: `${ROOT}/node_modules/.bin:/node_modules/.bin:/usr/lib/node_modules/npm/node_modules/@npmcli/run-script/lib/node-gyp-bin:/usr/local/bin:/usr/bin:/bin`,
  npm_config_user_agent: 'npm/11.19.1 node/v20.20.2 linux x64 workspaces/false',
  npm_config_node_gyp: '/usr/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js',
  npm_config_prefix: '/usr',
  npm_lifecycle_event: 'start',
  npm_lifecycle_script: 'npm run package && node scripts/editor/start.mjs',
  npm_package_name: 'delegate',
  npm_node_execpath: '/usr/bin/node',
  npm_execpath: '/usr/lib/node_modules/npm/bin/npm-cli.js',
  npm_command: 'run',
  NODE: '/usr/bin/node',
  INIT_CWD: ROOT,
  NPM_CONFIG_USERCONFIG: '/root/.npmrc',
};

describe('scripts: prerequisites for a fresh machine', () => {
  it('builds the editor install environment without the outer npm’s settings', () => {
    const env = editorEnv(outerNpm) as Env;
    const leaked = Object.keys(env).filter((k) => /^npm_/i.test(k) && !['npm_config_nodedir', 'npm_config_yes', 'npm_config_update_notifier', 'npm_config_fund', 'npm_config_audit'].includes(k));
    assert.deepEqual(leaked, [], 'only the install’s own npm settings remain');
    assert.equal(env.npm_config_user_agent, undefined, 'the user agent naming Node 20 is gone');
    assert.equal(env.NODE, undefined);
    assert.equal(env.INIT_CWD, undefined);
    assert.equal(env.npm_config_nodedir, join(editorPaths.tools, 'node24'));
    const path = (env.PATH ?? '').split(':');
    assert.equal(path[0], join(editorPaths.tools, 'node24', 'bin'), 'Node 24 comes first');
    assert.ok(!path.some((d) => d.includes('node_modules/.bin') || d.includes('node-gyp-bin')), `no npm-injected PATH entries: ${env.PATH}`);
    assert.ok(path.includes('/usr/bin'), 'the system PATH stays');
    assert.equal(env.HOME, '/root');
  });

  it('under a real outer npm, a child of the install sees no npm_config_user_agent', function () {
    // The real thing: `npm exec` exports its user agent (Node 20); the environment built from it must not carry it.
    const script = `import(${JSON.stringify(join(ROOT, 'scripts', 'editor', 'install-editor.mjs'))}).then((m) => { const env = m.editorEnv(); process.stdout.write(JSON.stringify({ outer: process.env.npm_config_user_agent ?? null, inner: env.npm_config_user_agent ?? null, lifecycle: Object.keys(env).filter((k) => k.startsWith('npm_lifecycle')) })); })`;
    const r = spawnSync('npm', ['exec', '--yes', '--', 'node', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 0, r.stderr);
    const seen = JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as { outer: string | null; inner: string | null; lifecycle: string[] };
    assert.match(seen.outer ?? '', /node\/v20\./, 'the outer npm did export its user agent');
    assert.equal(seen.inner, null);
    assert.deepEqual(seen.lifecycle, []);
  });

  it('cleanNpmEnv keeps everything that is not npm’s', () => {
    const env = cleanNpmEnv({ FOO: 'bar', npm_config_cache: '/x', PATH: '/a/node_modules/.bin:/usr/bin' }) as Env;
    assert.deepEqual(env, { FOO: 'bar', PATH: '/usr/bin' });
  });

  it('names the exact apt command when a Debian package is missing and it cannot install', () => {
    const missing = 'delegate-no-such-package-x';
    assert.throws(
      () => ensureDebianPackages([missing], { isRoot: false }),
      (err: Error) => err.message.includes(missing) && err.message.includes(installCommand([missing])),
    );
  });

  it('as root runs apt-get update and install for exactly the missing packages, and reports a failure with the command', () => {
    const calls: string[][] = [];
    const run = (cmd: string, args: string[]) => {
      calls.push([cmd, ...args]);
      return { status: args.includes('install') ? 100 : 0, stdout: '', stderr: 'E: Unable to locate package' };
    };
    assert.throws(
      () => ensureDebianPackages(['delegate-no-such-package-y'], { isRoot: true, run }),
      (err: Error) => /apt-get install .*failed/.test(err.message) && err.message.includes('sudo apt-get install -y delegate-no-such-package-y'),
    );
    assert.deepEqual(calls.map((c) => c.filter((a) => !a.startsWith('-'))), [['apt-get', 'DPkg::Lock::Timeout=600', 'update'], ['apt-get', 'DPkg::Lock::Timeout=600', 'install', 'delegate-no-such-package-y']]);
  });
});
