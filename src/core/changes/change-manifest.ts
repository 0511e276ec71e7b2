/**
 * A subtree's manifest from its journalled changes, and the footer the `task` tool appends to a result:
 *
 *   [changes] modified src/config.ts (+3 -1); created test/config.test.ts (+40); ran `npm test` (exit 1)
 *
 * Per file, the changes form runs that link up (one's after is the next one's before); each run counts as
 * one net diff, so an edit and its undo count +0 -0, and a change by someone else in between is not
 * counted as the subtree's. Files changed by commands are not known one by one: the footer says so.
 */
import { sniffText } from '../tools/text-encoding';
import type { ToolResult } from '../tools/types';
import { diffCounts } from './line-diff';
import type { ChangedFile, ChangeManifest, CommandRun, ContentHash, FileAction } from './types';

/** One journalled write or edit. */
export interface RecordedChange {
  agentId: string;
  path: string;
  before?: ContentHash;
  after?: ContentHash;
  added: number;
  removed: number;
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
    const action: FileAction = first.before === undefined ? 'created' : last.after === undefined ? 'deleted' : 'modified';
    // Created and then deleted again: nothing is left to report.
    if (first.before === undefined && last.after === undefined) continue;
    files.push({ path, action, added, removed, ...(first.before ? { before: first.before } : {}), ...(last.after ? { after: last.after } : {}) });
  }
  return { files, commands };
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
  const files = manifest.files.map((f) => {
    if (f.action === 'created') return `created ${f.path} (+${f.added})`;
    if (f.action === 'deleted') return `deleted ${f.path} (-${f.removed})`;
    return `modified ${f.path} (+${f.added} -${f.removed})`;
  });
  const shown = files.length > FOOTER_FILES ? [...files.slice(0, FOOTER_FILES), `${files.length - FOOTER_FILES} more files`] : files;
  const commands = manifest.commands.map((c) => `ran \`${oneLine(c.command)}\` (${c.exit_code === null ? 'stopped before it exited' : `exit ${c.exit_code}`})`);
  const parts = [...shown, ...commands];
  if (parts.length === 0) return '[changes] none';
  const note = commands.length ? ' [files changed by commands are not listed]' : '';
  return `[changes] ${parts.join('; ')}${note}`;
}

/** The task result with the harness's footer (the child's own prose never stands in for it). */
export function withManifestFooter(result: ToolResult, manifest: ChangeManifest | undefined): ToolResult {
  if (!manifest) return result;
  return { ...result, content: `${result.content}\n\n${formatManifest(manifest)}` };
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
