/**
 * The headless CLI end to end: the built bin, the real SDK, the real tools, against the project's
 * local Messages-API server.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstUserText, lastToolResults, reply, type RecordedRequest } from '../fixtures/messages-api-server';
import { lastJsonLine, listFiles, readJsonl, runDelegate } from '../kit/run-cli';
import { isChild } from '../kit/is-child';
import { cliSuite } from '../kit/cli-suite';
import { tempDir } from '../kit/temp-dirs';

describe('delegate CLI', function () {
  this.timeout(30_000);
  const cli = cliSuite();


  it('prints help, and exits 2 on bad usage', async () => {
    const help = await runDelegate(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /--permission-mode/);
    assert.match(help.stdout, /^ {2}--trust-folder {15}run the folder's own hooks \(\.claude\/settings\*\.json\) and \.mcp\.json servers/m);
    const bad = await runDelegate(['-p', 'x', '--output-format', 'yaml']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--output-format must be text, json or stream-json/);
    const none = await runDelegate([]);
    assert.equal(none.code, 2);
    const unknown = await runDelegate(['-p', 'x', '--frobnicate']);
    assert.equal(unknown.code, 2);
  });

  it('delegates to a subagent: json result, transcripts, and the child never leaks into the parent', async () => {
    const CANARY = 'CANARY-c41f-child-only';
    writeFileSync(join(cli.dirs.workdir, 'notes.txt'), `the answer is ${CANARY}\n`);
    cli.api.route([
      {
        name: 'child',
        match: isChild,
        replies: [reply.toolUse({ name: 'read_file', input: { path: 'notes.txt' } }), reply.text('Conclusion: notes.txt holds the answer.')],
      },
      {
        name: 'parent',
        match: () => true,
        replies: [
          reply.toolUse({ name: 'task', input: { prompt: 'Read notes.txt and report.', description: 'read notes' } }),
          reply.text('The notes hold the answer.'),
        ],
      },
    ]);
    const run = await runDelegate(['-p', 'What do the notes say?', '--cwd', cli.dirs.workdir, '--output-format', 'json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    cli.api.assertAllConsumed();
    const result = lastJsonLine(run.stdout);
    assert.equal(result.type, 'result');
    assert.equal(result.status, 'completed');
    assert.equal(result.result, 'The notes hold the answer.');
    assert.equal(result.num_turns, 2);
    const subagents = result.subagents as Record<string, unknown>[];
    assert.equal(subagents.length, 1);
    assert.equal(subagents[0]?.description, 'read notes');
    assert.equal(subagents[0]?.status, 'completed');
    assert.equal(subagents[0]?.num_turns, 2);
    assert.equal(subagents[0]?.tool_calls, 1);
    const usage = result.usage as Record<string, number>;
    assert.ok((usage.input_tokens ?? 0) > 0 && (usage.output_tokens ?? 0) > 0);

    const requests = cli.api.messageRequests();
    const childRequests = requests.filter(isChild);
    assert.equal(childRequests[0]?.body.messages?.length, 1, 'the child starts from exactly one message');
    assert.equal(firstUserText(childRequests[0] as RecordedRequest), 'Read notes.txt and report.');
    assert.deepEqual(childRequests[0]?.body.tools?.map((t) => t.name), ['bash', 'read_file', 'write_file', 'edit_file', 'glob', 'grep', 'web_fetch', 'ask_user']);
    assert.ok(JSON.stringify(childRequests[1]?.body).includes(CANARY), 'the child read the canary');
    for (const req of requests.filter((r) => !isChild(r))) {
      assert.ok(!JSON.stringify(req.body).includes(CANARY), 'the canary never reaches a parent request');
      assert.ok(req.body.tools?.some((t) => t.name === 'task'));
    }
    assert.equal(requests[0]?.apiKey, 'test-key');

    const transcript = String(result.transcript);
    assert.ok(transcript.startsWith(join(cli.dirs.dataHome, 'delegate')), transcript);
    const lines = readJsonl(transcript);
    assert.equal(lines[0]?.type, 'agent_started');
    assert.equal(lines.at(-1)?.type, 'agent_finished');
    assert.ok(!JSON.stringify(lines.filter((l) => l.agentId === 'main')).includes(CANARY));
    const childId = String(subagents[0]?.id);
    const childFile = join(transcript.replace(/\.jsonl$/, ''), 'subagents', `agent-${childId}.jsonl`);
    const childLines = readJsonl(childFile);
    assert.ok(childLines.some((l) => l.type === 'tool_call' && l.state === 'completed' && String(l.output).includes(CANARY)));
  });

  it('streams one event per line, then the result object', async () => {
    cli.api.script(reply.toolUse({ name: 'glob', input: { pattern: '*.md' } }), reply.text('Nothing to do.'));
    writeFileSync(join(cli.dirs.workdir, 'README.md'), '# hi\n');
    const run = await runDelegate(['-p', 'list docs', '--cwd', cli.dirs.workdir, '--output-format', 'stream-json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const events = lines.slice(0, -1);
    assert.equal(lines.at(-1)?.type, 'result');
    assert.deepEqual(events.map((e) => e.seq), events.map((_, i) => i + 1));
    const toolDone = events.find((e) => e.type === 'tool_finished');
    assert.equal(toolDone?.output, 'README.md');
    // The call's record, patch by patch, on the lines stream-json always had (+ id and state) and one for running.
    const call = events.filter((e) => e.id === toolDone?.toolUseId);
    assert.deepEqual(call.map((e) => [e.type, e.state]), [['tool_started', 'pending'], ['tool_call', 'running'], ['tool_finished', 'completed']]);
    assert.deepEqual([call[0]?.toolUseId, call[0]?.name, call[0]?.kind, call[0]?.summary, call[0]?.paths], [toolDone?.toolUseId, 'glob', 'read', '*.md', []]);
    assert.equal(toolDone?.isError, false);
    assert.ok(events.some((e) => e.type === 'text_delta'));
  });

  it('retries a 529 and succeeds', async () => {
    cli.api.script(reply.overloaded(), reply.text('fine now'));
    const run = await runDelegate(['-p', 'hi', '--cwd', cli.dirs.workdir], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, 'fine now\n');
    assert.equal(cli.api.messageRequests().length, 2);
  });

  it('ends a 401 with one line naming the key, exit 1, transcript kept', async () => {
    cli.api.script(reply.authError());
    const run = await runDelegate(['-p', 'hi', '--cwd', cli.dirs.workdir, '--output-format', 'json'], { env: cli.env() });
    assert.equal(run.code, 1);
    const stderrLines = run.stderr.trim().split('\n');
    assert.equal(stderrLines.length, 1, run.stderr);
    assert.match(run.stderr, /401/);
    assert.match(run.stderr, /ANTHROPIC_API_KEY/);
    assert.doesNotMatch(run.stderr, /\n\s+at /);
    const result = lastJsonLine(run.stdout);
    assert.equal(result.status, 'error');
    const lines = readJsonl(String(result.transcript));
    assert.equal(lines.at(-1)?.status, 'error');
    assert.equal(cli.api.messageRequests().length, 1, 'a 401 is not retried');
  });

  it('without a key says so and exits 1', async () => {
    const run = await runDelegate(['-p', 'hi', '--cwd', cli.dirs.workdir], { env: { ANTHROPIC_BASE_URL: cli.api.baseURL, XDG_DATA_HOME: cli.dirs.dataHome } });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /ANTHROPIC_API_KEY/);
  });

  it('on Ctrl-C cancels the model stream and the children, records cancelled, exits 130', async () => {
    cli.api.route([
      { name: 'child', match: isChild, replies: [reply.stall()] },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'wait forever' } })] },
    ]);
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'json'], {
      env: cli.env(),
      onSpawn: (child) => {
        const timer = setInterval(() => {
          if (cli.api.messageRequests().some(isChild)) {
            clearInterval(timer);
            child.kill('SIGINT');
          }
        }, 20);
      },
    });
    assert.equal(run.code, 130, run.stderr);
    const result = lastJsonLine(run.stdout);
    assert.equal(result.status, 'cancelled');
    const subagents = result.subagents as Record<string, unknown>[];
    assert.equal(subagents[0]?.status, 'cancelled');
    const lines = readJsonl(String(result.transcript));
    assert.equal(lines.at(-1)?.type, 'agent_finished');
    assert.equal(lines.at(-1)?.status, 'cancelled');
  });

  it('leaves only valid transcript lines when killed mid-run', async () => {
    cli.api.route([
      { name: 'child', match: isChild, replies: [reply.toolUse({ name: 'glob', input: { pattern: '*' } }), reply.stall()] },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'look around' } })] },
    ]);
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir], {
      env: cli.env(),
      onSpawn: (child) => {
        const timer = setInterval(() => {
          if (cli.api.messageRequests().filter(isChild).length === 2) {
            clearInterval(timer);
            child.kill('SIGKILL');
          }
        }, 10);
      },
    });
    assert.equal(run.signal, 'SIGKILL');
    const root = join(cli.dirs.dataHome, 'delegate', 'sessions');
    const sessionFile = listFiles(root).find((f) => f.endsWith('.jsonl'));
    assert.ok(sessionFile, 'the session transcript exists');
    const lines = readJsonl(join(root, sessionFile)); // throws on any invalid line
    assert.ok(lines.some((l) => l.type === 'agent_started'));
    const subagents = join(root, sessionFile.replace(/\.jsonl$/, ''), 'subagents');
    const childLines = readJsonl(join(subagents, listFiles(subagents)[0] as string));
    assert.ok(childLines.some((l) => l.type === 'tool_call' && l.state === 'completed' && l.name === 'glob'), 'the child\'s finished call was on disk before the kill');
  });

  it('refuses approval-needing calls headless, naming the mode flag; bypassPermissions runs them', async () => {
    cli.api.script(reply.toolUse({ name: 'bash', input: { command: 'echo hello > made.txt' } }), reply.text('could not'));
    const refused = await runDelegate(['-p', 'make a file', '--cwd', cli.dirs.workdir], { env: cli.env() });
    assert.equal(refused.code, 0, refused.stderr);
    const result = lastToolResults(cli.api.messageRequests()[1] as RecordedRequest)[0];
    assert.equal(result?.is_error, true);
    assert.match(String(result?.content), /--permission-mode bypassPermissions/);
    assert.ok(!existsSync(join(cli.dirs.workdir, 'made.txt')));

    cli.api.script(reply.toolUse({ name: 'bash', input: { command: 'echo hello > made.txt' } }), reply.text('made'));
    const allowed = await runDelegate(['-p', 'make a file', '--cwd', cli.dirs.workdir, '--permission-mode', 'bypassPermissions'], { env: cli.env() });
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.equal(readFileSync(join(cli.dirs.workdir, 'made.txt'), 'utf8'), 'hello\n');
  });

  it('refuses path escapes, including through a symlink, in every mode', async () => {
    const outside = tempDir('delegate-outside-');
    writeFileSync(join(outside, 'secret.txt'), 'TOP-SECRET');
    symlinkSync(outside, join(cli.dirs.workdir, 'link'));
    cli.api.script(
      reply.toolUse([
        { name: 'read_file', input: { path: 'link/secret.txt' } },
        { name: 'read_file', input: { path: '../data/x' } },
        { name: 'write_file', input: { path: join(outside, 'new.txt'), content: 'x' } },
        { name: 'read_file', input: { path: '~/.bashrc' } },
      ]),
      reply.text('refused'),
    );
    const run = await runDelegate(['-p', 'peek', '--cwd', cli.dirs.workdir, '--permission-mode', 'bypassPermissions'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    const results = lastToolResults(cli.api.messageRequests()[1] as RecordedRequest);
    assert.equal(results.length, 4);
    for (const r of results) {
      assert.equal(r.is_error, true, JSON.stringify(r));
      assert.doesNotMatch(String(r.content), /TOP-SECRET/);
    }
    assert.ok(!existsSync(join(outside, 'new.txt')));
  });

  it('cuts a 300 KB output and saves the whole of it beside the transcript', async () => {
    cli.api.script(reply.toolUse({ name: 'bash', input: { command: "head -c 300000 /dev/zero | tr '\\0' x; echo; echo TAIL-MARK" } }), reply.text('ok'));
    const run = await runDelegate(['-p', 'big', '--cwd', cli.dirs.workdir, '--permission-mode', 'bypassPermissions', '--output-format', 'json'], {
      env: cli.env(),
    });
    assert.equal(run.code, 0, run.stderr);
    const content = String(lastToolResults(cli.api.messageRequests()[1] as RecordedRequest)[0]?.content);
    assert.ok(content.length < 52_000, `cut (${content.length})`);
    assert.match(content, /TAIL-MARK/);
    const saved = /saved to (\S+)/.exec(content)?.[1];
    assert.ok(saved && existsSync(saved), content.slice(40_000, 40_400));
    assert.ok(readFileSync(saved, 'utf8').length > 300_000);
    const sessionDir = String(lastJsonLine(run.stdout).transcript).replace(/\.jsonl$/, '');
    assert.deepEqual(listFiles(join(sessionDir, 'tool-outputs')).length, 1);
  });

  it('starts parallel subagents together', async () => {
    const slow = (text: string) => reply.text(text, { delayMs: 400 });
    cli.api.route([
      { name: 'A', match: 'JOB-A', replies: [slow('A done')] },
      { name: 'B', match: 'JOB-B', replies: [slow('B done')] },
      { name: 'C', match: 'JOB-C', replies: [slow('C done')] },
      {
        name: 'parent',
        match: () => true,
        replies: [
          reply.toolUse([
            { name: 'task', input: { prompt: 'JOB-A' } },
            { name: 'task', input: { prompt: 'JOB-B' } },
            { name: 'task', input: { prompt: 'JOB-C' } },
          ]),
          reply.text('all three done'),
        ],
      },
    ]);
    const t0 = Date.now();
    const run = await runDelegate(['-p', 'fan out', '--cwd', cli.dirs.workdir], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    cli.api.assertAllConsumed();
    const childTimes = cli.api.messageRequests().filter(isChild).map((r) => r.receivedAt);
    assert.equal(childTimes.length, 3);
    assert.ok(Math.max(...childTimes) - Math.min(...childTimes) < 300, 'all three children were asked before any answered');
    assert.ok(Date.now() - t0 < 3_000);
    const results = lastToolResults(cli.api.messageRequests().at(-1) as RecordedRequest).map((r) => String(r.content));
    // The harness's footer follows each report: these children changed nothing; then the line that names each child.
    const address = /\n\[subagent [0-9a-f]{8}: send_message and read_subagent reach it\]$/;
    for (const r of results) assert.match(r, address);
    assert.deepEqual(results.map((r) => r.replace(address, '')), ['A done\n\n[changes] none', 'B done\n\n[changes] none', 'C done\n\n[changes] none']);
  });

  it('forces a final answer at the subagent turn cap', async () => {
    cli.api.route([
      {
        name: 'child',
        match: isChild,
        replies: [reply.toolUse({ name: 'glob', input: { pattern: '*' } }), reply.text('best effort so far')],
      },
      {
        name: 'parent',
        match: () => true,
        replies: [reply.toolUse({ name: 'task', input: { prompt: 'explore' } }), reply.text('ok')],
      },
    ]);
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--subagent-max-turns', '1', '--output-format', 'json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    const forced = cli.api.messageRequests().filter(isChild)[1];
    assert.deepEqual(forced?.body.tool_choice, { type: 'none' });
    assert.ok(forced?.body.tools?.length, 'tools are kept on the forced request');
    const result = lastJsonLine(run.stdout);
    assert.equal((result.subagents as Record<string, unknown>[])[0]?.status, 'max_turns');
    const toParent = String(lastToolResults(cli.api.messageRequests().at(-1) as RecordedRequest)[0]?.content);
    assert.match(toParent, /limit of 1 turns/);
    assert.match(toParent, /best effort so far/);
  });
});
