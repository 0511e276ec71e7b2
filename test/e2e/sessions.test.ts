/**
 * A session you can live in, end to end in a real VS Code 1.139 with the packaged extension: prompts
 * in a row (nothing replaced), a follow-up after Stop, stopping one subagent while the other and the
 * main agent go on, the history list, a window reload that brings the session back, and compaction
 * on request. The model is the project's local Messages-API server.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { lastToolResults, reply, systemText, type MessagesApiServer, type RecordedRequest } from '../fixtures/messages-api-server';
import { screenshot } from './editor';
import { childRoute, isChild, parentRoute, wholeRequest } from './fixtures';
import { delegateEditorSuite } from './editor-suite';
import { Panel, STEP_TIMEOUT } from './panel';
import { gate, waitUntil } from './wait';
import { askFromPalette, openDelegateView, runCommand, setApiKeyFromPalette } from './workbench';

const API_KEY = 'sk-e2e-sessions';

describe('Delegate in a real VS Code: sessions that last', function () {
  const editor = delegateEditorSuite('sessions', API_KEY, { 'delegate.permissionMode': 'default' });
  let server: MessagesApiServer;
  let page: Page;
  let panel: Panel;
  /** This test's Messages API requests only: the server lives across tests. */
  const requests = editor.requests;
  const parentRequests = (): RecordedRequest[] => requests().filter((r) => !isChild(r) && !isSummary(r));
  const isSummary = (r: RecordedRequest): boolean => systemText(r).startsWith('You summarize');
  before(() => ({ server, page, panel } = editor.parts()));

  afterEach(async function () {
    if (this.currentTest?.state !== 'failed') return;
    console.log(`      screenshot of the failure: ${await screenshot(page, `failed-sessions-${(this.currentTest.title.split(' ')[0] ?? 'x').replace(/\W+/g, '')}`)}`);
    if (!(await panel.isIdle())) await panel.stopButton().click();
  });

  /** The conversation as the user sees it: "you: …" / "assistant: …" / "notice: …" lines. */
  async function conversation(): Promise<string[]> {
    // Rows of the flat tree, in list order (data-index); a block row holds one message or notice.
    return panel.frame.locator('.conversation > .block-row').evaluateAll((rows) =>
      rows
        .sort((a, b) => Number(a.getAttribute('data-index')) - Number(b.getAttribute('data-index')))
        .flatMap((row) => {
          const e = row.querySelector(':scope > .msg, :scope > .notice');
          return e ? [e] : [];
        })
        .map((e) => `${e.classList.contains('msg-user') ? 'you' : e.classList.contains('msg-assistant') ? 'assistant' : 'notice'}: ${(e.querySelector('.msg-text, .notice-text')?.textContent ?? '').trim()}`),
    );
  }

  it('e. three prompts in a row, each answered in its first turn, are all kept in order', async () => {
    await runCommand(page, 'Delegate: New Session');
    server.route([parentRoute([reply.text('Answer one.'), reply.text('Answer two.'), reply.text('Answer three.')])]);
    for (const [i, prompt] of ['First question?', 'Second question?', 'Third question?'].entries()) {
      await askFromPalette(page, prompt);
      await panel.assistantText(`Answer ${['one', 'two', 'three'][i]}.`).waitFor({ timeout: STEP_TIMEOUT });
      await panel.waitUntilIdle();
    }
    assert.deepEqual(await conversation(), [
      'you: First question?',
      'assistant: Answer one.',
      'you: Second question?',
      'assistant: Answer two.',
      'you: Third question?',
      'assistant: Answer three.',
    ]);
    assert.match(wholeRequest(parentRequests()[2] as RecordedRequest), /First question\?.*Answer one\..*Second question\?.*Answer two\..*Third question\?/s);
    server.assertAllConsumed();
  });

  it('f. a follow-up after Stop keeps the stopped prompt and tells the model it was stopped', async () => {
    await runCommand(page, 'Delegate: New Session');
    server.route([parentRoute([reply.stall(), reply.text('You stopped me before I changed anything.')])]);
    await askFromPalette(page, 'Rename every file.');
    await waitUntil(() => parentRequests().length === 1, 'the first request is in flight');
    await panel.stopButton().click();
    await panel.waitUntilIdle();
    await askFromPalette(page, 'What did you change?');
    await panel.assistantText('You stopped me before I changed anything.').waitFor({ timeout: STEP_TIMEOUT });
    const second = wholeRequest(parentRequests()[1] as RecordedRequest);
    assert.match(second, /Rename every file\..*stopped before it finished.*What did you change\?/s);
    assert.deepEqual(await conversation(), ['you: Rename every file.', 'notice: Stopped.', 'you: What did you change?', 'assistant: You stopped me before I changed anything.']);
    server.assertAllConsumed();
  });

  it('g. Stop on one running subagent stops it alone: the other finishes and the main agent goes on', async () => {
    await runCommand(page, 'Delegate: New Session');
    const slowStopped = gate();
    server.route([
      childRoute('SLOWJOB', [reply.toolUse({ name: 'read_file', input: { path: 'README.md' } }), reply.stall()]),
      // Held until its sibling is stopped: the test sees it still running then.
      childRoute('QUICKJOB', [reply.text('The math module adds numbers.', { until: slowStopped.opened })]),
      parentRoute([
        reply.toolUse([
          { name: 'task', input: { description: 'slow survey', prompt: 'SLOWJOB: survey everything.' } },
          { name: 'task', input: { description: 'quick look', prompt: 'QUICKJOB: look at src/math.ts.' } },
        ]),
        reply.text('One survey was stopped; the math module adds numbers.'),
      ]),
    ]);
    await askFromPalette(page, 'Survey the project and look at math.');
    const slow = panel.task('slow survey');
    const quick = panel.task('quick look');
    await waitUntil(() => requests().filter((r) => isChild(r) && JSON.stringify(r.body).includes('SLOWJOB')).length === 2, 'the slow child waits on its second reply');
    const stop = slow.locator(':scope > .row-action.codicon-debug-stop');
    await stop.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    await screenshot(page, 'stop-one-subagent');
    await stop.click();
    await panel.waitForStatus(slow, 'cancelled');
    assert.equal(await quick.getAttribute('data-status'), 'running', 'the other subagent goes on');
    slowStopped.open();
    await panel.waitForStatus(quick, 'completed');
    await panel.assistantText('One survey was stopped').waitFor({ timeout: STEP_TIMEOUT });
    await panel.waitUntilIdle();
    await panel.setOpen(slow, true);
    assert.deepEqual(await panel.toolNames(slow), ['read_file'], 'its partial work stays in the tree');
    // Plain words on its outcome row, not the harness's note to the main agent.
    const outcome = (await panel.outcome(slow).innerText()).replace(/\s+/g, ' ').trim();
    assert.equal(outcome, 'Stopped before it reported anything');
    await screenshot(page, 'stopped-child');
    const results = lastToolResults(parentRequests()[1] as RecordedRequest).map((r) => String(r.content));
    assert.match(results[0] ?? '', /The user stopped this subagent/);
    // The harness's manifest follows the subagent's report (it changed nothing).
    assert.match(results[1] ?? '', /^The math module adds numbers\.\n\n\[changes\] none\n\[subagent [0-9a-f]{8}: send_message and read_subagent reach it\]$/);
    server.assertAllConsumed();
  });

  it('h. the history list reopens a session, a window reload brings it back, and a new prompt continues it', async () => {
    await runCommand(page, 'Delegate: New Session');
    server.route([
      childRoute('MAPJOB', [reply.toolUse({ name: 'glob', input: { pattern: 'src/*.ts' } }), reply.text('src has math.ts and strings.ts.')]),
      parentRoute([reply.toolUse({ name: 'task', input: { description: 'map the sources', prompt: 'MAPJOB: list the source files.' } }), reply.text('Two source files.')]),
    ]);
    await askFromPalette(page, 'Which source files are there?');
    await panel.assistantText('Two source files.').waitFor({ timeout: STEP_TIMEOUT });
    await panel.waitUntilIdle();

    await runCommand(page, 'Delegate: New Session');
    await panel.emptyHint().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    await runCommand(page, 'Delegate: Show History');
    const row = panel.frame.locator('.history-row', { hasText: 'Which source files are there?' });
    await row.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    assert.match(await row.locator('.history-row-meta').innerText(), /1 prompt · 2 turns · .* · completed/);
    await screenshot(page, 'history-list');
    await row.click();
    const task = panel.task('map the sources');
    await panel.waitForStatus(task, 'completed');
    await panel.setOpen(task, true);
    assert.deepEqual(await panel.toolNames(task), ['glob']);
    await panel.assistantText('Two source files.').waitFor({ timeout: STEP_TIMEOUT });
    await screenshot(page, 'reopened-session');

    await runCommand(page, 'Developer: Reload Window');
    await openDelegateView(page);
    panel = await Panel.of(page);
    await panel.assistantText('Two source files.').waitFor({ timeout: 60_000 });
    await panel.waitForStatus(panel.task('map the sources'), 'completed');
    // A reload forgets the key here (code-server's browser client seals SecretStorage with a key its server mints
    // anew; desktop VS Code keeps it in the OS keychain). The user is told so under the prompt box when they ask (the
    // prompt stays as the draft; this editor has no models of its own); here the key is simply set again.
    await askFromPalette(page, 'Are you there?');
    await panel.frame.locator('footer.composer .composer-notice', { hasText: 'No API key or editor model' }).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    await setApiKeyFromPalette(page, API_KEY);

    server.route([parentRoute([reply.text('Still two: math.ts and strings.ts.')])]);
    const before = server.messageRequests().length;
    await askFromPalette(page, 'Are there still two?');
    await panel.assistantText('Still two').waitFor({ timeout: STEP_TIMEOUT });
    const continued = wholeRequest(server.messageRequests()[before] as RecordedRequest);
    assert.match(continued, /Which source files are there\?.*src has math\.ts and strings\.ts\..*Two source files\..*Are there still two\?/s);
    assert.deepEqual((await conversation()).filter((l) => l.startsWith('you:')), ['you: Which source files are there?', 'you: Are there still two?']);
    server.assertAllConsumed();
  });

  it('i. Compact Conversation summarizes the main agent’s conversation and shows a compacted row', async () => {
    await runCommand(page, 'Delegate: New Session');
    server.route([
      { name: 'summary', match: isSummary, replies: [reply.text('The user asked three counting questions; the answers were 1, 2 and 3.')] },
      // Long answers: a summary only replaces what it is shorter than.
      parentRoute([...['1', '2', '3'].map((n) => reply.text(`${n}. ${'Counting carefully, one number at a time. '.repeat(60)}`)), reply.text('We counted to three.')]),
    ]);
    for (const [i, q] of ['Count one.', 'Count two.', 'Count three.'].entries()) {
      await askFromPalette(page, q);
      await panel.frame.locator('.msg-assistant').nth(i).waitFor({ timeout: STEP_TIMEOUT });
      await panel.waitUntilIdle();
    }
    await runCommand(page, 'Delegate: Compact Conversation');
    const line = panel.frame.locator('.notice.compaction');
    await line.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    assert.match(await line.innerText(), /compacted: [\d,]+ → [\d,]+ tokens/);
    await screenshot(page, 'compacted');
    await askFromPalette(page, 'How far did we count?');
    await panel.assistantText('We counted to three.').waitFor({ timeout: STEP_TIMEOUT });
    const last = wholeRequest(parentRequests().at(-1) as RecordedRequest);
    assert.match(last, /answers were 1, 2 and 3/);
    server.assertAllConsumed();
  });
});

