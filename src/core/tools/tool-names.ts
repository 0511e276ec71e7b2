/**
 * Our tool names and Claude Code's, both ways, so the files users already have work unchanged:
 * agent definitions' `tools:` lists, hook matchers and their stdin JSON (`tool_name`, `tool_input`
 * with Claude Code's field names), `--allowed-tools` / `--disallowed-tools`.
 *
 *   Read ↔ read_file   Write ↔ write_file   Edit, MultiEdit → edit_file   Bash ↔ bash   Glob ↔ glob
 *   Grep ↔ grep        Task, Agent → task    WebFetch ↔ web_fetch          WebSearch ↔ web_search
 *   AskUserQuestion ↔ ask_user   Skill ↔ skill
 *   mcp__server__tool  as is (both sides)
 */

const CLAUDE_TO_OURS: Record<string, string> = {
  Read: 'read_file',
  Write: 'write_file',
  Edit: 'edit_file',
  MultiEdit: 'edit_file',
  Bash: 'bash',
  Glob: 'glob',
  Grep: 'grep',
  Task: 'task',
  Agent: 'task',
  WebFetch: 'web_fetch',
  WebSearch: 'web_search',
  AskUserQuestion: 'ask_user',
  Skill: 'skill',
};

const OURS_TO_CLAUDE: Record<string, string> = {
  read_file: 'Read',
  write_file: 'Write',
  edit_file: 'Edit',
  bash: 'Bash',
  glob: 'Glob',
  grep: 'Grep',
  task: 'Task',
  web_fetch: 'WebFetch',
  web_search: 'WebSearch',
  ask_user: 'AskUserQuestion',
  skill: 'Skill',
};

/** Our name for a tool named either way (`Read`, `read_file`, `mcp__x__y`); undefined when unknown. */
export function ourToolName(name: string, known: ReadonlySet<string>): string | undefined {
  const trimmed = name.trim();
  if (known.has(trimmed)) return trimmed;
  const mapped = CLAUDE_TO_OURS[trimmed];
  return mapped !== undefined && known.has(mapped) ? mapped : undefined;
}

/** Claude Code's name for one of our tools (MCP and unknown names unchanged). */
export function claudeToolName(ours: string): string {
  return OURS_TO_CLAUDE[ours] ?? ours;
}

/** Every spelling of a tool a matcher or a list may use: ours and Claude Code's. */
export function toolNameAliases(ours: string): string[] {
  const claude = OURS_TO_CLAUDE[ours];
  const extra = Object.entries(CLAUDE_TO_OURS).filter(([, o]) => o === ours).map(([c]) => c);
  return [...new Set([ours, ...(claude ? [claude] : []), ...extra])];
}

/** Our input field names → Claude Code's (`path` → `file_path`, `old_text` → `old_string`, …). */
const INPUT_FIELDS: Record<string, Record<string, string>> = {
  read_file: { path: 'file_path' },
  write_file: { path: 'file_path' },
  edit_file: { path: 'file_path', old_text: 'old_string', new_text: 'new_string' },
};

/** A tool input as Claude Code's hooks see it (unknown tools' inputs unchanged). */
export function toClaudeInput(ours: string, input: unknown): unknown {
  const map = INPUT_FIELDS[ours];
  if (!map || typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  return Object.fromEntries(Object.entries(input).map(([k, v]) => [map[k] ?? k, v]));
}

/** A tool input written in Claude Code's field names (a hook's `updatedInput`) back in ours. */
export function fromClaudeInput(ours: string, input: unknown): unknown {
  const map = INPUT_FIELDS[ours];
  if (!map || typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  const back = Object.fromEntries(Object.entries(map).map(([o, c]) => [c, o]));
  return Object.fromEntries(Object.entries(input).map(([k, v]) => [back[k] ?? k, v]));
}
