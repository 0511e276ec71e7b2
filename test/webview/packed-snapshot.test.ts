/**
 * The snapshot as the editor posts it (src/vscode/view-provider.ts: `packed`, snapshot-codec.ts) in the built panel:
 * the rows are those of the slim snapshot posted as an object (what the editor's JSON of it gave before), and the
 * panel goes on from it (events, a row opened asks the host for the call's detail).
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { applyEvents, createSessionView, type SessionViewState } from '../../src/view-model/session-view';
import { slimSnapshot } from '../../src/view-model/slim-snapshot';
import { encodeSnapshot } from '../../src/view-model/snapshot-codec';
import { frames, openPanel, posted, send, panelSuite } from './browser';
import { bigSession, finishedSession, ROOT, runningSession, Script } from './fixtures';
import { item } from './tree-dom';

function stateOf(script: Script): SessionViewState {
  const state = createSessionView();
  applyEvents(state, script.events);
  return state;
}

interface RowEl {
  dataset: Record<string, string | undefined>;
  className: string;
  textContent: string | null;
  getAttribute(name: string): string | null;
}
interface Doc {
  document: { querySelectorAll(s: string): ArrayLike<RowEl> };
}

/** Every row in the DOM, in list order: id, class, tree attributes, status and text. */
const rows = (page: Page): Promise<string[]> =>
  page.evaluate(() =>
    Array.from((globalThis as unknown as Doc).document.querySelectorAll('.conversation > .tree-row'))
      .sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index))
      .map((r) => [r.dataset.id, r.className, r.getAttribute('aria-level'), r.getAttribute('aria-expanded'), r.getAttribute('aria-setsize'), r.dataset.status, r.textContent].join(' | ')),
  );

/** Every task open (the saved webview state), so their calls are rows too. */
function allOpen(state: SessionViewState): unknown {
  const expanded = Object.fromEntries(Object.values(state.nodes).flatMap((n) => (n.kind === 'task' ? [[n.id, true]] : [])));
  return { v: 1, expanded, draft: '' };
}

describe('the packed snapshot in the panel (headless Chromium)', function () {
  this.timeout(120_000);
  const panel = panelSuite({ pagePerTest: false });

  const sessions: [string, () => SessionViewState, boolean][] = [
    ['a finished session', () => stateOf(finishedSession()), false],
    ['a running session with a nested subagent and a call waiting for approval', () => stateOf(runningSession()), true],
    ['a finished 300-call task', () => stateOf(bigSession(300, true)), false],
  ];
  for (const [label, make, running] of sessions) {
    it(`${label}: the same rows as the slim snapshot posted as an object`, async () => {
      const state = make();
      const seen: string[][] = [];
      for (const message of [{ type: 'snapshot', packed: encodeSnapshot(state), running } as const, { type: 'snapshot', state: slimSnapshot(state), running } as const]) {
        const page = await openPanel(panel.browser, allOpen(state), { width: 420, height: 4000 });
        try {
          // One clock for both: a running task's elapsed time on its row is the same in the two renders.
          await page.clock.setFixedTime(1_700_000_600_000);
          await send(page, message);
          await frames(page, 2);
          seen.push(await rows(page));
        } finally {
          await page.close();
        }
      }
      const [packed, object] = seen;
      assert.ok(packed && packed.length > 5, `rows: ${packed?.length}`);
      assert.deepEqual(packed, object);
    });
  }

  it('goes on from a packed snapshot: a batch of events adds its row, an opened call asks the host for its detail', async () => {
    const page = await openPanel(panel.browser, undefined, { width: 420, height: 720 });
    try {
      const s = bigSession(2000);
      await send(page, { type: 'snapshot', packed: encodeSnapshot(stateOf(s)), running: true });
      await page.locator(item('tool:big-1999')).waitFor();
      s.take();
      s.tool('agent-big', ROOT, 'after', 'bash', { command: 'echo after' }, 'after');
      await send(page, { type: 'events', events: s.take() });
      await page.locator(item('tool:after')).waitFor();
      await page.locator(`${item('tool:big-1998')} .tool-name`).click();
      await frames(page, 2);
      assert.ok((await posted(page)).some((m) => m.type === 'node_detail' && m.id === 'tool:big-1998'), 'the row asked for the call\'s input and output');
    } finally {
      await page.close();
    }
  });
});
