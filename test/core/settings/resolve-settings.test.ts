/**
 * The one settings resolver: every host gets the same value for a setting it leaves out (the web-search default
 * among them), a host's override wins over the variable, the variable over the default, and a variable that
 * cannot be used is one line naming it.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveSessionConfig, type ResolveInput, type ResolvedSession } from '../../../src/core/settings/resolve-settings';
import { OVERRIDE_DEFAULTS } from '../../../src/core/settings/defaults';

const HOSTS = ['cli', 'acp', 'editor'] as const;

describe('resolveSessionConfig', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'delegate-resolve-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const resolve = async (input: Partial<ResolveInput>): Promise<ResolvedSession> => {
    const resolved = await resolveSessionConfig({ cwd: dir, env: {}, overrides: {}, trusted: true, host: 'cli', home: dir, ...input });
    if ('error' in resolved) throw new Error(resolved.error);
    return resolved;
  };

  it('gives every host the same defaults: web search on with Anthropic\'s API, off with another endpoint or another kind of model', async () => {
    for (const host of HOSTS) {
      const plain = await resolve({ host });
      assert.equal(plain.tools.webSearch, true, host);
      assert.equal(plain.model.id, OVERRIDE_DEFAULTS.model, host);
      assert.equal(plain.permissions.mode, OVERRIDE_DEFAULTS.permissionMode, host);
      assert.deepEqual(plain.tools.sandbox, { mode: OVERRIDE_DEFAULTS.sandbox, allowNetwork: false }, host);
      assert.equal(plain.api.retryWait.maxMs, OVERRIDE_DEFAULTS.maxRetryWait * 1000, host);
      assert.equal((await resolve({ host, env: { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' } })).tools.webSearch, false, host);
      assert.equal((await resolve({ host, overrides: { baseUrl: 'http://127.0.0.1:9', webSearch: 'on' } })).tools.webSearch, true, host);
      assert.equal((await resolve({ host, provider: 'other' })).tools.webSearch, false, host);
    }
  });

  it('an override wins over its variable, the variable over the default; the retry cap names what set it, as each host names it', async () => {
    const env = { DELEGATE_MODEL: 'from-env', DELEGATE_MAX_RETRY_WAIT: '7', DELEGATE_CONTEXT_WINDOW: '40000', DELEGATE_MODEL_ALIASES: 'opus=my-opus', DELEGATE_PRICES: '{"from-env": {"input": 1, "output": 2}}' };
    const fromEnv = await resolve({ env, host: 'acp' });
    assert.equal(fromEnv.model.id, 'from-env');
    assert.deepEqual(fromEnv.api.retryWait, { maxMs: 7000, setting: 'DELEGATE_MAX_RETRY_WAIT' });
    assert.equal(fromEnv.model.contextWindow, 40000);
    assert.deepEqual(fromEnv.model.aliases, { opus: 'my-opus' });
    assert.deepEqual(fromEnv.limits.prices, { 'from-env': { input: 1, output: 2, cacheRead: 0.1, cacheWrite: 1.25 } });
    const given = await resolve({ env, host: 'editor', overrides: { model: 'mine', maxRetryWait: 3, contextWindow: 9000 } });
    assert.equal(given.model.id, 'mine');
    assert.deepEqual(given.api.retryWait, { maxMs: 3000, setting: 'delegate.maxRetryWaitSeconds' });
    assert.equal(given.model.contextWindow, 9000);
    assert.deepEqual((await resolve({ host: 'cli' })).api.retryWait.setting, '--max-retry-wait');
    assert.deepEqual((await resolve({ host: 'acp' })).api.retryWait.setting, 'DELEGATE_MAX_RETRY_WAIT');
  });

  it('a variable or setting that cannot be used is one line naming it', async () => {
    const error = async (input: Partial<ResolveInput>) => {
      const resolved = await resolveSessionConfig({ cwd: dir, env: {}, overrides: {}, trusted: true, host: 'cli', home: dir, ...input });
      return 'error' in resolved ? resolved.error : undefined;
    };
    assert.match((await error({ env: { DELEGATE_PRICES: '[1]' } })) ?? '', /^DELEGATE_PRICES: must be an object/);
    assert.match((await error({ host: 'editor', overrides: { prices: { m: { input: 1 } } } })) ?? '', /^delegate\.prices: "m" needs "input" and "output"/);
    assert.match((await error({ env: { DELEGATE_CONTEXT_WINDOW: '12' } })) ?? '', /^DELEGATE_CONTEXT_WINDOW must be an integer ≥ 1000 \(got "12"\)$/);
    assert.match((await error({ env: { DELEGATE_MAX_RETRY_WAIT: '-1' } })) ?? '', /^DELEGATE_MAX_RETRY_WAIT must be a whole number/);
  });

  it("the editor's MCP approval step stays without a workspace MCP config: an agent file's own server is asked about too", async () => {
    const asked: string[] = [];
    const gate = { approve: async (q: { server: string }) => (asked.push(q.server), { skipped: 'declined' }), input: async () => undefined };
    const resolved = await resolve({ host: 'editor', mcpGate: gate });
    assert.deepEqual(resolved.tools.mcp?.servers, []);
    const prepared = await resolved.tools.mcp?.host?.prepare?.({ name: 'playwright', source: join(dir, '.claude/agents/t.md'), origin: 'project', transport: 'stdio', command: 'npx', args: [], env: {}, headers: {}, inputs: [] });
    assert.deepEqual(prepared, { skipped: 'declined' });
    assert.deepEqual(asked, ['playwright']);
    assert.equal((await resolve({ host: 'cli' })).tools.mcp, undefined, 'the CLI without servers loads no MCP config');
  });

  it('an untrusted folder: read-only agents, no project agent files', async () => {
    const resolved = await resolve({ host: 'editor', trusted: false });
    assert.equal(resolved.permissions.trusted, false);
    assert.equal(resolved.files.agentFiles?.includeProject, false);
  });

  it("an untrusted folder's skills are not read; the user's are", async () => {
    const skill = (root: string, name: string): void => {
      mkdirSync(join(root, '.claude', 'skills', name), { recursive: true });
      writeFileSync(join(root, '.claude', 'skills', name, 'SKILL.md'), `---\nname: ${name}\ndescription: d\n---\nbody\n`);
    };
    const home = join(dir, 'home');
    const ws = join(dir, 'ws');
    skill(home, 'mine');
    skill(ws, 'theirs');
    const names = async (trusted: boolean) => [...((await resolve({ cwd: ws, home, host: 'editor', trusted })).files.skills?.skills.keys() ?? [])];
    assert.deepEqual(await names(false), ['mine']);
    assert.deepEqual(await names(true), ['mine', 'theirs']);
  });
});
