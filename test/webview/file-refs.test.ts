/**
 * File references in answers are links (issue 15 §5): a path in a sentence or in inline code opens the file
 * (at its line); prose like "Node.js", URLs and version numbers stay text; code blocks wrap in a narrow panel.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { applyEvents, createSessionView } from '../../src/view-model/session-view';
import { launch, openPanel, posted, requireBrowser, ROOT_DIR, send } from './browser';
import { ROOT, Script } from './fixtures';

const ANSWER = [
  'The retry count lives in src/config.ts:12 and is read by `src/app.ts`; see also `README.md` and ./docs/setup.md.',
  'Node.js 20 is needed (version 1.2.3), docs at https://example.com/src/a.js, and [the guide](docs/guide.md) says so.',
  '',
  '```ts',
  `const aVeryLongVariableName = someFunction(${Array.from({ length: 12 }, (_, i) => `argument${i}`).join(', ')});`,
  '```',
].join('\n');

describe('file references in answers (headless Chromium)', function () {
  this.timeout(60_000);
  let browser: Browser;
  let page: Page;

  before(async () => {
    execFileSync(process.execPath, [join(ROOT_DIR, 'scripts', 'build-webview.mjs')], { stdio: 'pipe' });
    requireBrowser();
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    await page?.close();
  });

  it('links paths in sentences and inline code, leaves prose, URLs and versions alone; code wraps at 300 px', async () => {
    page = await openPanel(browser, undefined, { width: 300, height: 600 });
    const s = new Script();
    s.rootStart('Where is the retry count?');
    s.turn(ROOT, null, 1);
    s.rootText(1, ANSWER);
    const state = createSessionView();
    applyEvents(state, s.events);
    await send(page, { type: 'snapshot', state, running: false });
    const links = page.locator('.msg-assistant a.md-link[data-path]');
    assert.deepEqual(await page.locator('.msg-assistant a.md-link[data-url]').allTextContents(), ['https://example.com/src/a.js'], 'a URL stays a web link');
    assert.deepEqual(await links.evaluateAll((els) => els.map((e) => `${e.textContent} → ${(e as unknown as { dataset: Record<string, string> }).dataset.path}${(e as unknown as { dataset: Record<string, string> }).dataset.line ? `:${(e as unknown as { dataset: Record<string, string> }).dataset.line}` : ''}`)), [
      'src/config.ts:12 → src/config.ts:12',
      'src/app.ts → src/app.ts',
      'README.md → README.md',
      './docs/setup.md → docs/setup.md',
      'the guide → docs/guide.md',
    ]);
    assert.equal(await page.locator('.msg-assistant a.md-link a').count(), 0, 'no link inside the model\'s own link');
    await links.first().click();
    assert.deepEqual((await posted(page)).at(-1), { type: 'open_file', path: 'src/config.ts', line: 12 });
    const pre = await page.locator('.msg-assistant pre').evaluate((e) => ({ scroll: (e as unknown as { scrollWidth: number }).scrollWidth, client: (e as unknown as { clientWidth: number }).clientWidth }));
    assert.ok(pre.scroll <= pre.client, `the code line wraps: ${pre.scroll} > ${pre.client}`);
  });
});
