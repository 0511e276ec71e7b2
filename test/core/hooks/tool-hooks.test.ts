// Settings-file hooks on tool calls, over a fixture repository whose .claude/settings.json is shaped like real
// ones: the scripted model makes the calls, the real tools and the real hook commands run.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelRequest, ToolResultBlockParam } from '../../../src/core/llm/types';
import { ScriptedModel } from '../../kit/scripted-model';
import { fixtureRepo, hookLines, openFixtureSession, readLog, recordingApprover, writeSettings, type FixtureDirs } from '../../kit/hooks-fixture';
import { isChild } from '../../kit/is-child';
import { isAlive } from '../../kit/processes';
import { waitUntil } from '../../kit/wait';

const go = (): AbortSignal => new AbortController().signal;

/** The tool_result blocks of a request's last message. */
function results(req: ModelRequest | undefined): ToolResultBlockParam[] {
  const last = req?.messages.at(-1);
  assert.ok(last && Array.isArray(last.content), 'the last message holds tool results');
  return last.content.filter((b) => b.type === 'tool_result') as ToolResultBlockParam[];
}



describe('settings-file hooks on tool calls', function () {
  this.timeout(20_000);
  let dirs: FixtureDirs;
  beforeEach(() => {
    dirs = fixtureRepo();
  });

  it('exit 2 blocks a command: stderr reaches the model as the tool error, and nothing ran', async () => {
    mkdirSync(join(dirs.workdir, 'build'));
    writeFileSync(join(dirs.workdir, 'build', 'out.js'), 'x');
    const model = new ScriptedModel().script('default', { toolUses: [{ name: 'bash', input: { command: 'rm -rf build' } }] }, { text: 'could not delete' });
    const { session, events } = await openFixtureSession(dirs, model);
    const result = await session.run('clean the build', go());
    model.assertDone();
    assert.equal(result.status, 'completed');
    const [res] = results(model.requests[1]?.request);
    assert.equal(res?.is_error, true);
    assert.match(String(res?.content), /Blocked by block-rm\.sh: recursive deletes are not allowed in this repo/);
    assert.ok(existsSync(join(dirs.workdir, 'build', 'out.js')), 'the folder is still there');
    assert.ok(hookLines(events).some((l) => /^PreToolUse blocked: bash: Blocked by block-rm/.test(l)));
  });

  it('updatedInput rewrites a deploy to a dry run, and its allow skips the approval question', async () => {
    writeFileSync(join(dirs.workdir, 'deploy.sh'), '#!/bin/sh\necho "deploying with: $*"\n', { mode: 0o755 });
    const model = new ScriptedModel().script('default', { toolUses: [{ name: 'bash', input: { command: './deploy.sh production' } }] }, { text: 'deployed' });
    const approver = recordingApprover('deny');
    const { session, events } = await openFixtureSession(dirs, model, { permissions: { mode: 'default' }, ports: { approver } });
    await session.run('deploy it', go());
    model.assertDone();
    const [res] = results(model.requests[1]?.request);
    assert.equal(res?.is_error, undefined, String(res?.content));
    assert.match(String(res?.content), /deploying with: production --dry-run/);
    assert.equal(approver.asked.length, 0, 'the hook allowed it: no question');
    assert.ok(hookLines(events).some((l) => l.startsWith('PreToolUse rewrote: bash: input replaced by {"command":"./deploy.sh production --dry-run"')));
    // The same command in default mode without the hook's allow is asked (and refused by this approver).
    const again = new ScriptedModel().script('default', { toolUses: [{ name: 'bash', input: { command: 'echo hi' } }] }, { text: 'ok' });
    const second = await openFixtureSession(dirs, again, { permissions: { mode: 'default' }, ports: { approver } });
    await second.session.run('say hi', go());
    assert.equal(approver.asked.length, 1);
  });

  it('hooks read tool_input.file_path (Claude Code names, absolute) and PostToolUse sees tool_response', async () => {
    const model = new ScriptedModel()
      // An existing file is read before it is edited (the stale-write guard refuses an edit of an unread file).
      .script('default', { toolUses: [{ name: 'read_file', input: { path: 'src/answer.ts' } }] })
      .script('default', {
        toolUses: [
          { name: 'write_file', input: { path: 'src/todo.ts', content: '// TODO: fill in\nexport {};\n' } },
          { name: 'edit_file', input: { path: 'src/answer.ts', old_text: '42', new_text: '43' } },
        ],
      })
      .script('default', { text: 'done' });
    const { session } = await openFixtureSession(dirs, model, { permissions: { mode: 'acceptEdits' } });
    await session.run('add a file and fix the answer', go());
    model.assertDone();
    const ws = dirs.workdir;
    assert.deepEqual(readLog(dirs, 'edits.log'), [
      `PreToolUse Write ${join(ws, 'src/todo.ts')}`,
      `PostToolUse Write ${join(ws, 'src/todo.ts')} success=true`,
      `PreToolUse Edit ${join(ws, 'src/answer.ts')}`,
      `PostToolUse Edit ${join(ws, 'src/answer.ts')} success=true`,
    ]);
    const [write, edit] = results(model.requests[2]?.request);
    assert.match(String(write?.content), /\[PostToolUse hook\]\ntodo\.ts still has a TODO: finish it or open an issue\./);
    assert.doesNotMatch(String(edit?.content), /PostToolUse hook/);
    assert.equal(readFileSync(join(ws, 'src/answer.ts'), 'utf8'), 'export const answer = 43;\n');
  });

  it('inside a subagent, hooks get agent_id and agent_type; SubagentStart and SubagentStop fire with its transcript', async () => {
    const model = new ScriptedModel((r) => (isChild(r) ? 'child' : 'parent'))
      .script('parent', { toolUses: [{ name: 'read_file', input: { path: 'AGENTS.md' } }, { name: 'task', input: { prompt: 'Read src/answer.ts and report the answer.', description: 'find answer' } }] })
      .script('parent', { text: 'the answer is 42' })
      .script('child', { toolUses: [{ name: 'read_file', input: { path: 'src/answer.ts' } }] }, { text: 'Conclusion: 42.' });
    const { session } = await openFixtureSession(dirs, model);
    const result = await session.run('what is the answer?', go());
    model.assertDone();
    const childId = result.subagents[0]?.id;
    assert.ok(childId);
    const audit = readLog(dirs, 'audit.log').map((l) => JSON.parse(l) as Record<string, string | undefined>);
    const root = audit.find((a) => a.event === 'PreToolUse' && a.file === join(dirs.workdir, 'AGENTS.md'));
    assert.ok(root, JSON.stringify(audit));
    assert.equal(root.agent_id, undefined, 'the main agent has no agent_id');
    assert.equal(root.session, session.id);
    assert.equal(root.transcript, session.store.sessionFile);
    assert.equal(root.cwd, dirs.workdir, 'hooks run in the project folder');
    const inChild = audit.filter((a) => a.agent_id === childId);
    assert.deepEqual(inChild.map((a) => `${a.event} ${a.tool ?? ''}`.trim()), ['SubagentStart', 'PreToolUse Read', 'SubagentStop']);
    assert.ok(inChild.every((a) => a.agent_type === 'general-purpose'));
    const stop = inChild[2];
    assert.equal(stop?.last, 'Conclusion: 42.');
    assert.equal(stop?.agent_transcript, session.store.agentFile(childId));
    assert.ok(existsSync(String(stop?.agent_transcript)));
  });

  it('agent_type is the subagent\'s definition (built-in or a file), SubagentStart matchers select by it, permission_mode is its narrowed one', async () => {
    writeSettings(dirs.workdir, { SubagentStart: [{ matcher: 'Explore|reviewer', hooks: [{ type: 'command', command: 'payload=$(cat); printf "%s\\n" "$payload" >> "$CLAUDE_PROJECT_DIR/.claude/typed.log"' }] }] });
    mkdirSync(join(dirs.workdir, '.claude', 'agents'));
    writeFileSync(join(dirs.workdir, '.claude', 'agents', 'reviewer.md'), '---\nname: reviewer\ndescription: Reviews changes\npermissionMode: plan\n---\nYou review.\n');
    const route = (r: ModelRequest): string => (r.system.includes('You are a subagent ("Explore")') ? 'explore' : r.system.includes('You are a subagent ("reviewer")') ? 'reviewer' : r.system.includes('You are a subagent') ? 'general' : 'parent');
    const model = new ScriptedModel(route)
      .script('parent', {
        toolUses: [
          { name: 'task', input: { prompt: 'find the answer', subagent_type: 'Explore' } },
          { name: 'task', input: { prompt: 'review the answer', subagent_type: 'reviewer' } },
          { name: 'task', input: { prompt: 'check the answer' } },
        ],
      })
      .script('parent', { text: 'done' })
      .script('explore', { text: 'Conclusion: src/answer.ts.' })
      .script('reviewer', { text: 'Conclusion: fine.' })
      .script('general', { text: 'Conclusion: fine too.' });
    const { session } = await openFixtureSession(dirs, model, { files: { agentFiles: { home: dirs.home, includeProject: true } } });
    await session.run('find, review and check', go());
    model.assertDone();
    const typed = readLog(dirs, 'typed.log').map((l) => JSON.parse(l) as Record<string, string>);
    assert.deepEqual(typed.map((e) => `${e.hook_event_name} ${e.agent_type} ${e.permission_mode}`).sort(), ['SubagentStart Explore bypassPermissions', 'SubagentStart reviewer plan']);
    const starts = readLog(dirs, 'audit.log').map((l) => JSON.parse(l) as Record<string, string>).filter((a) => a.event === 'SubagentStart');
    assert.deepEqual(starts.map((a) => a.agent_type).sort(), ['Explore', 'general-purpose', 'reviewer']);
  });

  it('a hook that times out is a visible, non-blocking error, and its whole process group is killed', async () => {
    const model = new ScriptedModel().script('default', { toolUses: [{ name: 'glob', input: { pattern: 'src/*.ts' } }] }, { text: 'found it' });
    const { session, events } = await openFixtureSession(dirs, model);
    const started = Date.now();
    await session.run('list the sources', go());
    model.assertDone();
    const [res] = results(model.requests[1]?.request);
    assert.equal(res?.content, 'src/answer.ts', 'the call went on without the hook');
    assert.ok(Date.now() - started < 8000);
    assert.ok(hookLines(events).includes('PreToolUse error: timed out after 1 s; its process group was killed'), hookLines(events).join('\n'));
    const pids = readFileSync(join(dirs.workdir, '.claude', 'slow-index.pids'), 'utf8').trim().split(' ').map(Number);
    assert.equal(pids.length, 2);
    await waitUntil(() => pids.every((pid) => !isAlive(pid)), 'every hook process is gone', 3000);
    await waitUntil(() => session.processes.size === 0, 'no process group is listed', 3000);
  });

  it('a hook still running when the session shuts down goes with it', async () => {
    writeSettings(dirs.workdir, { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'sleep 300 & echo $! > "$CLAUDE_PROJECT_DIR/hang.pid"; wait', timeout: 600 }] }] });
    const model = new ScriptedModel().script('default', { toolUses: [{ name: 'bash', input: { command: 'echo never' } }] });
    const { session } = await openFixtureSession(dirs, model);
    const running = session.run('go', go());
    const pidFile = join(dirs.workdir, 'hang.pid');
    await waitUntil(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '', 'the hook writes its pid');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    assert.ok(isAlive(pid));
    await session.shutdown('test ended', 200);
    await waitUntil(() => !isAlive(pid), 'the hook is killed', 2000);
    assert.equal((await running).status, 'cancelled');
  });

  it('matchers take either spelling; ask forces a question even in bypassPermissions; allow never beats the deny list', async () => {
    writeSettings(dirs.workdir, {
      PreToolUse: [
        { matcher: 'read_file', hooks: [{ type: 'command', command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"secrets live here"}}'` }] },
        { matcher: 'bash|write_file', hooks: [{ type: 'command', command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'` }] },
      ],
    });
    const model = new ScriptedModel()
      .script('default', { toolUses: [{ name: 'read_file', input: { path: 'AGENTS.md' } }, { name: 'bash', input: { command: 'sudo ls' } }] })
      .script('default', { text: 'ok' });
    const approver = recordingApprover('deny');
    const { session } = await openFixtureSession(dirs, model, { ports: { approver } });
    await session.run('look around', go());
    model.assertDone();
    assert.deepEqual(approver.asked.map((r) => r.toolName), ['read_file'], 'the ask hook made bypassPermissions ask');
    const [read, sudo] = results(model.requests[1]?.request);
    assert.match(String(read?.content), /Permission denied: the test approver said no/);
    assert.match(String(sudo?.content), /^Permission denied: .*sudo/, 'the deny list still refuses what a hook allowed');
  });
});
