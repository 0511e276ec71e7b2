// Settings-file hooks around prompts and answers (UserPromptSubmit, SessionStart, Stop), and settings files
// that are broken in the ways real ones are: reported once, with the file and why, and the rest still load.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addFile, compileMatcher, emptyHookSettings, loadHookSettings } from '../../../src/core/hooks/hook-settings';
import type { MessageParam } from '../../../src/core/llm/types';
import { ScriptedModel } from '../../kit/scripted-model';
import { toolNameAliases } from '../../../src/core/tools/tool-names';
import { fixtureRepo, hookLines, openFixtureSession, readLog, writeSettings, type FixtureDirs } from '../../kit/hooks-fixture';

const go = (): AbortSignal => new AbortController().signal;
const json = (v: unknown): string => JSON.stringify(v);

describe('settings-file hooks on prompts and answers', function () {
  this.timeout(20_000);
  let dirs: FixtureDirs;
  beforeEach(() => {
    dirs = fixtureRepo();
  });

  it('UserPromptSubmit: plain stdout goes after the prompt as context; the panel still sees the prompt as typed', async () => {
    const model = new ScriptedModel().script('default', { text: 'noted' });
    const { session, events } = await openFixtureSession(dirs, model);
    await session.run('add a helper', go());
    model.assertDone();
    const first = model.requests[0]?.request.messages[0] as MessageParam;
    assert.deepEqual(first.content, [
      { type: 'text', text: 'add a helper' },
      { type: 'text', text: '<user-prompt-submit-hook>\nConventions: tabs for indentation; every public function has a doc comment.\n</user-prompt-submit-hook>' },
    ]);
    const started = events.find((e) => e.type === 'agent_started');
    assert.equal(started?.type === 'agent_started' && started.prompt, 'add a helper');
    // The context is in the conversation a follow-up (and a resume) builds on.
    assert.match(json(session.history[0]), /Conventions: tabs/);
  });

  it('UserPromptSubmit: decision "block" stops the prompt before the model, says why, and leaves the conversation as it was', async () => {
    const model = new ScriptedModel().script('default', { text: 'first answer' });
    const { session, events } = await openFixtureSession(dirs, model);
    await session.run('hello', go());
    const before = json(session.history);
    const result = await session.run('deploy with key sk-live-abc123', go());
    model.assertDone();
    assert.equal(model.requests.length, 1, 'the blocked prompt was never sent');
    assert.equal(result.status, 'error');
    assert.equal(result.error, 'the prompt was blocked by a UserPromptSubmit hook: That prompt contains what looks like a live API key (sk-live-…); remove it and ask again.');
    assert.equal(json(session.history), before);
    assert.ok(!json(session.history).includes('sk-live-abc123'));
    assert.ok(hookLines(events).some((l) => l.startsWith('UserPromptSubmit blocked: That prompt contains')));
  });

  it('SessionStart adds context to the first prompt only, with source "startup"', async () => {
    writeSettings(dirs.workdir, { SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: 'echo "branch: feature/x; $(cat | grep -o \'"source":"[a-z]*"\')"' }] }] });
    const model = new ScriptedModel().script('default', { text: 'one' }, { text: 'two' });
    const { session } = await openFixtureSession(dirs, model);
    await session.run('first', go());
    await session.run('second', go());
    model.assertDone();
    assert.match(json(model.requests[0]?.request.messages[0]), /<session-start-hook>\\nbranch: feature\/x; \\"source\\":\\"startup\\"\\n<\/session-start-hook>/);
    assert.doesNotMatch(json(model.requests[1]?.request.messages.at(-1)), /session-start-hook/);
  });

  it('Stop: exit 2 sends the agent back with the reason as a note, until the hook is satisfied', async () => {
    writeSettings(dirs.workdir, {
      Stop: [{ hooks: [{ type: 'command', command: 'cat >> "$CLAUDE_PROJECT_DIR/.claude/stop.log"; echo >> "$CLAUDE_PROJECT_DIR/.claude/stop.log"; test -f tests.ok || { echo "Run the tests first (npm test)." >&2; exit 2; }' }] }],
    });
    const model = new ScriptedModel()
      .script('default', { text: 'All done.' })
      .script('default', (req) => {
        assert.match(json(req.messages.at(-1)), /A Stop hook did not let you finish yet. Its reason:\\nRun the tests first \(npm test\)\./);
        return { toolUses: [{ name: 'bash', input: { command: 'touch tests.ok' } }] };
      })
      .script('default', { text: 'All done, tests pass.' });
    const { session, events } = await openFixtureSession(dirs, model);
    const result = await session.run('finish the feature', go());
    model.assertDone();
    assert.equal(result.status, 'completed');
    assert.equal(result.result, 'All done, tests pass.');
    const calls = readLog(dirs, 'stop.log').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(calls.map((c) => [c.hook_event_name, c.stop_hook_active, c.last_assistant_message]), [
      ['Stop', false, 'All done.'],
      ['Stop', true, 'All done, tests pass.'],
    ]);
    assert.deepEqual(hookLines(events).filter((l) => l.startsWith('Stop')), ['Stop continued: Run the tests first (npm test).']);
  });

  it('Stop: a hook that always blocks lets the agent go on 3 times, then the agent ends and the user is told', async () => {
    writeSettings(dirs.workdir, { Stop: [{ hooks: [{ type: 'command', command: `echo '{"decision":"block","reason":"not good enough"}'` }] }] });
    const model = new ScriptedModel().script('default', { text: 'a1' }, { text: 'a2' }, { text: 'a3' }, { text: 'a4' });
    const { session, events } = await openFixtureSession(dirs, model);
    const result = await session.run('go', go());
    model.assertDone();
    assert.equal(result.status, 'completed');
    assert.equal(result.result, 'a4');
    const lines = hookLines(events);
    assert.equal(lines.filter((l) => l === 'Stop continued: not good enough').length, 3);
    assert.match(lines.at(-1) ?? '', /^Stop error: a Stop hook asked this agent to go on a 4th time; ignored/);
  });
});

