/**
 * VS Code's Chat view (the secondary side bar) as a user drives it: open it, type into its input, wait
 * for a response, unfold a finished response's steps. Selectors are VS Code 1.139's chat DOM: a finished
 * response folds everything before its last markdown into `details.completed-response-disclosure`
 * ("Completed N steps in Ns").
 */
import type { Locator, Page } from 'playwright-core';
import { runCommand } from './workbench';

const CHAT = '.part.auxiliarybar';

export async function openChat(page: Page): Promise<void> {
  await runCommand(page, 'Chat: Open Chat');
  await page.locator(`${CHAT} .interactive-input-editor`).first().waitFor({ state: 'visible', timeout: 30_000 });
}

/**
 * Replaces what the input holds with `text` and sends it (Escape first: a completion list must not take the
 * Enter); resolves when the request shows in the list. The list is virtual: rows out of view are not in the
 * DOM, so responses are found by what they say, not counted.
 */
export async function sendChat(page: Page, text: string): Promise<void> {
  await page.locator(`${CHAT} .interactive-input-editor`).first().click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(text, { delay: 5 });
  await page.waitForTimeout(300);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Enter');
  const shown = text.replace(/^@delegate\s*/, '');
  await page.locator(`${CHAT} .interactive-item-container.interactive-request`, { hasText: shown }).last().waitFor({ state: 'visible', timeout: 30_000 });
}

/** The newest response (while it is being written, too). */
export function lastResponse(page: Page): Locator {
  return page.locator(`${CHAT} .interactive-item-container.interactive-response.chat-most-recent-response`);
}

/** Waits until the newest response says `text` and is finished (its footer shows when it completed). */
export async function waitForResponse(page: Page, text: string, timeoutMs = 60_000): Promise<Locator> {
  const response = lastResponse(page).filter({ hasText: text });
  await response.locator('time.chat-response-completed-at').waitFor({ state: 'attached', timeout: timeoutMs });
  return response;
}

/** Unfolds a finished response's steps ("Completed N steps"), if the editor folded them. */
export async function unfoldSteps(response: Locator): Promise<void> {
  const summary = response.locator('summary.completed-response-summary');
  if ((await summary.count()) === 0) return;
  if ((await summary.getAttribute('aria-expanded')) !== 'true') await summary.click();
  // The unfolded steps render a moment after the click: read the text only once they are there.
  await response.locator('summary.completed-response-summary[aria-expanded="true"]').waitFor({ state: 'attached', timeout: 10_000 });
}
