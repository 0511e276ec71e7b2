/**
 * The prompt box at the bottom: a vscode-textarea (Enter sends, Shift+Enter inserts a
 * newline, IME composition is respected), Send and "Stop all" buttons, and the session totals line.
 * "Stop all" (the run: every agent) has its own glyph, apart from a task row's "Stop this subagent"; it
 * shows only while something runs, after Send in the Tab order (Tab from the text box reaches Send, not it).
 * Under the box, one line (composer-notice.ts) says why a Send did not start; while the host says no prompt can run
 * (no key, no model), Send keeps the draft in the box, and once a key is saved the line offers to send it.
 */
import type { VscodeButton } from '@vscode-elements/elements/dist/vscode-button/vscode-button.js';
import type { VscodeTextarea } from '@vscode-elements/elements/dist/vscode-textarea/vscode-textarea.js';
import type { PromptHandoff } from '../src/protocol';
import type { SetupAction, SetupProblem } from '../src/view-model/setup-problem';
import { ComposerNotice } from './composer-notice';
import { HandoffChip } from './handoff-chip';
import { el } from './dom';
import { TotalsFit, type TotalsLine } from './totals-line';

export interface ComposerCallbacks {
  /** `handoff`: a handoff button filled the box and its line still names the agent. */
  send(text: string, handoff?: PromptHandoff): void;
  stop(): void;
  draftChanged(text: string): void;
  /** The agent the draft goes to changed (a handoff filled the box, × or Send cleared it): kept across reloads. */
  handoffChanged(handoff: PromptHandoff | undefined): void;
  /** A button of the line under the box (Set API Key, Use an editor model…). */
  setupAction(action: SetupAction): void;
}

export class Composer {
  readonly element: HTMLElement;
  private readonly input: VscodeTextarea;
  private readonly sendButton: VscodeButton;
  private readonly stopButton: VscodeButton;
  private readonly totals: HTMLElement;
  private readonly fit: TotalsFit;
  private readonly notice: ComposerNotice;
  private readonly chip: HandoffChip;
  /** No prompt can run now (the host's `setup`): Send keeps the draft. */
  private setupNeeded = false;
  /** The draft a Send kept: cleared after all if the host started the run (it had a key the panel did not know of). */
  private kept: string | undefined;

  constructor(draft: string, private readonly callbacks: ComposerCallbacks, handoff?: PromptHandoff) {
    this.element = el('footer', 'composer');
    this.input = document.createElement('vscode-textarea');
    this.input.className = 'prompt-input';
    this.input.rows = 3;
    this.input.resize = 'vertical';
    this.input.placeholder = 'Ask Delegate…  (Enter to send, Shift+Enter for a new line)';
    this.input.value = draft;
    this.input.addEventListener('keydown', (ev) => this.onKeyDown(ev));
    this.input.addEventListener('input', () => {
      // A box the user emptied holds a new prompt: it no longer goes to the handoff's agent.
      if (this.input.value.trim() === '') this.setHandoff(undefined);
      this.changed();
    });

    this.sendButton = document.createElement('vscode-button');
    this.sendButton.className = 'send-button';
    this.sendButton.icon = 'send';
    this.sendButton.textContent = 'Send';
    this.sendButton.addEventListener('click', () => this.submit());

    this.stopButton = document.createElement('vscode-button');
    this.stopButton.className = 'stop-button';
    this.stopButton.secondary = true;
    this.stopButton.icon = 'stop-circle';
    this.stopButton.textContent = 'Stop all';
    this.stopButton.title = 'Stop the run: the main agent and every subagent';
    // Disabled as well as hidden while idle: the attribute is what the editor tests wait on.
    this.stopButton.disabled = true;
    this.stopButton.hidden = true;
    this.stopButton.addEventListener('click', () => {
      if (!this.stopButton.disabled) this.callbacks.stop();
    });

    this.notice = new ComposerNotice({
      act: (action) => this.callbacks.setupAction(action),
      sendDraft: () => {
        this.input.focus();
        this.submit();
      },
      dismissed: () => this.input.focus(),
    });

    this.chip = new HandoffChip(() => {
      this.callbacks.handoffChanged(undefined);
      this.input.focus();
    });
    this.chip.set(handoff);

    this.totals = el('span', 'totals');
    const bar = el('div', 'composer-bar');
    const buttons = el('div', 'composer-buttons');
    buttons.append(this.sendButton, this.stopButton);
    bar.append(this.totals, buttons);
    this.element.append(this.chip.element, this.input, this.notice.element, bar);
    this.fit = new TotalsFit(this.totals, bar);
  }

  focus(): void {
    this.input.focus();
  }

  setRunning(running: boolean): void {
    if (this.stopButton.disabled === !running) return;
    this.stopButton.disabled = !running;
    this.stopButton.hidden = !running;
    this.element.classList.toggle('is-running', running);
  }

  /** A run started: what the line said is done with, and a kept draft that ran after all leaves the box. */
  runStarted(): void {
    this.notice.clear();
    if (this.kept !== undefined && this.input.value === this.kept) this.setDraft('');
    this.kept = undefined;
  }

  /** Whether a prompt can run now (the host's `setup`). */
  setSetupNeeded(needed: boolean): void {
    this.setupNeeded = needed;
    if (!needed) this.notice.setupResolved();
  }

  /** A prompt did not start, or its key was refused: say why under the box; a prompt that did not start is the draft again. */
  cannotRun(problem: SetupProblem, prompt?: string): void {
    this.kept = undefined;
    if (prompt !== undefined && this.input.value.trim() === '') this.setDraft(prompt);
    this.notice.showProblem(problem);
  }

  /** A handoff button: its prompt in the box (over the draft) and its agent named above it; focus in the box. */
  fillHandoff(text: string, handoff: PromptHandoff): void {
    this.setDraft(text);
    this.setHandoff(handoff);
    this.input.focus();
  }

  /** A key was stored: confirm, and offer to send the draft. */
  keySaved(): void {
    this.notice.showSaved(this.input.value.trim() !== '');
  }

  setTotals(line: TotalsLine, tooltip = ''): void {
    this.fit.set(line);
    if (this.totals.title !== tooltip) this.totals.title = tooltip;
  }

  private onKeyDown(ev: KeyboardEvent): void {
    if (ev.key !== 'Enter' || ev.shiftKey || ev.isComposing || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    ev.preventDefault();
    this.submit();
  }

  private submit(): void {
    const text = this.input.value;
    if (text.trim() === '') return;
    this.callbacks.send(text, this.chip.handoff);
    // Nothing to run on yet: the host says why under the box, and the draft stays for after the key is set.
    if (this.setupNeeded) {
      this.kept = text;
      return;
    }
    this.setHandoff(undefined);
    this.setDraft('');
  }

  private setDraft(text: string): void {
    this.input.value = text;
    this.changed();
  }

  private setHandoff(handoff: PromptHandoff | undefined): void {
    if (this.chip.handoff === handoff) return;
    this.chip.set(handoff);
    this.callbacks.handoffChanged(handoff);
  }

  private changed(): void {
    this.callbacks.draftChanged(this.input.value);
    this.notice.draftChanged(this.input.value.trim() !== '');
  }
}
