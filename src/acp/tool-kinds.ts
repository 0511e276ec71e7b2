/**
 * How a Delegate tool call looks to an ACP client: its kind (the client's icon and grouping), its title and the
 * files it names (locations, so the client can follow the agent).
 *
 *   read_file ─▶ read    write_file, edit_file ─▶ edit    glob, grep ─▶ search    web_fetch, web_search ─▶ fetch
 *   bash ─▶ execute (delete for a plain `rm`, move for a plain `mv`)    task ─▶ think    skill ─▶ read    land ─▶ edit (it writes the tree)
 *   MCP and the rest ─▶ other
 */
import { isAbsolute, resolve } from 'node:path';
import type { ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk/unstable';

const BY_NAME: Record<string, ToolKind> = {
  read_file: 'read',
  write_file: 'edit',
  edit_file: 'edit',
  glob: 'search',
  grep: 'search',
  web_fetch: 'fetch',
  web_search: 'fetch',
  bash: 'execute',
  task: 'think',
  skill: 'read',
  land: 'edit',
};

const LABEL: Record<string, string> = {
  read_file: 'Read',
  write_file: 'Write',
  edit_file: 'Edit',
  glob: 'Find',
  grep: 'Search',
  web_fetch: 'Fetch',
  web_search: 'Web search',
  bash: 'Run',
  task: 'Delegate',
  ask_user: 'Ask',
  skill: 'Load skill',
};

/** The ACP kind of a call: by tool name, and for bash a lone `rm` / `mv` (git's too) as delete / move. */
export function toolKindOf(name: string, input: unknown): ToolKind {
  const kind = BY_NAME[name] ?? 'other';
  if (kind !== 'execute') return kind;
  const command = typeof input === 'object' && input !== null && 'command' in input ? String((input as { command: unknown }).command) : '';
  // One simple command only: a pipeline or a list may do anything else besides.
  if (/[;&|`$()<>\n]/.test(command)) return kind;
  if (/^\s*(git\s+)?rm\s/.test(command)) return 'delete';
  if (/^\s*(git\s+)?mv\s/.test(command)) return 'move';
  return kind;
}

/** "Read src/a.ts", "Run npm test", "Delegate: find the config"; MCP tools keep their own name. */
export function toolTitle(name: string, summary: string | undefined): string {
  const label = LABEL[name] ?? name;
  if (!summary) return label;
  return name === 'task' ? `${label}: ${summary}` : `${label} ${summary}`;
}

/** The files a call names, absolute (ACP locations are absolute paths). */
export function locationsOf(workdir: string, paths: readonly string[] | undefined): ToolCallLocation[] {
  return (paths ?? []).filter((p) => p.length > 0).map((p) => ({ path: isAbsolute(p) ? p : resolve(workdir, p) }));
}
