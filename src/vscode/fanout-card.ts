/**
 * The fan-out card in the editor: one modal before a reply's subagents start (the session decides when:
 * core/session/fanout-review.ts), with Run, Run with these caps (when a forecast exists) and Cancel; Escape
 * cancels. The prompt is injectable so extension tests can answer it without the UI.
 */
import * as vscode from 'vscode';
import type { FanoutCard, FanoutChoice, FanoutPrompt, FanoutRule } from '../core/session';
import { FANOUT_RULES } from '../core/session';
import { CANCEL, fanoutText, RUN, RUN_CAPPED } from './fanout-text';

export type FanoutCardPrompt = (card: FanoutCard, signal: AbortSignal) => Promise<FanoutChoice>;

export const modalFanoutPrompt: FanoutCardPrompt = async (card) => {
  const { message, detail, capped } = fanoutText(card);
  const pick = await vscode.window.showInformationMessage(message, { modal: true, detail }, { title: RUN }, ...(capped ? [{ title: RUN_CAPPED }] : []), { title: CANCEL, isCloseAffordance: true });
  return pick?.title === RUN ? 'run' : pick?.title === RUN_CAPPED ? 'run_capped' : 'cancel';
};

export class EditorFanout implements FanoutPrompt {
  constructor(public prompt: FanoutCardPrompt = modalFanoutPrompt) {}

  confirm(card: FanoutCard, signal: AbortSignal): Promise<FanoutChoice> {
    return this.prompt(card, signal);
  }
}

/** `delegate.confirmFanout`, read at each fan-out (a mistyped value means the default). */
export function fanoutRule(): FanoutRule {
  const v = vscode.workspace.getConfiguration('delegate').get<string>('confirmFanout', 'auto');
  return (FANOUT_RULES as readonly string[]).includes(v) ? (v as FanoutRule) : 'auto';
}

/** `delegate.confirmAboveUsd`: 0 or less is off. */
export function confirmAboveUsd(): number | undefined {
  const v = vscode.workspace.getConfiguration('delegate').get<number>('confirmAboveUsd', 0);
  return typeof v === 'number' && v > 0 ? v : undefined;
}
