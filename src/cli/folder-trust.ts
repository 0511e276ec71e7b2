/**
 * Whether a headless run may run the folder's own hooks and .mcp.json servers (core/session/folder-trust.ts):
 *
 *   nothing of the folder's to run ─▶ no question
 *   --trust-folder ─────────────────▶ trusted (the Action passes it for its own checkout)
 *   a remembered yes (real path) ───▶ trusted
 *   stdin and stderr a terminal ────▶ asked once (trust-prompt.ts): yes is remembered, no skips them for this run
 *   otherwise (a pipe, CI, a script) ▶ skipped; the session says so in one line, with how to trust
 */
import { homedir } from 'node:os';
import type { Writers } from './output';
import { askTrust, trustQuestion } from './trust-prompt';
import { rememberedTrust, type FolderCommand, type FolderTrust, type FolderTrustAnswer } from '../core/session/ports';

export interface FolderTrustInput {
  workdir: string;
  commands: readonly FolderCommand[];
  trustFlag: boolean;
  env: NodeJS.ProcessEnv;
  out: Writers;
  signal: AbortSignal;
  /** Whether a question can be asked: stdin and stderr are a terminal. */
  interactive: boolean;
}

/** The session's FolderTrust; undefined when the folder runs nothing of its own; 'interrupted' on Ctrl-C at the question. */
export async function cliFolderTrust(input: FolderTrustInput): Promise<FolderTrust | 'interrupted' | undefined> {
  if (input.commands.length === 0) return undefined;
  const answered = (answer: FolderTrustAnswer): FolderTrust => ({ answer: async () => answer });
  if (input.trustFlag) return answered({ trusted: true });
  const remembered = await rememberedTrust(input.workdir, input.env, homedir());
  const { file: store, folder } = remembered;
  if (await remembered.trusted()) return answered({ trusted: true });
  if (!input.interactive) {
    return answered({ trusted: false, howToTrust: `run with --trust-folder to trust ${folder} (or answer yes when delegate asks in a terminal)` });
  }
  const reply = await askTrust(trustQuestion(folder, input.commands, store), input.signal);
  if (reply === 'interrupted') return 'interrupted';
  if (reply === 'no') return answered({ trusted: false, howToTrust: 'you answered no (answer yes next time, or run with --trust-folder)' });
  try {
    await remembered.remember();
  } catch (err) {
    input.out.stderr(`delegate: could not remember the trust in ${store} (${err instanceof Error ? err.message : String(err)}): trusted for this run only\n`);
  }
  return answered({ trusted: true });
}
