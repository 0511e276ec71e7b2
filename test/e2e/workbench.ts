/**
 * What a user does in the workbench, as Playwright steps: open the Delegate view from the activity
 * bar, run commands from the command palette (F1), answer input boxes, find the modal dialog and
 * notifications. Selectors are VS Code 1.139's workbench DOM.
 */
import type { Locator, Page } from 'playwright-core';
import { editorModule } from './editor';

/** Clicks the "Delegate" icon in the activity bar and waits for the panel's webview to load. */
export async function openDelegateView(page: Page): Promise<void> {
  const label = 'a.action-label[aria-label^="Delegate"]';
  const icon = page.locator(`.activitybar .action-item ${label}`);
  await icon.waitFor({ state: 'visible', timeout: 60_000 });
  // The icon toggles the side bar: click only when the Delegate container is not already showing.
  // After a window reload the activity bar can restore the container as selected while the side bar stays
  // hidden (seen: the panel never showed and the test waited 60 s), so the side bar's own visibility is checked
  // too, and the check repeats until the composer shows.
  const item = page.locator('.activitybar .action-item').filter({ has: page.locator(label) });
  const sideBar = page.locator('.part.sidebar');
  const { webviewFrame } = await editorModule();
  const composer = webviewFrame(page).locator('footer.composer');
  const deadline = Date.now() + 60_000;
  for (;;) {
    const showing = (await item.getAttribute('aria-selected')) === 'true' && (await sideBar.isVisible());
    if (!showing) await icon.click();
    try {
      await composer.waitFor({ state: 'visible', timeout: 10_000 });
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
    }
  }
}

/**
 * Runs a command from the command palette (F1) by its title ("Delegate: New Session"). The palette lists
 * what is registered when it opens: an extension registered a moment later shows "No matching commands",
 * so the palette is closed and opened again until the command shows (or `timeoutMs` passes).
 */
export async function runCommand(page: Page, title: string, timeoutMs = 30_000): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  const row = widget.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await page.keyboard.press('F1');
    const input = widget.locator('.quick-input-box input');
    await input.waitFor({ state: 'visible', timeout: 15_000 });
    await input.fill(`>${title}`);
    try {
      await row.waitFor({ state: 'visible', timeout: 5_000 });
      break;
    } catch (err) {
      await page.keyboard.press('Escape');
      if (Date.now() > deadline) throw err;
    }
  }
  await page.keyboard.press('Enter');
}

/** Waits for the input box titled `title` (showInputBox), types `text` and presses Enter. */
export async function answerInputBox(page: Page, title: string, text: string): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  await widget.locator('.quick-input-title', { hasText: title }).waitFor({ state: 'visible', timeout: 15_000 });
  const input = widget.locator('.quick-input-box input');
  await input.fill(text);
  await input.press('Enter');
  await widget.waitFor({ state: 'hidden', timeout: 15_000 });
}

/** "Delegate: Ask…" from the palette, then the prompt typed into its input box. */
export async function askFromPalette(page: Page, prompt: string): Promise<void> {
  await runCommand(page, 'Delegate: Ask…');
  await answerInputBox(page, 'Delegate: Ask', prompt);
}

/** "Delegate: Set API Key" from the palette, then the key typed into its password box. */
export async function setApiKeyFromPalette(page: Page, key: string): Promise<void> {
  await runCommand(page, 'Delegate: Set API Key');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Delegate: Set API Key' }).waitFor({ timeout: 15_000 });
  if ((await input.getAttribute('type')) !== 'password') throw new Error('the API key box does not mask what is typed');
  await answerInputBox(page, 'Delegate: Set API Key', key);
}

/** The modal dialog (showWarningMessage with modal: true) whose message contains `text`. */
export function modalDialog(page: Page, text: string): Locator {
  return page.locator('.monaco-dialog-box', { hasText: text });
}

/**
 * A notification containing `text`: its toast if one shows, else the entry in the notifications center
 * (opened through the palette; headless toasts are not reliable, see docs/real-editor.md).
 */
export async function notification(page: Page, text: string, timeoutMs = 20_000): Promise<Locator> {
  const toast = page.locator('.notifications-toasts .notification-toast', { hasText: text }).first();
  try {
    await toast.waitFor({ state: 'visible', timeout: Math.min(timeoutMs, 2_000) });
    return toast;
  } catch {
    const mod = await editorModule();
    return mod.findNotification(page, text, timeoutMs);
  }
}

/**
 * Drags the side bar's edge (its sash) until the side bar is `width` px wide, as a user resizing it does; returns
 * the width reached. The Delegate panel's webview is 3 px narrower (the part's border and padding).
 */
export async function setSideBarWidth(page: Page, width: number): Promise<number> {
  const bar = page.locator('.part.sidebar');
  const sash = page.locator('.monaco-sash.vertical.primary-sidebar-sash');
  for (let attempt = 0; attempt < 3; attempt++) {
    const now = (await bar.boundingBox())?.width ?? 0;
    if (Math.abs(now - width) <= 1) return now;
    const at = await sash.boundingBox();
    if (!at) throw new Error('the side bar has no sash (is it shown?)');
    const x = at.x + at.width / 2;
    const y = at.y + at.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + (width - now), y, { steps: 5 });
    await page.mouse.up();
    await page.waitForTimeout(300);
  }
  return (await bar.boundingBox())?.width ?? 0;
}

/** Opens a workspace file in an editor through Quick Open (Ctrl+P), as a user does, and waits for its text. */
export async function openFileInEditor(page: Page, relativePath: string): Promise<Locator> {
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible', timeout: 15_000 });
  await input.fill(relativePath);
  await page.locator('.quick-input-widget .quick-input-list .monaco-list-row').first().waitFor({ state: 'visible', timeout: 15_000 });
  await page.keyboard.press('Enter');
  const editor = page.locator('.editor-group-container .monaco-editor').first();
  await editor.locator('.view-lines').waitFor({ state: 'visible', timeout: 15_000 });
  return editor;
}
