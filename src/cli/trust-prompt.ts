/**
 * The terminal's trust question (Claude Code's "Do you trust the files in this folder?"), on stderr so that stdout
 * stays the run's output, read as one line from stdin. Only asked when both are a terminal (cli/folder-trust.ts).
 * The folder's commands are shown as they would run, with control characters made visible: a hostile
 * `.claude/settings.json` could otherwise hide its real command behind a carriage return or an escape sequence.
 */
import { askLine } from './terminal-question';
import type { FolderCommand } from '../core/session/ports';

export type TrustReply = 'yes' | 'no' | 'interrupted';

const SHOWN = 20;
const MAX_COMMAND = 200;

/** Control, zero-width and bidirectional characters as `\u{…}`; cut to a line's worth. */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  const shown = text.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g, (c) => `\\u{${c.codePointAt(0)?.toString(16)}}`);
  return shown.length > MAX_COMMAND ? `${shown.slice(0, MAX_COMMAND - 1)}…` : shown;
}

export function trustQuestion(folder: string, commands: readonly FolderCommand[], storeFile: string): string {
  const lines = commands.slice(0, SHOWN).map((c) => `  ${printable(c.file)}: ${printable(c.what)}: ${printable(c.command)}`);
  if (commands.length > SHOWN) lines.push(`  … and ${commands.length - SHOWN} more`);
  return [
    'delegate: Do you trust the files in this folder?',
    `  ${printable(folder)}`,
    'Its own settings run these commands on this machine, outside the sandbox:',
    ...lines,
    'Trust it only if you know its files (your own code, a project you trust). A yes is remembered for this folder',
    `(in ${storeFile}); a no skips them for this run. --trust-folder trusts it without asking.`,
    'Trust this folder? [y/N] ',
  ].join('\n');
}

/** Asks on stderr, reads one line from stdin: y or yes is a yes; anything else, or the end of input, a no. */
export async function askTrust(question: string, signal: AbortSignal): Promise<TrustReply> {
  const line = await askLine(question, signal);
  if (signal.aborted) return 'interrupted';
  return line !== undefined && /^\s*y(es)?\s*$/i.test(line) ? 'yes' : 'no';
}
