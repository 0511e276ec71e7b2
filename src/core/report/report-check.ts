/**
 * A subagent's report checked against its record: each claim report-claims.ts reads from the prose is held to
 * what the child (and its descendants) did, and the ones the record does not support come back with a reason:
 *
 *   "updated `src/b.ts`"  ─▶ no write/edit of src/b.ts in the manifest, no command changed it
 *   "all tests pass"      ─▶ the last test command (`npm test`) exited 1
 *   "ran `npm run lint`"  ─▶ no such bash call
 *   "Fixed."              ─▶ nothing changed: no file written, edited or deleted, no command that could change files
 *
 * The record is the harness's (record-watch.ts: tool calls with inputs, errors and outputs; the change manifest):
 * the child's prose never stands in for it. What the record cannot know is given the benefit of the doubt: a
 * file the manifest does not list counts as changed when a command wrote it by name (`sed -i … a.ts`, `>> .env`:
 * a file the watch does not see; command-writes.ts) — or, without a manifest, when any command names it — and a
 * file read counts when any call named it or any output showed it.
 */
import type { ChangeManifest } from '../changes/types';
import type { ToolResult } from '../tools/types';
import { codeSpan } from '../shown-text';
import { commandWrites } from './command-writes';
import { extractClaims, type CheckSubject, type ReportClaim } from './report-claims';

/** One tool call of the child's subtree, as its events had it. */
export interface RecordedCall {
  name: string;
  input: unknown;
  isError: boolean;
  output: string;
}

export interface WorkRecord {
  calls: readonly RecordedCall[];
  /** What the subtree changed and ran (absent when the session tracks no changes: write/edit calls stand in). */
  manifest?: ChangeManifest;
  /** The child's workspace folder (absolute paths in a report or a call are taken relative to it). */
  workdir?: string;
  /** Whether the command watch sees this workspace-relative file: then only the manifest says whether a command changed it. */
  watched?: (path: string) => boolean;
}

export interface UnverifiedClaim {
  claim: string;
  reason: string;
}

const MAX_LINES = 12;

/** Commands that run a subject's check (`npm test`, `pytest`, `cargo build`, `npx eslint .`). */
const SUBJECT_COMMANDS: Record<CheckSubject, RegExp> = {
  tests: /(?<![\w-])(?:test|tests|spec|specs|mocha|jest|vitest|pytest|unittest|rspec|phpunit|ctest|ava|tap|karma|playwright)(?![\w-])|--test\b/,
  build: /(?<![\w-])(?:build|tsc|compile|make|webpack|esbuild|rollup|gradle|mvn|javac|gcc|clang)(?![\w-])/,
  lint: /(?<![\w-])(?:lint|eslint|ruff|flake8|clippy|golangci-lint|pylint|stylelint|biome|prettier)(?![\w-])/,
  typecheck: /(?<![\w-])(?:typecheck|type-check|check-types|tsc|mypy|pyright)(?![\w-])/,
};

const SUBJECT_NAMES: Record<CheckSubject, string> = { tests: 'test', build: 'build', lint: 'lint', typecheck: 'typecheck' };

interface RanCommand {
  command: string;
  /** null: it did not exit by itself (timed out, stopped); undefined: not known. */
  exitCode: number | null | undefined;
}

