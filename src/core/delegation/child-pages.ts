/**
 * read_subagent's pages: a bounded view of one child's record, so the parent can check what it did instead of
 * trusting its one-message report:
 *
 *   calls       its tool calls' records (tool_call patches) ─▶ "#3 bash `npm test` → error: …" (name, summary, status, excerpt)
 *   files       its last change_manifest (the live manifest while it runs) ─▶ created / modified / deleted, diffs on request
 *   transcript  its message events (outputs referred to put back) ─▶ each message, blocks cut to an excerpt
 *   output      a typed return's value (its last agent_finished's `output`) ─▶ one ```json block, strings guarded
 *
 * Every page says what it holds of how many, and "N more; offset=…" when there is more. A result that names a
 * file of the workspace (a deliverable: "see report.md") gets it listed with its size in the header.
 */
import { stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { patchToolCall, type DelegateEvent, type ToolCallRecord } from '../events';
import type { ContentBlockParam, MessageParam } from '../llm/types';
import type { PageRequest } from './child-port';
import type { ToolResult } from '../tools/types';
import type { BlobStore } from '../changes/blob-store';
import { textOf } from '../changes/change-manifest';
import { unifiedDiff } from '../changes/line-diff';
import type { ChangedFile, ChangeManifest, CommandRun } from '../changes/types';
import type { ChildRecord } from './child-records';
import { codeSpan, escapeInvisible, quotedText, shownName } from '../shown-text';
import { guardOutput, joinTypedReport } from '../report/typed-output';

export interface PageContext {
  workdir: string;
  blobs?: BlobStore;
  /** The manifest so far, for a child that is still running (none recorded yet). */
  live?: (() => Promise<ChangeManifest> | undefined) | undefined;
}

const OUTPUT_EXCERPT = 300;
const TEXT_EXCERPT = 1500;
const DIFF_LINES = 80;
const DELIVERABLES = 5;

export async function childPage(r: ChildRecord, events: readonly DelegateEvent[], req: PageRequest, ctx: PageContext): Promise<ToolResult> {
  const items =
    req.what === 'calls' ? callItems(events) : req.what === 'files' ? await fileItems(events, req.diff, ctx) : req.what === 'output' ? outputItems(events) : transcriptItems(events);
  const header = [`Subagent ${r.id}${r.name ? ` "${r.name}"` : ''} (${quotedText(r.description)}): ${r.status}${r.segments > 1 ? `, ${r.segments} segments` : ''}.`];
  const deliverables = await namedFiles(r.result, ctx.workdir);
  if (deliverables.length) header.push(`Files its result names: ${deliverables.join(', ')}.`);
  const total = items.length;
  const what = req.what === 'calls' ? 'tool calls' : req.what === 'files' ? 'files changed' : req.what === 'output' ? 'typed output' : 'messages';
  if (total === 0) return { content: [...header, `No ${what} recorded.`].join('\n') };
  if (req.offset >= total) return { content: [...header, `offset ${req.offset} is past the end: ${total} ${what} (offset 0–${total - 1}).`].join('\n') };
  const end = Math.min(total, req.offset + req.limit);
  const lines = [...header, `${what} ${req.offset + 1}–${end} of ${total}:`, ...items.slice(req.offset, end)];
  if (end < total) lines.push(`${total - end} more; offset=${end}`);
  return { content: lines.join('\n') };
}

/** One line of at most `max` characters; control and format characters escaped (NEL, bidi, zero-width). */
function excerpt(text: string, max: number): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return escapeInvisible(one.length > max ? `${one.slice(0, max - 1)}… (${one.length} chars)` : one);
}

/** The value of a typed return (the last segment that gave one), as JSON its parent can read. */
function outputItems(events: readonly DelegateEvent[]): string[] {
  const last = events.filter((e): e is Extract<DelegateEvent, { type: 'agent_finished' }> => e.type === 'agent_finished' && e.output !== undefined).at(-1);
  return last ? [joinTypedReport('', guardOutput(last.output).value)] : [];
}

function callItems(events: readonly DelegateEvent[]): string[] {
  // One record a call, in the order the calls were made (its first patch).
  const records = new Map<string, ToolCallRecord>();
  for (const e of events) if (e.type === 'tool_call') records.set(e.id, patchToolCall(records.get(e.id), e.agentId, e));
  return [...records.values()].map((r, n) => {
    const status = r.state === 'completed' ? 'ok' : r.state === 'error' ? 'error' : 'no result';
    return `#${n} ${r.name} ${r.summary ? codeSpan(r.summary, 200) : ''} → ${status}${r.output ? `: ${excerpt(r.output, OUTPUT_EXCERPT)}` : ''}`;
  });
}

