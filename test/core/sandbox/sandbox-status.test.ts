// Which sandbox is in force for a setting on a machine that can or cannot run bubblewrap, and what `bash`
// then does: a required sandbox that cannot run refuses every command (nothing runs); auto falls back.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { bubblewrapArgs, LIFELINE } from '../../../src/core/sandbox/bubblewrap';
import { describeSandbox, resolveSandbox, Sandbox } from '../../../src/core/sandbox/sandbox';
import type { ProbeResult } from '../../../src/core/sandbox/probe';
import { createBashTool } from '../../../src/core/tools/bash';
import { tempDir } from '../../kit/temp-dirs';

const works = async (): Promise<ProbeResult> => ({ ok: true });
const missing = async (): Promise<ProbeResult> => ({ ok: false, reason: 'bubblewrap (bwrap) is not installed' });

describe('sandbox status', () => {
  it('off never probes; auto and on use bubblewrap where it runs, with the network as set', async () => {
    let probed = 0;
    const counting = async (): Promise<ProbeResult> => (probed++, { ok: true });
    assert.deepEqual(await resolveSandbox({ mode: 'off', allowNetwork: true }, counting), { kind: 'none', reason: 'off', detail: 'the sandbox is turned off' });
    assert.equal(probed, 0);
    assert.deepEqual(await resolveSandbox({ mode: 'auto', allowNetwork: false }, works), { kind: 'bubblewrap', network: false });
    assert.deepEqual(await resolveSandbox({ mode: 'on', allowNetwork: true }, works), { kind: 'bubblewrap', network: true });
  });

  it('where bubblewrap cannot run: auto falls back to none (saying why), on is refused', async () => {
    assert.deepEqual(await resolveSandbox({ mode: 'auto', allowNetwork: false }, missing), { kind: 'none', reason: 'unavailable', detail: 'bubblewrap (bwrap) is not installed' });
    assert.deepEqual(await resolveSandbox({ mode: 'on', allowNetwork: false }, missing), { kind: 'refused', detail: 'bubblewrap (bwrap) is not installed' });
  });

  it('describes each status in one line', () => {
    assert.equal(describeSandbox({ kind: 'bubblewrap', network: false }), 'bubblewrap (writable: the workspace and a private /tmp; network: off)');
    assert.match(describeSandbox({ kind: 'bubblewrap', network: true }), /network: allowed, all hosts/);
    assert.equal(describeSandbox({ kind: 'none', reason: 'unavailable', detail: 'bwrap is not installed' }), 'none: bwrap is not installed');
    assert.equal(describeSandbox({ kind: 'none', reason: 'off', detail: 'x' }), 'none (turned off)');
  });

  describe('bash with a sandbox that cannot run', () => {
    let ws: string;
    beforeEach(() => (ws = tempDir('delegate-sbx-status-')));
    const exec = (sandbox: Sandbox, command: string) =>
      createBashTool(ws, { defaultTimeoutMs: 5000, maxTimeoutMs: 5000, maxOutputChars: 1000, launcher: sandbox }).execute({ command }, { signal: new AbortController().signal, agentId: 'main', toolUseId: 't' });

    it('on: every command is refused with the reason, and nothing runs', async () => {
      const r = await exec(new Sandbox({ mode: 'on', allowNetwork: false }, { probe: missing }), 'touch ran');
      assert.deepEqual(r, { content: 'bash refused: the sandbox is required (sandbox: on) but bubblewrap (bwrap) is not installed; nothing was run', isError: true });
      assert.equal(existsSync(join(ws, 'ran')), false);
    });

    it('auto: the command runs without a sandbox', async () => {
      const r = await exec(new Sandbox({ mode: 'auto', allowNetwork: false }, { probe: missing }), 'touch ran && echo $TMPDIR-unchanged');
      assert.equal(r.isError, false, r.content);
      assert.equal(existsSync(join(ws, 'ran')), true);
    });
  });

  it('bwrap arguments: the workspace is mounted after /tmp, the network unshared only when off, hidden paths covered', () => {
    const args = bubblewrapArgs({ workdir: '/tmp/ws', tmpdir: '/tmp/priv', network: false, hide: ['/run/x.sock', '/tmp/ws/own.sock'] }, 'ls');
    const at = (flag: string, value: string): number => args.findIndex((a, i) => a === flag && args[i + 1] === value);
    assert.ok(at('--bind', '/tmp/priv') < at('--bind', '/tmp/ws'), 'workspace after /tmp');
    assert.ok(args.includes('--unshare-net') && args.includes('--unshare-pid') && args.includes('--die-with-parent'));
    assert.ok(!args.includes('--new-session'), 'stays in the process group the bash tool kills');
    assert.ok(at('--ro-bind', '/dev/null') !== -1 && args[at('--ro-bind', '/dev/null') + 2] === '/run/x.sock');
    assert.ok(!args.includes('/tmp/ws/own.sock'), 'a socket inside the workspace is left alone');
    assert.deepEqual(args.slice(-6), ['--', '/bin/bash', '-c', LIFELINE, 'delegate-sandbox', 'ls'], 'the command runs behind the lifeline watcher');
    assert.ok(!bubblewrapArgs({ workdir: '/w', tmpdir: '/t', network: true }, 'ls').includes('--unshare-net'));
  });
});
