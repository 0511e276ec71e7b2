// PermissionPolicy: the mode matrix, trust, session approvals, and the two rules no mode lifts.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { PermissionPolicy } from '../../../src/core/policy/permission-policy';
import type { PermissionVerdict, ToolCallRequest } from '../../../src/core/policy/types';
import type { ToolKind } from '../../../src/core/tools/types';
import type { PermissionMode } from '../../../src/core/vocabulary';
import { tempDir } from '../../kit/temp-dirs';

const agent = { agentId: 'root', parentId: null, depth: 0 };

function req(toolName: string, kind: ToolKind, input: Record<string, unknown>, paths: string[] = []): ToolCallRequest {
  const summary = typeof input.command === 'string' ? input.command : paths.join(', ');
  return { agent, toolUseId: 'tu_1', toolName, kind, input, summary, paths };
}

const read = (p = 'src/a.ts'): ToolCallRequest => req('read_file', 'read', { path: p }, [p]);
const write = (p = 'src/a.ts'): ToolCallRequest => req('write_file', 'write', { path: p, content: 'x' }, [p]);
const edit = (p = 'src/a.ts'): ToolCallRequest => req('edit_file', 'write', { path: p, old_text: 'a', new_text: 'b' }, [p]);
const bash = (command = 'npm test'): ToolCallRequest => req('bash', 'exec', { command });
const globCall = (): ToolCallRequest => req('glob', 'read', { pattern: '**/*.ts' });
const task = (): ToolCallRequest => req('task', 'delegate', { description: 'x', prompt: 'y' });

const behavior = (v: PermissionVerdict): string => v.behavior;

