/**
 * The line under the prompt box: why a Send did not start (no key, no model) or why the run failed at once (the API
 * refused the key), with the buttons that fix it; then "Key saved" with a button that sends the draft the box kept.
 * A problem is role=alert (read out at once), the confirmation role=status. It goes when a run starts, when the
 * problem is fixed; "Key saved" also on Dismiss. Styles: setup-card.ts.
 *
 *   [⊗ No API key or editor model.    ] [Set API Key]       (the whole sentence as its tooltip)
 *   [✓ Key saved.                                 ] [Send draft] [×]
 */
import { problemBrief, problemSentence, setupButtons, type SetupAction, type SetupProblem } from '../src/view-model/setup-problem';
import { codicon, el, setHidden } from './dom';

export interface NoticeCallbacks {
  act(action: SetupAction): void;
  sendDraft(): void;
  /** The line was dismissed, or went while it had the focus: focus goes back to the prompt box (never the page body). */
  dismissed(): void;
}

export class ComposerNotice {
  readonly element: HTMLElement;
  private readonly message: HTMLElement;
  private readonly buttons: HTMLElement;
  private readonly sendDraft: HTMLButtonElement;
  /** What shows: a problem's kind, 'saved', or nothing. */
  private showing: SetupProblem['kind'] | 'saved' | undefined;

  constructor(private readonly callbacks: NoticeCallbacks) {
    this.element = el('div', 'composer-notice');
    this.element.hidden = true;
    this.message = el('div', 'composer-notice-text');
    this.buttons = el('div', 'composer-notice-buttons');
    this.sendDraft = this.button('Send draft', false, () => this.callbacks.sendDraft());
    this.sendDraft.classList.add('send-draft');
    this.element.append(this.message, this.buttons);
  }

  /** Why no prompt could run, and what fixes it. */
  showProblem(problem: SetupProblem): void {
    const focused = this.hasFocus();
    this.showing = problem.kind;
    this.show('error', 'alert', problemBrief(problem), 'error');
    this.message.title = problemSentence(problem);
    // No Dismiss: the line goes once the problem is fixed or a run starts, and it leaves room for the words.
    const buttons = setupButtons(problem).map((b, i) => this.button(b.label, i === 0, () => this.callbacks.act(b.action), b.action));
    this.buttons.replaceChildren(...buttons);
    if (focused) buttons[0]?.focus();
  }

  /** The key was stored; with a draft in the box, a button sends it. */
  showSaved(hasDraft: boolean): void {
    const focused = this.hasFocus();
    this.showing = 'saved';
    this.show('saved', 'status', 'Key saved.', 'pass');
    this.message.title = '';
    setHidden(this.sendDraft, !hasDraft);
    this.buttons.replaceChildren(this.sendDraft, this.closeButton());
    // The user was on this line's Set API Key: the next step is where the focus goes (never the page body).
    if (focused) {
      if (hasDraft) this.sendDraft.focus();
      else this.callbacks.dismissed();
    }
  }

  /** The box's text changed: Send draft shows only while there is one. */
  draftChanged(hasDraft: boolean): void {
    if (this.showing === 'saved') setHidden(this.sendDraft, !hasDraft);
  }

  /** A prompt can run now: a line about a missing key or model is out of date (a refused key's or "Key saved" stays). */
  setupResolved(): void {
    if (this.showing === 'credentials' || this.showing === 'key' || this.showing === 'model') this.clear();
  }

  clear(): void {
    if (this.hasFocus()) this.callbacks.dismissed();
    this.showing = undefined;
    setHidden(this.element, true);
    this.message.replaceChildren();
    this.buttons.replaceChildren();
  }

  private hasFocus(): boolean {
    return this.element.contains(document.activeElement);
  }

  /** A fresh text element each time: a screen reader reads an alert when it is inserted, even with the same words. */
  private show(kind: 'error' | 'saved', role: 'alert' | 'status', text: string, icon: string): void {
    this.element.className = `composer-notice is-${kind}`;
    const line = el('span', 'composer-notice-words', text);
    line.setAttribute('role', role);
    this.message.replaceChildren(codicon(icon), line);
    setHidden(this.element, false);
  }

  private button(label: string, primary: boolean, run: () => void, action?: SetupAction): HTMLButtonElement {
    const b = el('button', primary ? 'composer-notice-button is-primary' : 'composer-notice-button', label);
    b.type = 'button';
    if (action) b.dataset.action = action;
    b.addEventListener('click', run);
    return b;
  }

  private closeButton(): HTMLButtonElement {
    const b = el('button', 'composer-notice-close');
    b.type = 'button';
    b.title = 'Dismiss';
    b.setAttribute('aria-label', 'Dismiss this message');
    b.append(codicon('close'));
    b.addEventListener('click', () => {
      this.clear();
      // A mouse click may leave the focus where it was: the box either way.
      this.callbacks.dismissed();
    });
    return b;
  }
}