describe('settings files that are broken', () => {
  it('reports each bad entry once with its file and why, and loads the rest', async () => {
    const dirs = fixtureRepo();
    writeSettings(dirs.workdir, {
      Notification: [{ hooks: [{ type: 'command', command: 'notify-send hi' }] }],
      PreToolUes: [],
      PreToolUse: [
        { matcher: 'Bash(', hooks: [{ type: 'command', command: 'true' }] },
        { matcher: 'Bash', hooks: [{ type: 'prompt', prompt: 'is this safe?' }, { type: 'command' }, { type: 'command', command: 'echo local >> "$CLAUDE_PROJECT_DIR/.claude/local.log"', timeout: 'soon' }] },
        { matcher: 'Read', hooks: [{ type: 'command', command: 'echo local-read >> "$CLAUDE_PROJECT_DIR/.claude/local.log"' }] },
        'Bash',
      ],
      Stop: { hooks: [] },
    });
    // The user's settings file is a folder: unreadable.
    mkdirSync(join(dirs.home, '.claude', 'settings.json'), { recursive: true });
    const settings = await loadHookSettings({ workdir: dirs.workdir, home: dirs.home });
    assert.deepEqual(settings.problems.map((p) => `${p.level} ${p.source}: ${p.text}`.replace(/^warning /, '')), [
      '~/.claude/settings.json: it is not a regular file (a device, a pipe or a folder); its hooks are skipped',
      '.claude/settings.local.json: hooks.Notification: Delegate does not fire this event; ignored',
      '.claude/settings.local.json: hooks.PreToolUes: unknown event (known: PreToolUse, PostToolUse, UserPromptSubmit, Stop, SubagentStart, SubagentStop, SessionStart); ignored',
      '.claude/settings.local.json: hooks.PreToolUse[0].matcher: not a valid regular expression (Invalid regular expression: /Bash(/: Unterminated group); entry skipped',
      '.claude/settings.local.json: hooks.PreToolUse[1].hooks[0]: type "prompt" is not supported (only "command"); ignored',
      '.claude/settings.local.json: hooks.PreToolUse[1].hooks[1]: "command" must be a non-empty string; skipped',
      '.claude/settings.local.json: hooks.PreToolUse[1].hooks[2]: "timeout" must be a positive number of seconds; skipped',
      '.claude/settings.local.json: hooks.PreToolUse[3]: not an object; skipped',
      '.claude/settings.local.json: hooks.Stop: must be a list of {"matcher", "hooks"} entries; skipped',
    ]);
    assert.deepEqual(settings.files, ['.claude/settings.json', '.claude/settings.local.json']);
    // What was valid runs: the project's hooks and the local Read hook.
    const model = new ScriptedModel().script('default', { toolUses: [{ name: 'read_file', input: { path: 'AGENTS.md' } }] }, { text: 'ok' }, { text: 'ok again' });
    const { session, problems, events } = await openFixtureSession(dirs, model);
    assert.equal(problems.length, 9);
    await session.run('read', go());
    await session.run('again', go());
    // Said once, at the first prompt, as notices naming the file (the panel and the CLI show those).
    const notices = events.flatMap((e) => (e.type === 'notice' ? [`${e.level} ${e.source}: ${e.text}`] : []));
    assert.equal(notices.length, 9);
    assert.equal(notices[1], 'warning .claude/settings.local.json: hooks.Notification: Delegate does not fire this event; ignored');
    assert.deepEqual(readLog(dirs, 'local.log'), ['local-read']);
    assert.equal(readLog(dirs, 'audit.log').length, 1, 'the project file still loaded');
  });

  it('a file that is not JSON is skipped whole; the same file reached twice (workspace = HOME) is read once', async () => {
    const dirs = fixtureRepo();
    writeFileSync(join(dirs.workdir, '.claude', 'settings.local.json'), '{ "hooks": { "PreToolUse": [ }');
    const settings = await loadHookSettings({ workdir: dirs.workdir, home: dirs.home });
    assert.equal(settings.problems.length, 1);
    assert.equal(settings.problems[0]?.source, '.claude/settings.local.json');
    assert.match(settings.problems[0]?.text ?? '', /^not valid JSON \(.+\); its hooks are skipped$/);
    assert.equal(settings.groups.PreToolUse.length, 4, 'the project file loaded');
    const home = await loadHookSettings({ workdir: dirs.workdir, home: dirs.workdir, sources: ['user', 'project'] });
    assert.deepEqual(home.files, ['~/.claude/settings.json']);
    assert.equal(home.groups.PreToolUse.length, 4);
  });

  it('matchers: exact names (either spelling), regular expressions, * and empty; disableAllHooks turns everything off', () => {
    const test = (matcher: string, ours: string): boolean => {
      const m = compileMatcher(matcher);
      assert.notEqual(typeof m, 'string');
      return (m as (n: readonly string[]) => boolean)(toolNameAliases(ours));
    };
    assert.equal(test('Bash', 'bash'), true);
    assert.equal(test('bash', 'bash'), true);
    assert.equal(test('Write|Edit', 'edit_file'), true);
    assert.equal(test('MultiEdit', 'edit_file'), true);
    assert.equal(test('Edit', 'write_file'), false, 'a plain name matches exactly');
    assert.equal(test('Bas', 'bash'), false);
    assert.equal(test('mcp__github__.*', 'mcp__github__create_issue'), true);
    assert.equal(test('.*_file', 'read_file'), true);
    assert.equal(test('*', 'glob'), true);
    assert.equal(test('', 'task'), true);
    const settings = emptyHookSettings();
    addFile(settings, 'x.json', json({ disableAllHooks: true, hooks: {} }));
    assert.equal(settings.disabledBy, 'x.json');
  });
});