describe('PermissionPolicy', () => {
  let root: string;
  let ws: string;

  before(async () => {
    root = await fs.realpath(tempDir('delegate-perm-'));
    ws = path.join(root, 'ws');
    await fs.mkdir(path.join(ws, 'src'), { recursive: true });
    await fs.mkdir(path.join(root, 'outside'));
    await fs.symlink(path.join(root, 'outside'), path.join(ws, 'linkdir'));
  });

  const policy = (mode: PermissionMode, trusted?: boolean): PermissionPolicy => new PermissionPolicy({ workdir: ws, mode, trusted });

  it('follows the mode matrix', async () => {
    const calls = { read: read(), glob: globCall(), task: task(), write: write(), edit: edit(), bash: bash() };
    const expected: Record<PermissionMode, Record<keyof typeof calls, string>> = {
      default: { read: 'allow', glob: 'allow', task: 'allow', write: 'ask', edit: 'ask', bash: 'ask' },
      acceptEdits: { read: 'allow', glob: 'allow', task: 'allow', write: 'allow', edit: 'allow', bash: 'ask' },
      plan: { read: 'allow', glob: 'allow', task: 'allow', write: 'deny', edit: 'deny', bash: 'deny' },
      bypassPermissions: { read: 'allow', glob: 'allow', task: 'allow', write: 'allow', edit: 'allow', bash: 'allow' },
    };
    for (const [mode, row] of Object.entries(expected) as [PermissionMode, Record<string, string>][]) {
      const p = policy(mode);
      for (const [name, call] of Object.entries(calls)) {
        assert.equal(behavior(await p.check(call)), row[name], `${mode} / ${name}`);
      }
    }
  });

  it('gives reasons: ask names the command or path, plan names plan mode', async () => {
    const ask = await policy('default').check(bash('make build'));
    assert.deepEqual(ask, { behavior: 'ask', reason: 'bash wants to run: make build' });
    const askWrite = await policy('default').check(write('src/b.ts'));
    assert.equal(askWrite.behavior, 'ask');
    assert.match(askWrite.behavior === 'ask' ? askWrite.reason : '', /src\/b\.ts/);
    const plan = await policy('plan').check(bash());
    assert.equal(plan.behavior, 'deny');
    assert.match(plan.behavior === 'deny' ? plan.reason : '', /plan mode/);
  });

  it('confines file paths to WORKDIR in every mode', async () => {
    const escapes = ['../outside/x', '/etc/passwd', '~/.ssh/id_rsa', 'linkdir/x.txt'];
    for (const mode of ['default', 'acceptEdits', 'plan', 'bypassPermissions'] as PermissionMode[]) {
      for (const p of escapes) {
        for (const call of [read(p), write(p), edit(p)]) {
          const v = await policy(mode).check(call);
          assert.equal(v.behavior, 'deny', `${mode} ${call.toolName} ${p}`);
        }
      }
    }
    const v = await policy('bypassPermissions').check(write('../outside/x'));
    assert.match(v.behavior === 'deny' ? v.reason : '', /^write_file: path escapes the workspace: \.\.\/outside\/x resolves to/);
    assert.equal((await policy('acceptEdits').check(write(path.join(ws, 'src/new.ts')))).behavior, 'allow');
  });

  it('holds the bash deny list in every mode, session approvals included', async () => {
    for (const mode of ['default', 'acceptEdits', 'plan', 'bypassPermissions'] as PermissionMode[]) {
      const p = policy(mode);
      p.rememberForSession(bash('sudo rm -rf build'));
      const v = await p.check(bash('sudo rm -rf build'));
      assert.equal(v.behavior, 'deny', mode);
      assert.match(v.behavior === 'deny' ? v.reason : '', /privilege escalation/);
    }
  });

  it('makes an untrusted workspace read-only in every mode', async () => {
    for (const mode of ['default', 'acceptEdits', 'bypassPermissions'] as PermissionMode[]) {
      const p = policy(mode, false);
      assert.equal(behavior(await p.check(read())), 'allow');
      assert.equal(behavior(await p.check(task())), 'allow');
      for (const call of [write(), edit(), bash('ls')]) {
        const v = await p.check(call);
        assert.equal(v.behavior, 'deny', `${mode} ${call.toolName}`);
        assert.match(v.behavior === 'deny' ? v.reason : '', /^workspace is not trusted: agents are read-only/);
      }
    }
  });

  it('remembers "allow for this session": the exact bash command, and all writes', async () => {
    const p = policy('default');
    p.rememberForSession(bash('npm test'));
    assert.equal(behavior(await p.check(bash('npm test'))), 'allow');
    assert.equal(behavior(await p.check(bash('npm test -- --watch'))), 'ask');
    assert.equal(behavior(await p.check(write())), 'ask');
    p.rememberForSession(edit('src/a.ts'));
    assert.equal(behavior(await p.check(write('docs/other.md'))), 'allow');
    assert.equal(behavior(await p.check(edit('src/b.ts'))), 'allow');
    // Still confined.
    assert.equal(behavior(await p.check(write('../outside/x'))), 'deny');
    // Plan mode outranks session approvals.
    p.setMode('plan');
    assert.equal(p.mode, 'plan');
    assert.equal(behavior(await p.check(bash('npm test'))), 'deny');
    assert.equal(behavior(await p.check(write())), 'deny');
  });

  it('follows setMode', async () => {
    const p = policy('default');
    assert.equal(behavior(await p.check(write())), 'ask');
    p.setMode('acceptEdits');
    assert.equal(behavior(await p.check(write())), 'allow');
    p.setMode('bypassPermissions');
    assert.equal(behavior(await p.check(bash())), 'allow');
  });

  it('follows setTrusted', async () => {
    const p = policy('acceptEdits', false);
    assert.equal(p.isTrusted, false);
    assert.equal(behavior(await p.check(write())), 'deny');
    p.setTrusted(true);
    assert.equal(behavior(await p.check(write())), 'allow');
  });

  it('defaults to a trusted workspace', async () => {
    assert.equal(behavior(await new PermissionPolicy({ workdir: ws, mode: 'acceptEdits' }).check(write())), 'allow');
  });

  it('judges bash paths from the workspace and HOME: `rm -rf ..` out of a workspace directly in HOME is denied', async () => {
    const saved = process.env.HOME;
    process.env.HOME = root; // the workspace `ws` sits directly in this "home"
    try {
      const p = policy('bypassPermissions');
      const up = await p.check(bash('rm -rf ..'));
      assert.equal(up.behavior, 'deny');
      assert.match(up.behavior === 'deny' ? up.reason : '', new RegExp(`recursive delete of \\.\\. \\(${root}\\)`));
      assert.equal(behavior(await p.check(bash('cd src && rm -rf ../../..'))), 'deny');
      assert.equal(behavior(await p.check(bash('rm -rf ../outside'))), 'allow');
      assert.equal(behavior(await p.check(bash('rm -rf .'))), 'allow');
    } finally {
      process.env.HOME = saved;
    }
  });
});

