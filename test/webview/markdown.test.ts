/**
 * Markdown in the built panel (headless Chromium, under the harness page's nonce-only script
 * CSP): structure, highlighted code and its copy button, links posted to the host, hostile model
 * text producing nothing that runs, narrow-layout overflow, a subagent's result, streaming, and
 * the dark/light screenshots in test-artifacts/webview/.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ARTIFACTS, openPanel, posted, send, panelSuite } from './browser';
import { ROOT } from './fixtures';
import { ANSWER, answerState, HOSTILE, promptOnly, resultState, streamedCut, TRICKY, TRICKY_CUTS, WORKSPACE } from './markdown-fixtures';

/** Page-side view of the DOM (the root tsconfig has no DOM lib). */
interface Doc {
  document: { querySelector(s: string): El | null; querySelectorAll(s: string): Iterable<El> };
}
interface El {
  tagName: string;
  textContent: string | null;
  className: string;
  attributes: Iterable<{ name: string; value: string }>;
  querySelectorAll(s: string): Iterable<El>;
  scrollWidth: number;
  clientWidth: number;
  getBoundingClientRect(): { left: number; right: number; width: number };
}

async function showAnswer(page: Page, text: string): Promise<void> {
  await send(page, { type: 'workspace', folders: [WORKSPACE] }, { type: 'snapshot', state: answerState(text), running: false });
}

/** The tags of a message's rendered markdown, in document order. */
async function tags(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluate((root) => [...(root as unknown as El).querySelectorAll('*')].map((e) => e.tagName.toLowerCase()));
}