/** The report's claims the record does not support, each with why (at most MAX_LINES). */
export function checkReport(report: string, record: WorkRecord): UnverifiedClaim[] {
  const facts = factsOf(record);
  const out: UnverifiedClaim[] = [];
  const seen = new Set<string>();
  for (const claim of extractClaims(report)) {
    const reason = reasonAgainst(claim, facts);
    if (!reason) continue;
    const key = `${claim.text}\n${reason}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ claim: claim.text, reason });
    if (out.length === MAX_LINES) break;
  }
  return out;
}

/** The result with one `[unverified]` line per unsupported claim (after the `[changes]` footer). */
export function withUnverifiedFooter(result: ToolResult, unverified: readonly UnverifiedClaim[]): ToolResult {
  if (!unverified.length) return result;
  // The claim is a clause of the guarded report (one line: report-guard.ts made every line break a `\n`); as a JSON
  // string its quotes and control characters cannot close it early or start a line.
  const lines = unverified.map((u) => `[unverified] ${JSON.stringify(u.claim)}: ${u.reason}`);
  return { ...result, content: `${result.content}\n${lines.join('\n')}` };
}

interface Facts {
  workdir: string | undefined;
  /** Files changed by the file tools: path → what happened ('written': a write/edit without a manifest). */
  files: Map<string, 'created' | 'modified' | 'deleted' | 'written'>;
  commands: RanCommand[];
  /** Commands that may have changed files (not a look like `ls` or `git status`). */
  changing: string[];
  /** The record has the change manifest: a watched file a command changed is in it. */
  manifest: boolean;
  watched: (path: string) => boolean;
  /** Every call's input and output, for "read" claims. */
  seen: string[];
}

function factsOf(record: WorkRecord): Facts {
  const files = new Map<string, 'created' | 'modified' | 'deleted' | 'written'>();
  const bash = record.calls.filter((c) => c.name === 'bash' && typeof command(c) === 'string');
  const commands: RanCommand[] = bash.map((c) => ({ command: command(c) as string, exitCode: exitCodeOf(c.output) }));
  if (record.manifest) {
    for (const f of record.manifest.files) files.set(norm(f.path, record.workdir), f.action);
    // The manifest's codes are the tool's own; a look (`ls`) is not in it, its output says how it ended.
    for (const run of record.manifest.commands) {
      const c = commands.find((x) => x.command === run.command && x.exitCode === undefined);
      if (c) c.exitCode = run.exit_code;
    }
  } else {
    for (const c of record.calls) {
      const path = (c.input as { path?: unknown } | null)?.path;
      if ((c.name === 'write_file' || c.name === 'edit_file') && !c.isError && typeof path === 'string') files.set(norm(path, record.workdir), 'written');
    }
  }
  const changing = record.manifest ? record.manifest.commands.map((c) => c.command) : commands.map((c) => c.command);
  const seen = record.calls.map((c) => `${JSON.stringify(c.input)}\n${c.output}`);
  return { workdir: record.workdir, files, commands, changing, seen, manifest: record.manifest !== undefined, watched: record.watched ?? (() => false) };
}

function reasonAgainst(claim: ReportClaim, facts: Facts): string | undefined {
  switch (claim.kind) {
    case 'file':
      return fileReason(claim.verb, claim.path, facts);
    case 'command':
      return commandReason(claim, facts);
    case 'done':
      return facts.files.size || facts.changing.some(mayFix) ? undefined : 'nothing was changed: no file written, edited or deleted, and no command that could change files ran (test, lint and build runs make no fix)';
  }
}

function fileReason(verb: 'read' | 'created' | 'changed' | 'deleted', claimed: string, facts: Facts): string | undefined {
  const path = norm(claimed, facts.workdir);
  const action = [...facts.files].find(([p]) => samePath(p, path))?.[1];
  // With a manifest, a command backs the claim only by writing a file the watch does not see (ignored, outside the
  // workspace); naming it (`cat a.ts && npm test`, `node a.js`) is no change, and a watched file's changes are all in
  // the manifest (a `sed -i` that matched nothing changed nothing). Without one, naming it is enough.
  const byCommand = facts.changing.some((c) => (facts.manifest ? !facts.watched(path) && commandWrites(c, path, names) : names(c, path)));
  if (verb === 'read') return action || facts.seen.some((s) => names(s, path)) ? undefined : `no tool call read or named ${path}`;
  if (byCommand) return undefined;
  // What the record says of commands: with a manifest, which files they changed; without one, only what they name.
  const noCommand = (what: string): string => (facts.manifest ? `no command ${what} it` : 'no command that could change files names it');
  if (verb === 'changed') {
    if (action === 'deleted') return `${path} was deleted, not changed`;
    return action ? undefined : `no write or edit of ${path} in the record, and ${noCommand('changed')}`;
  }
  if (verb === 'created') {
    if (action === 'created' || action === 'written') return undefined;
    if (action) return `${path} was ${action}, not created`;
    return `${path} was not created: no write of it in the record, and ${noCommand('created')}`;
  }
  if (action === 'deleted') return undefined;
  if (action) return `${path} was ${action === 'written' ? 'written' : action}, not deleted`;
  return facts.manifest ? `${path} was not deleted: no call in the record deleted it` : `${path} was not deleted: no call in the record deleted it or names it`;
}

function commandReason(claim: Extract<ReportClaim, { kind: 'command' }>, facts: Facts): string | undefined {
  const wanted = claim.command ? oneSpace(claim.command) : undefined;
  const runs = wanted
    ? facts.commands.filter((c) => oneSpace(c.command).includes(wanted) || (wanted.includes(oneSpace(c.command)) && c.command.trim().length > 2))
    : facts.commands.filter((c) => SUBJECT_COMMANDS[claim.subject as CheckSubject].test(c.command));
  const what = wanted ? codeSpan(wanted) : `${SUBJECT_NAMES[claim.subject as CheckSubject]} command`;
  if (!runs.length) return `no ${what} in the record`;
  if (claim.outcome === 'ran') return undefined;
  if (claim.outcome === 'passed') {
    const last = runs[runs.length - 1] as RanCommand;
    if (last.exitCode === 0 || last.exitCode === undefined) return undefined;
    return last.exitCode === null ? `${codeSpan(last.command, 60)} was stopped before it exited` : `${codeSpan(last.command, 60)} exited ${last.exitCode}`;
  }
  if (runs.some((r) => r.exitCode !== 0)) return undefined;
  return runs.length === 1 ? `${codeSpan((runs[0] as RanCommand).command, 60)} exited 0` : `every ${what} in the record exited 0`;
}

/** A command that could have made a fix: not a plain test, lint, typecheck or build run (`eslint --fix` could). */
function mayFix(command: string): boolean {
  const check = Object.values(SUBJECT_COMMANDS).some((pattern) => pattern.test(command));
  return !check || /--fix\b|--write\b|\bformat\b|\bfmt\b|-u\b|--update/.test(command);
}

function command(call: RecordedCall): unknown {
  return (call.input as { command?: unknown } | null)?.command;
}

/** The bash tool's own last line: `[exit code N]`, or a timeout/cancel/signal (no exit code). */
function exitCodeOf(output: string): number | null | undefined {
  const tail = output.slice(-200);
  const code = /\[exit code (-?\d+)\]\s*$/.exec(tail);
  if (code) return Number(code[1]);
  if (/(?:Command timed out after \d+ ms|Command cancelled|\[killed by signal \w+\])[^\n]*\s*$/.test(tail)) return null;
  return undefined;
}

/** A path relative to the workspace, `/`-separated, without `./`. */
function norm(path: string, workdir: string | undefined): string {
  let p = path.replace(/\\/g, '/');
  const root = workdir?.replace(/\\/g, '/').replace(/\/$/, '');
  if (root && p.startsWith(`${root}/`)) p = p.slice(root.length + 1);
  return p.replace(/^(?:\.\/)+/, '');
}

function samePath(recorded: string, claimed: string): boolean {
  return recorded === claimed || recorded.endsWith(`/${claimed}`) || claimed.endsWith(`/${recorded}`);
}

/** `text` names the path: whole, not as part of a longer name (`a.ts` is not in `data.ts` or `a.tsx`). */
function names(text: string, path: string): boolean {
  let from = 0;
  for (;;) {
    const i = text.indexOf(path, from);
    if (i < 0) return false;
    const before = text[i - 1] ?? '';
    const after = text[i + path.length] ?? '';
    if (!/[\w.-]/.test(before) && !/[\w-]/.test(after) && !(after === '.' && /\w/.test(text[i + path.length + 1] ?? ''))) return true;
    from = i + 1;
  }
}

function oneSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
