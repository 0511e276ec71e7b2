/**
 * Remembers what write_file / edit_file changed, so a tree row can open a diff of exactly that
 * change. Content is captured by hooks on the session's shared registry (before the call and after
 * it) and served read-only under the `delegate-diff:` scheme.
 */
import * as vscode from 'vscode';
import { readFile } from 'node:fs/promises';
import { basename, resolve, sep } from 'node:path';
import type { HookRegistry } from '../core/policy/hooks';

export const DIFF_SCHEME = 'delegate-diff';
const MAX_CHANGES = 500;
const MAX_BYTES = 2_000_000;

interface Change {
  path: string;
  before: string;
  after?: string;
}

export class DiffStore implements vscode.TextDocumentContentProvider {
  private readonly changes = new Map<string, Change>();

  constructor(private readonly workdir: string) {}

  /** Installs the capture hooks; returns their removal. */
  attach(hooks: HookRegistry): () => void {
    const offPre = hooks.on('PreToolUse', async (ctx) => {
      const path = writePath(ctx.toolName, ctx.input);
      // Never read outside the folder here: the permission check that refuses escapes runs after hooks.
      if (path && resolve(this.workdir, path).startsWith(this.workdir + sep)) this.remember(ctx.toolUseId, { path, before: await readText(resolve(this.workdir, path)) });
      return undefined;
    });
    const offPost = hooks.on('PostToolUse', async (ctx) => {
      const change = this.changes.get(ctx.toolUseId);
      if (change && !ctx.output.isError) change.after = await readText(resolve(this.workdir, change.path));
      return undefined;
    });
    return () => {
      offPre();
      offPost();
    };
  }

  has(toolUseId: string): boolean {
    return this.changes.get(toolUseId)?.after !== undefined;
  }

  async open(toolUseId: string): Promise<boolean> {
    const change = this.changes.get(toolUseId);
    if (!change || change.after === undefined) return false;
    const name = basename(change.path);
    const left = vscode.Uri.from({ scheme: DIFF_SCHEME, path: `/${toolUseId}/before/${name}` });
    const right = vscode.Uri.from({ scheme: DIFF_SCHEME, path: `/${toolUseId}/after/${name}` });
    await vscode.commands.executeCommand('vscode.diff', left, right, `${change.path} (Delegate change)`, { preview: true });
    return true;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const [, id, side] = uri.path.split('/');
    const change = id ? this.changes.get(id) : undefined;
    if (!change) return '';
    return side === 'before' ? change.before : (change.after ?? '');
  }

  private remember(id: string, change: Change): void {
    this.changes.set(id, change);
    if (this.changes.size > MAX_CHANGES) {
      const oldest = this.changes.keys().next().value;
      if (oldest !== undefined) this.changes.delete(oldest);
    }
  }
}

function writePath(toolName: string, input: unknown): string | undefined {
  if (toolName !== 'write_file' && toolName !== 'edit_file') return undefined;
  const path = (input as { path?: unknown } | null)?.path;
  return typeof path === 'string' ? path : undefined;
}

async function readText(path: string): Promise<string> {
  try {
    const data = await readFile(path);
    return data.length > MAX_BYTES ? `(file larger than ${MAX_BYTES} bytes: not shown)` : data.toString('utf8');
  } catch {
    return '';
  }
}
