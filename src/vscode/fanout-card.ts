/**
 * The fan-out card in the editor, before a reply's subagents start (the session decides when:
 * core/delegation/fanout-review.ts). While the panel shows, an inline card in its inbox (panel-inbox.ts) — the tasks
 * already pending in the tree below it, "Don't ask again in this workspace" beside the answers. While it is hidden, a
 * modal with the same words (fanout-text.ts): the prompt may have come from the Chat view or the palette, and
 * revealing the side bar unasked would move the user's layout and focus; a modal is the editor's own way to say
 * "decide before this goes on". Escape cancels. The modal prompt is injectable so extension tests answer it without UI.
 *
 * "Don't ask again" sets delegate.confirmFanout to never in the workspace's settings (the user's, without a folder):
 * the card's forecast and the fan-outs are this workspace's. A notification says so, with Undo (the value before)
 * and Open Setting.
 */
import * as vscode from 'vscode';
import type { FanoutCard, FanoutChoice, FanoutPrompt } from '../core/session/ports';
import type { PanelPrompts } from './panel-inbox';
import { CANCEL, fanoutText, RUN, RUN_CAPPED } from './fanout-text';

export type FanoutCardPrompt = (card: FanoutCard, signal: AbortSignal) => Promise<FanoutChoice>;

export const modalFanoutPrompt: FanoutCardPrompt = async (card) => {
  const { message, detail, capped } = fanoutText(card);
  const pick = await vscode.window.showInformationMessage(message, { modal: true, detail }, { title: RUN }, ...(capped ? [{ title: RUN_CAPPED }] : []), { title: CANCEL, isCloseAffordance: true });
  return pick?.title === RUN ? 'run' : pick?.title === RUN_CAPPED ? 'run_capped' : 'cancel';
};

export class EditorFanout implements FanoutPrompt {
  constructor(
    public prompt: FanoutCardPrompt = modalFanoutPrompt,
    private readonly panel?: PanelPrompts,
    /** "Don't ask again" was checked with Run (tests replace it). */
    public dontAskAgain: () => Promise<void> = neverAskInThisWorkspace,
  ) {}

  async confirm(card: FanoutCard, signal: AbortSignal): Promise<FanoutChoice> {
    if (!this.panel?.available) return this.prompt(card, signal);
    const { choice, dontAsk } = await this.panel.askFanout(card, signal);
    // The children start at once; the setting is written meanwhile (a failure is said, never blocks the run).
    if (dontAsk) void this.dontAskAgain().catch((err: unknown) => void vscode.window.showWarningMessage(`Delegate: could not set delegate.confirmFanout: ${err instanceof Error ? err.message : String(err)}`));
    return choice;
  }
}

async function neverAskInThisWorkspace(): Promise<void> {
  const config = vscode.workspace.getConfiguration('delegate');
  const inWorkspace = (vscode.workspace.workspaceFolders?.length ?? 0) > 0;
  const target = inWorkspace ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  const inspected = config.inspect<string>('confirmFanout');
  const before = inWorkspace ? inspected?.workspaceValue : inspected?.globalValue;
  await config.update('confirmFanout', 'never', target);
  const where = inWorkspace ? 'in this workspace (its settings: delegate.confirmFanout is never)' : '(your user settings: delegate.confirmFanout is never)';
  const pick = await vscode.window.showInformationMessage(`Delegate: subagents now start without the fan-out card ${where}.`, 'Undo', 'Open Setting');
  if (pick === 'Undo') await vscode.workspace.getConfiguration('delegate').update('confirmFanout', before, target);
  else if (pick === 'Open Setting') await vscode.commands.executeCommand(inWorkspace ? 'workbench.action.openWorkspaceSettings' : 'workbench.action.openSettings', 'delegate.confirmFanout');
}