describe('webview markdown (headless Chromium)', function () {
  this.timeout(60_000);
  const panel = panelSuite();

  it('renders headings, lists, a table, a blockquote, inline code and emphasis', async () => {
    await showAnswer(panel.page, ANSWER);
    const md = panel.page.locator('.msg-assistant .md');
    assert.equal(await md.locator('h2').textContent(), 'Flaky test fixed');
    assert.deepEqual(await md.locator('table th').allTextContents(), ['File', 'Change', 'Lines']);
    assert.deepEqual(await md.locator('table tbody tr').first().locator('td').allTextContents(), ['test/a.test.ts', 'sleep → await settled()', '4']);
    assert.match((await md.locator('table th').nth(2).getAttribute('class')) ?? '', /md-align-right/);
    assert.equal(await md.locator('.md-table-wrap > table').count(), 1, 'a table scrolls inside its own box');
    assert.deepEqual(await md.locator('ol > li').evaluateAll((els) => els.length), 2);
    assert.equal(await md.locator('ol > li strong').textContent(), 'twenty times');
    assert.equal(await md.locator('ol > li em').textContent(), 'CI');
    const marks = md.locator('ol ul > li > .md-task[role=checkbox]');
    assert.deepEqual(await marks.evaluateAll((els) => els.map((e) => (e as unknown as { getAttribute(n: string): string | null }).getAttribute('aria-checked'))), ['true', 'false']);
    assert.deepEqual(await md.locator('ol ul > li').allTextContents(), ['local runs pass', 'CI passes']);
    assert.match((await md.locator('blockquote').textContent()) ?? '', /Tip: --retries 0 makes a flake show up at once\./);
    assert.equal(await md.locator('blockquote code.md-code-inline').textContent(), '--retries 0');
    assert.equal(await md.locator('p code.md-code-inline').first().textContent(), 'test/a.test.ts:12');
    const more = '# One\n\n### Three\n\n3. three\n4. four\n\n~~gone~~ and a line\nbreak\n\n---\n\n    indented code\n';
    await showAnswer(panel.page, more);
    assert.deepEqual(await tags(panel.page, '.msg-assistant .md'), ['h1', 'h3', 'ol', 'li', 'li', 'p', 's', 'br', 'hr', 'div', 'div', 'span', 'button', 'span', 'pre', 'code']);
    assert.equal(await panel.page.locator('.msg-assistant ol').getAttribute('start'), '3');
    assert.equal(await panel.page.locator('.msg-assistant pre code').textContent(), 'indented code');
  });

  it('highlights a fenced block with a language (token spans), leaves one without a language plain', async () => {
    await showAnswer(panel.page, ANSWER);
    const code = panel.page.locator('.msg-assistant .md-code').first();
    assert.equal(await code.locator('.md-code-lang').textContent(), 'ts');
    // The highlighter bundle loads on first use (its own <script>, with main.js's nonce).
    await code.locator('span.hl-keyword').first().waitFor();
    assert.deepEqual(await code.locator('span.hl-keyword').allTextContents().then((t) => t.slice(0, 3)), ['export', 'async', 'function']);
    assert.ok((await code.locator('span.hl-comment').count()) > 0);
    assert.ok((await code.locator('span.hl-string').count()) > 0);
    const raw = ANSWER.split('```ts\n')[1]?.split('\n```')[0];
    assert.equal(await code.locator('pre code').textContent(), raw, 'highlighting keeps the exact text');

    await showAnswer(panel.page, 'Plain:\n\n```\nconst x = 1; // not highlighted\n```\n\nUnknown:\n\n```klingon\nQapla\'\n```\n');
    const blocks = panel.page.locator('.msg-assistant .md-code');
    assert.equal(await blocks.count(), 2);
    await panel.page.waitForTimeout(100);
    assert.equal(await blocks.nth(0).locator('pre code').textContent(), 'const x = 1; // not highlighted');
    assert.equal(await blocks.nth(0).locator('pre code span').count(), 0);
    assert.equal(await blocks.nth(1).locator('.md-code-lang').textContent(), 'klingon');
    assert.equal(await blocks.nth(1).locator('pre code span').count(), 0);
  });

  it('copy button puts the raw code on the clipboard and shows a check for a moment', async () => {
    await panel.page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await showAnswer(panel.page, ANSWER);
    const code = panel.page.locator('.msg-assistant .md-code').first();
    await code.locator('span.hl-keyword').first().waitFor();
    const button = code.locator('button.md-code-copy');
    assert.equal(await button.getAttribute('aria-label'), 'Copy code');
    await button.click();
    await button.locator('.codicon-check').waitFor();
    assert.equal(await button.getAttribute('title'), 'Copied');
    const clip = await panel.page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText());
    assert.equal(clip, ANSWER.split('```ts\n')[1]?.split('\n```')[0]);
    await button.locator('.codicon-copy').waitFor({ timeout: 3000 });
    assert.equal(await button.getAttribute('title'), 'Copy code');
  });

  it('links: workspace files post open_file with path and line, http(s) posts open_external', async () => {
    await showAnswer(panel.page, `${ANSWER}\n[abs](file://${WORKSPACE}/src/b.ts#L7) [plain](docs/x.md)`);
    const links = panel.page.locator('.msg-assistant a.md-link');
    const last = async (): Promise<unknown> => (await posted(panel.page)).at(-1);
    await links.filter({ hasText: 'test/a.test.ts:12' }).click();
    assert.deepEqual(await last(), { type: 'open_file', path: 'test/a.test.ts', line: 12 });
    await links.filter({ hasText: /^setup$/ }).click();
    assert.deepEqual(await last(), { type: 'open_file', path: 'test/setup.ts', line: 3 });
    // A file named in inline code (the table's `test/setup.ts`) is a link too.
    await links.filter({ hasText: /^test\/setup\.ts$/ }).click();
    assert.deepEqual(await last(), { type: 'open_file', path: 'test/setup.ts' });
    await links.filter({ hasText: 'abs' }).click();
    assert.deepEqual(await last(), { type: 'open_file', path: `${WORKSPACE}/src/b.ts`, line: 7 });
    await links.filter({ hasText: 'plain' }).click();
    assert.deepEqual(await last(), { type: 'open_file', path: 'docs/x.md' });
    await links.filter({ hasText: 'mocha docs' }).click();
    assert.deepEqual(await last(), { type: 'open_external', url: 'https://mochajs.org/#timeouts' });
    await links.filter({ hasText: 'https://nodejs.org/api/timers.html' }).click();
    assert.deepEqual(await last(), { type: 'open_external', url: 'https://nodejs.org/api/timers.html' }, 'a bare URL is linked too');
    // Keyboard: links are focusable and Enter follows them.
    await links.filter({ hasText: 'mocha docs' }).focus();
    const before = (await posted(panel.page)).length;
    await panel.page.keyboard.press('Enter');
    assert.equal((await posted(panel.page)).length, before + 1);
    assert.equal(await links.first().getAttribute('href'), null, 'no href: the webview itself never navigates');
  });

  it('hostile model text: raw HTML stays text, script links stay plain, nothing can run', async () => {
    // Anything that even tried to run would also show up as a CSP violation (the harness has the webview's CSP).
    await panel.page.evaluate(() => {
      const w = globalThis as unknown as { __violations: string[]; document: { addEventListener(t: string, f: (e: { violatedDirective: string }) => void): void } };
      w.__violations = [];
      w.document.addEventListener('securitypolicyviolation', (e) => w.__violations.push(e.violatedDirective));
    });
    await showAnswer(panel.page, HOSTILE);
    await panel.page.waitForTimeout(200);
    assert.deepEqual(await panel.page.evaluate(() => (globalThis as unknown as { __violations: string[] }).__violations), []);
    const msg = panel.page.locator('.msg-assistant');
    assert.match((await msg.textContent()) ?? '', /<img src="x" onerror=.*<script>globalThis.__pwned = 'script'<\/script>/s);
    const found = await msg.evaluate((root) => {
      const all = [...(root as unknown as El).querySelectorAll('*')];
      return {
        tags: [...new Set(all.map((e) => e.tagName.toLowerCase()))].sort(),
        attrs: [...new Set(all.flatMap((e) => [...e.attributes].map((a) => a.name)))].sort(),
        values: all.flatMap((e) => [...e.attributes].map((a) => a.value)).filter((v) => /javascript:|vbscript:|data:|command:/i.test(v)),
      };
    });
    assert.deepEqual(found.tags, ['a', 'br', 'div', 'p', 'span']);
    assert.deepEqual(found.attrs, ['class', 'data-url', 'role', 'tabindex', 'title']);
    assert.deepEqual(found.values, []);
    // The raw <a> is text (its URL autolinked, an http link like any other); the image is its alt text.
    const links = await msg.locator('a.md-link').evaluateAll((els) => els.map((e) => ({ ...(e as unknown as { dataset: Record<string, string> }).dataset })));
    assert.deepEqual(links, [{ url: 'https://example.com/' }]);
    assert.equal(await msg.locator('.md-image-alt').first().textContent(), 'tracker');
    for (const text of ['click me', 'data', 'vb', 'cmd', 'outside', 'abs']) {
      await msg.locator('.md-link-plain', { hasText: text }).first().click();
    }
    assert.deepEqual((await posted(panel.page)).filter((m) => m.type !== 'ready'), [], 'clicking refused links posts nothing');
    assert.equal(await panel.page.evaluate(() => (globalThis as unknown as { __pwned?: string }).__pwned), undefined);
  });

  it('long lines wrap or scroll inside their block; the 420 px panel never scrolls sideways', async () => {
    const word = 'x'.repeat(600);
    const longLine = `const veryLong = [${Array.from({ length: 80 }, (_, i) => `'item-${i}'`).join(', ')}];`;
    const wide = `| ${Array.from({ length: 12 }, (_, i) => `column number ${i}`).join(' | ')} |\n|${' --- |'.repeat(12)}\n| ${Array.from({ length: 12 }, () => 'cell').join(' | ')} |`;
    await showAnswer(panel.page, `${word}\n\nSee https://example.com/${'a'.repeat(300)}\n\n\`\`\`ts\n${longLine}\n\`\`\`\n\n${wide}\n\n\`${'y'.repeat(300)}\``);
    await panel.page.locator('.msg-assistant span.hl-string').first().waitFor();
    const m = await panel.page.evaluate(() => {
      const doc = (globalThis as unknown as Doc).document;
      const log = doc.querySelector('.log') as El;
      const msg = doc.querySelector('.msg-assistant') as El;
      const pre = doc.querySelector('.msg-assistant pre') as El;
      const wrap = doc.querySelector('.msg-assistant .md-table-wrap') as El;
      return {
        log: { scroll: log.scrollWidth, client: log.clientWidth },
        pre: { scroll: pre.scrollWidth, client: pre.clientWidth },
        wrap: { scroll: wrap.scrollWidth, client: wrap.clientWidth },
        bar: doc.querySelector('.msg-assistant .md-table-bar:not([hidden]) .md-table-thumb')?.getBoundingClientRect().width ?? 0,
        msgRight: msg.getBoundingClientRect().right,
      };
    });
    assert.ok(m.log.scroll <= m.log.client, `the panel does not overflow sideways: ${m.log.scroll} > ${m.log.client}`);
    assert.ok(m.pre.scroll <= m.pre.client, 'the long code line wraps inside the code block (a side bar hides scroll bars: it looked cut)');
    assert.ok(m.wrap.scroll > m.wrap.client, 'the wide table scrolls inside its box');
    // And shows it: headless Chromium draws no native scrollbar (--hide-scrollbars), so the table's own bar does.
    assert.ok(m.bar > 0 && m.bar < m.wrap.client, `a bar under the table, its thumb the part in view (${m.bar} px)`);
    await panel.page.locator('.msg-assistant .md-table-box').scrollIntoViewIfNeeded();
    await panel.page.locator('.msg-assistant .md-table-box').screenshot({ path: join(ARTIFACTS, 'markdown-wide-table.png') });
    assert.ok(m.msgRight <= 420, `message inside the panel: ${m.msgRight}`);
  });

  it('a subagent’s result row renders markdown too', async () => {
    const reloaded = await openPanel(panel.browser, { v: 1, expanded: { 'task:tu-md': true, 'outcome:task:tu-md': true }, draft: '' });
    try {
      await send(reloaded, { type: 'workspace', folders: [WORKSPACE] }, { type: 'snapshot', state: resultState(ANSWER), running: false });
      const detail = reloaded.locator('.tree-row[data-id="detail:outcome:task:tu-md"] .detail-body .md');
      await detail.locator('table').waitFor();
      assert.equal(await detail.locator('h2').textContent(), 'Flaky test fixed');
      await detail.locator('span.hl-keyword').first().waitFor();
      await detail.locator('a.md-link', { hasText: /^setup$/ }).click();
      assert.deepEqual((await posted(reloaded)).at(-1), { type: 'open_file', path: 'test/setup.ts', line: 3 });
      assert.equal(await reloaded.locator('.tree-row[data-id="outcome:task:tu-md"]').getAttribute('aria-expanded'), 'true', 'the click did not toggle the row');
      assert.equal(await reloaded.locator('.tree-row[data-id="outcome:task:tu-md"] .text-row-line').textContent(), 'Flaky test fixed');
    } finally {
      await reloaded.close();
    }
  });

  it('streaming: each frame renders what a fresh render of the same text shows, and finished blocks are kept', async () => {
    const text = `${ANSWER}\n${TRICKY}`;
    const steps: string[] = [];
    for (let at = 11; at < text.length + 11; at += 11) steps.push(text.slice(0, Math.min(at, text.length)));
    const { state, script } = promptOnly();
    const deltas = steps.map((prefix, i) => script.emit(ROOT, null, { type: 'text_delta', turn: 1, text: prefix.slice(i === 0 ? 0 : (steps[i - 1] ?? '').length) }));
    // Per step, in the page: deliver the message, let the panel's frame run, record the rendered
    // markdown with code flattened to its text (a growing code block is re-highlighted later).
    const record = (p: Page, messages: unknown[]): Promise<string[]> =>
      p.evaluate(async (msgs) => {
        const w = globalThis as unknown as {
          dispatchEvent(e: unknown): void;
          MessageEvent: new (type: string, init: { data: unknown }) => unknown;
          requestAnimationFrame(cb: () => void): void;
          document: { querySelector(s: string): { cloneNode(deep: boolean): { querySelectorAll(s: string): Iterable<{ textContent: string }>; outerHTML: string } } | null };
        };
        const shapes: string[] = [];
        for (const data of msgs) {
          w.dispatchEvent(new w.MessageEvent('message', { data }));
          await new Promise<void>((resolve) => w.requestAnimationFrame(() => resolve()));
          const md = w.document.querySelector('.msg-assistant .md');
          if (!md) {
            shapes.push('');
            continue;
          }
          const copy = md.cloneNode(true);
          for (const code of copy.querySelectorAll('pre code')) code.textContent = `${code.textContent}`;
          shapes.push(copy.outerHTML);
        }
        return shapes;
      }, messages);
    await send(panel.page, { type: 'workspace', folders: [WORKSPACE] }, { type: 'snapshot', state, running: true });
    const streamed = await record(
      panel.page,
      deltas.map((e) => ({ type: 'events', events: [e] })),
    );
    // The heading rendered at the start is still the same element at the end.
    await send(panel.page, { type: 'events', events: [script.emit(ROOT, null, { type: 'text_delta', turn: 1, text: '\n\nOne more paragraph.' })] });
    const kept = await panel.page.evaluate(() => {
      const d = globalThis as unknown as { document: { querySelector(s: string): Record<string, unknown> | null } };
      const h2 = d.document.querySelector('.msg-assistant h2');
      if (h2) h2.marker = 1;
      return h2 !== null;
    });
    assert.ok(kept);
    await send(panel.page, { type: 'events', events: [script.emit(ROOT, null, { type: 'text_delta', turn: 1, text: ' And more.' })] });
    assert.equal(await panel.page.evaluate(() => (globalThis as unknown as { document: { querySelector(s: string): Record<string, unknown> | null } }).document.querySelector('.msg-assistant h2')?.marker), 1);
    // Cuts where the next characters change how an earlier line parses.
    const cuts = TRICKY_CUTS.map(([prefix, suffix]) => streamedCut(prefix, suffix));
    const cutShapes = await record(
      panel.page,
      cuts.flatMap(({ state: cutState, next }) => [
        { type: 'snapshot', state: cutState, running: true },
        { type: 'events', events: [next] },
      ]),
    );
    const fresh = await openPanel(panel.browser);
    try {
      await send(fresh, { type: 'workspace', folders: [WORKSPACE] });
      const expected = await record(
        fresh,
        steps.map((prefix) => ({ type: 'snapshot', state: answerState(prefix, true), running: true })),
      );
      streamed.forEach((shape, i) => assert.equal(shape, expected[i], `after ${steps[i]?.length} characters:\n${steps[i]}`));
      const expectedCuts = await record(
        fresh,
        TRICKY_CUTS.map(([prefix, suffix]) => ({ type: 'snapshot', state: answerState(prefix + suffix, true), running: true })),
      );
      TRICKY_CUTS.forEach(([prefix, suffix], i) => assert.equal(cutShapes[2 * i + 1], expectedCuts[i], `${JSON.stringify(prefix)} + ${JSON.stringify(suffix)}`));
    } finally {
      await fresh.close();
    }
  });

  it('screenshots: a message with a table, highlighted code and links, dark and light', async () => {
    const shown: Record<string, { text: string; shot: Buffer }> = {};
    for (const theme of ['dark', 'light'] as const) {
      const shot = await openPanel(panel.browser, undefined, { width: 420, height: 900 });
      try {
        await shot.evaluate((cls) => {
          (globalThis as unknown as { document: { documentElement: { className: string } } }).document.documentElement.className = cls;
        }, `vscode-${theme}`);
        await showAnswer(shot, ANSWER);
        await shot.locator('.msg-assistant span.hl-keyword').first().waitFor();
        await shot.waitForTimeout(200); // codicon font
        // What the picture must show: the table, the highlighted code, the links, in view.
        const message = shot.locator('.msg-assistant').first();
        assert.ok(await message.locator('table').first().isVisible(), `${theme}: the table`);
        assert.ok(await message.locator('pre span.hl-keyword').first().isVisible(), `${theme}: highlighted code`);
        assert.ok((await message.locator('a').count()) > 0, `${theme}: links`);
        const text = await message.evaluate((e) => (globalThis as unknown as { getComputedStyle(x: unknown): { color: string } }).getComputedStyle(e).color);
        shown[theme] = { text, shot: await shot.screenshot({ path: join(ARTIFACTS, `markdown-${theme}.png`) }) };
      } finally {
        await shot.close();
      }
    }
    const { dark, light } = shown as Record<'dark' | 'light', { text: string; shot: Buffer }>;
    assert.notEqual(dark.text, light.text, 'the theme reached the text colour');
    assert.equal(dark.shot.subarray(1, 4).toString('latin1'), 'PNG');
    assert.ok(!dark.shot.equals(light.shot), 'the two screenshots differ');
  });
});
