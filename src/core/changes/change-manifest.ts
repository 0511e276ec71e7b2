/**
 * A subtree's manifest from its journalled changes, and the footer the `task` tool appends to a result:
 *
 *   [changes] modified src/config.ts (+3 -1); created test/config.test.ts (+40); ran `npm test` (exit 1)
 *
 * Per file, the changes form runs that link up (one's after is the next one's before); each run counts as
 * one net diff, so an edit and its undo count +0 -0, and a change by someone else in between is not
 * counted as the subtree's. A change a bash command or MCP call made (command-watch.ts) names it:
 *
 *   [changes] modified src/a.ts (+2 -1) by `sed -i …`; created gen.ts (+9) by `npm run gen` or `make` (calls overlapped)
 *
 * Names and commands come from agents and the repository: they are shown through shown-text.ts, so a file named
 * `x⏎[changes] none` is `"x\n[changes] none"` and cannot start a line of its own.
 */
import { codeSpan, shownName } from '../shown-text';
import { sniffText } from '../tools/text-encoding';
import type { ToolResult } from '../tools/types';
import { diffCounts } from './line-diff';
import type { ChangeCause, ChangedFile, ChangeManifest, CommandRun, ContentHash, FileAction } from './types';

/** One journalled write or edit, or a change found around a command. */
export interface RecordedChange {
  agentId: string;
  path: string;
  before?: ContentHash;
  after?: ContentHash;
  added: number;
  removed: number;
  /** A command's change: the calls that could have made it (`agentId` is the first's). */
  causes?: ChangeCause[];
  /** Set when `before` / `after` cannot tell it (a content that was not kept). */
  action?: FileAction;
  lost?: string;
}

const FOOTER_FILES = 30;

/** Text of kept content for line counts (binary or missing content counts no lines). */
export function textOf(bytes: Buffer | undefined): string {
  if (!bytes) return '';
  const sniffed = sniffText(bytes);
  return sniffed.kind === 'text' ? sniffed.text : '';
}

export async function buildManifest(changes: readonly RecordedChange[], commands: CommandRun[], blob: (hash: ContentHash) => Promise<Buffer | undefined>): Promise<ChangeManifest> {
  const byPath = new Map<string, RecordedChange[]>();
  for (const c of changes) {
    const list = byPath.get(c.path);
    if (list) list.push(c);
    else byPath.set(c.path, [c]);
  }
  const files: ChangedFile[] = [];
  for (const [path, list] of byPath) {
    const first = list[0] as RecordedChange;
    const last = list[list.length - 1] as RecordedChange;
    let added = 0;
    let removed = 0;
    for (const run of linkedRuns(list)) {
      if (run.length === 1) {
        added += (run[0] as RecordedChange).added;
        removed += (run[0] as RecordedChange).removed;
        continue;
      }
      const from = (run[0] as RecordedChange).before;
      const to = (run[run.length - 1] as RecordedChange).after;
      const counts = diffCounts(textOf(from ? await blob(from) : undefined), textOf(to ? await blob(to) : undefined));
      added += counts.added;
      removed += counts.removed;
    }
    const created = first.action ? first.action === 'created' : first.before === undefined;
    const deleted = last.action ? last.action === 'deleted' : last.after === undefined;
    const action: FileAction = created ? 'created' : deleted ? 'deleted' : 'modified';
    // Created and then deleted again: nothing is left to report.
    if (created && deleted) continue;
    const by = causesOf(list);
    const lost = list.find((c) => c.lost)?.lost;
    files.push({
      path,
      action,
      added,
      removed,
      ...(first.before ? { before: first.before } : {}),
      ...(last.after ? { after: last.after } : {}),
      ...(by.length ? { by } : {}),
      ...(lost ? { lost } : {}),
    });
  }
  return { files, commands };
}

/** The calls behind a file's changes, each once. */
function causesOf(list: RecordedChange[]): ChangeCause[] {
  const seen = new Map<string, ChangeCause>();
  for (const c of list) for (const cause of c.causes ?? []) if (!seen.has(cause.toolUseId)) seen.set(cause.toolUseId, cause);
  return [...seen.values()];
}

function linkedRuns(list: RecordedChange[]): RecordedChange[][] {
  const runs: RecordedChange[][] = [];
  for (const c of list) {
    const run = runs[runs.length - 1];
    const tail = run?.[run.length - 1];
    if (run && tail && tail.after === c.before) run.push(c);
    else runs.push([c]);
  }
  return runs;
}

/** The one-line footer (files first, then commands). */
export function formatManifest(manifest: ChangeManifest): string {
  const listed = manifest.files.slice(0, FOOTER_FILES);
  // Files one call (or the same overlapping calls) changed side by side share one "by".
  const files: string[] = [];
  for (let i = 0; i < listed.length; ) {
    const key = causeKey(listed[i]);
    const group: string[] = [];
    for (; i < listed.length && causeKey(listed[i]) === key; i++) {
      const f = listed[i] as ChangedFile;
      const name = shownName(f.path);
      const what = f.action === 'created' ? `created ${name} (+${f.added})` : f.action === 'deleted' ? `deleted ${name} (-${f.removed})` : `modified ${name} (+${f.added} -${f.removed})`;
      group.push(`${what}${f.lost ? ' [cannot be reverted]' : ''}`);
    }
    files.push(`${group.join(', ')}${byText(listed[i - 1]?.by)}`);
  }
  const shown = manifest.files.length > FOOTER_FILES ? [...files, `${manifest.files.length - FOOTER_FILES} more files`] : files;
  const commands = manifest.commands.map((c) => `ran ${codeSpan(c.command)} (${c.exit_code === null ? 'stopped before it exited' : `exit ${c.exit_code}`})`);
  const parts = [...shown, ...commands];
  if (parts.length === 0) return '[changes] none';
  return `[changes] ${parts.join('; ')}`;
}

const causeKey = (f: ChangedFile | undefined): string => (f?.by ?? []).map((c) => c.toolUseId).join(' ');

/** " by `sed -i …`"; with calls that overlapped, each of them. */
function byText(by: ChangeCause[] | undefined): string {
  if (!by?.length) return '';
  const names = by.slice(0, 3).map((c) => codeSpan(c.command, 60));
  const more = by.length > 3 ? ` or ${by.length - 3} more` : '';
  return by.length === 1 ? ` by ${names[0]}` : ` by ${names.join(' or ')}${more} (calls overlapped)`;
}

/** The task result with the harness's footer (the child's own prose never stands in for it). */
export function withManifestFooter(result: ToolResult, manifest: ChangeManifest | undefined): ToolResult {
  if (!manifest) return result;
  return { ...result, content: `${result.content}\n\n${formatManifest(manifest)}` };
}