async function fileItems(events: readonly DelegateEvent[], diff: boolean, ctx: PageContext): Promise<string[]> {
  const manifest = recordedManifest(events) ?? (await ctx.live?.());
  if (!manifest) return [];
  const items: string[] = [];
  for (const f of manifest.files) {
    const counts = f.action === 'created' ? `+${f.added}` : f.action === 'deleted' ? `-${f.removed}` : `+${f.added} -${f.removed}`;
    const by = f.by?.length ? ` by ${f.by.map((c) => codeSpan(c.command, 120)).join(' or ')}${f.by.length > 1 ? ' (calls overlapped)' : ''}` : '';
    let item = `${f.action} ${shownName(f.path)} (${counts})${by}${f.lost ? ' [cannot be reverted]' : ''}`;
    if (diff && ctx.blobs) {
      const before = f.before ? textOf(await ctx.blobs.get(f.before)) : '';
      const after = f.after ? textOf(await ctx.blobs.get(f.after)) : '';
      const text = unifiedDiff(before, after, { from: f.before ? shownName(`a/${f.path}`) : '/dev/null', to: f.after ? shownName(`b/${f.path}`) : '/dev/null' }, DIFF_LINES);
      item += text ? `\n${text}` : '\n(no line changes)';
    }
    items.push(item);
  }
  for (const c of manifest.commands) items.push(`ran ${codeSpan(c.command, 200)} (${c.exit_code === null ? 'stopped before it exited' : `exit ${c.exit_code}`})`);
  return items;
}

/**
 * Its manifests as one: within a process each is cumulative (the last wins per file); a session resumed in another
 * process starts a new tracker, so files of earlier processes are kept, and every command is listed once.
 */
function recordedManifest(events: readonly DelegateEvent[]): ChangeManifest | undefined {
  const files = new Map<string, ChangedFile>();
  const commands = new Map<string, CommandRun>();
  let any = false;
  for (const e of events) {
    if (e.type !== 'change_manifest') continue;
    any = true;
    for (const f of e.files) files.set(f.path, f);
    for (const c of e.commands) commands.set(`${c.command}\0${c.exit_code}`, c);
  }
  return any ? { files: [...files.values()], commands: [...commands.values()] } : undefined;
}

function transcriptItems(events: readonly DelegateEvent[]): string[] {
  const outputs = new Map<string, string>();
  const items: string[] = [];
  for (const e of events) {
    if (e.type === 'tool_call' && (e.state === 'completed' || e.state === 'error')) outputs.set(e.id, e.output);
    if (e.type === 'agent_started' && e.segment) items.push(`— resumed (segment ${e.segment}) by ${e.resumedBy === 'user' ? 'the user' : 'its parent'} —`);
    if (e.type === 'message') items.push(messageItem(items.length, e.message, outputs));
  }
  return items;
}

function messageItem(n: number, message: MessageParam, outputs: ReadonlyMap<string, string>): string {
  const blocks: ContentBlockParam[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
  const parts = blocks.flatMap((b): string[] => {
    switch (b.type) {
      case 'text':
        return b.text.trim() ? [excerpt(b.text, TEXT_EXCERPT)] : [];
      case 'tool_use':
        return [`→ ${b.name} ${excerpt(JSON.stringify(b.input ?? {}), 200)}`];
      case 'tool_result': {
        const content = b.content ?? outputs.get(b.tool_use_id) ?? '';
        const text = typeof content === 'string' ? content : content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join(' ');
        return [`← result${b.is_error ? ' (error)' : ''}: ${excerpt(text, OUTPUT_EXCERPT)}`];
      }
      case 'thinking':
      case 'redacted_thinking':
        return ['(thinking)'];
      default:
        return [`[${b.type}]`];
    }
  });
  return `[${n}] ${message.role}: ${parts.join('\n  ')}`;
}

/**
 * A short report (it only points somewhere: "see report.md") that names files the child wrote: the line listing them.
 * `written`: the files its change manifest has it (or its own subagents) create or modify — a file it only read or
 * touched, or one someone else changed meanwhile, is no deliverable.
 */
export async function deliverablesLine(report: string, workdir: string, written: readonly string[]): Promise<string | undefined> {
  if (report.length > POINTER_CHARS || written.length === 0) return undefined;
  const files = await namedFiles(report, workdir, new Set(written));
  return files.length ? `[deliverables] ${files.join(', ')}` : undefined;
}

/** A report this short is a pointer, not the findings themselves. */
const POINTER_CHARS = 300;

/** Workspace files the result names by path (`report.md`, `docs/findings.md`), with their sizes; `only`: among these. */
async function namedFiles(result: string, workdir: string, only?: ReadonlySet<string>): Promise<string[]> {
  const found: string[] = [];
  const seen = new Set<string>();
  for (const m of result.matchAll(/(?:^|[\s`'"(<[])((?:\.{0,2}\/)?(?:[\w@.-]+\/)*[\w@-][\w@.-]*\.[A-Za-z][A-Za-z0-9]{0,7})(?=$|[\s`'")>\],;:!?]|\.(?:\s|$))/g)) {
    const name = m[1] as string;
    if (seen.has(name) || found.length >= DELIVERABLES) continue;
    seen.add(name);
    const abs = resolve(workdir, name);
    const rel = relative(workdir, abs);
    const shown = rel.split('\\').join('/');
    if (rel.startsWith('..') || isAbsolute(rel) || (only && !only.has(shown))) continue;
    const info = await stat(abs).catch(() => undefined);
    if (info?.isFile()) found.push(`${shownName(shown)} (${info.size.toLocaleString('en-US')} bytes)`);
  }
  return found;
}
