/**
 * Which codicon stands for which tool, task status and call state.
 */
import { isOpenCall, type TaskStatus, type ToolCallNode } from '../src/view-model/session-view';

const TOOL_ICONS: Record<string, string> = {
  bash: 'terminal',
  shell: 'terminal',
  run_command: 'terminal',
  exec: 'terminal',
  read_file: 'file',
  read: 'file',
  view: 'file',
  write_file: 'new-file',
  write: 'new-file',
  create_file: 'new-file',
  edit_file: 'edit',
  edit: 'edit',
  str_replace: 'edit',
  list_files: 'list-tree',
  list_dir: 'list-tree',
  ls: 'list-tree',
  glob: 'search',
  find_files: 'search',
  grep: 'search',
  search: 'search',
  web_fetch: 'globe',
  web_search: 'globe',
  fetch: 'globe',
  task: 'organization',
  skill: 'book',
};

export function toolIcon(name: string): string {
  return TOOL_ICONS[name] ?? 'tools';
}

/** write_file / edit_file rows get an "Open diff" action. */
export function isFileChangeTool(name: string): boolean {
  return toolIcon(name) === 'new-file' || toolIcon(name) === 'edit';
}

export const TASK_STATUS_ICON: Record<TaskStatus, { icon: string; extra: string }> = {
  pending: { icon: 'clock', extra: '' },
  running: { icon: 'loading', extra: 'codicon-modifier-spin' },
  completed: { icon: 'check', extra: '' },
  max_turns: { icon: 'warning', extra: '' },
  budget_exceeded: { icon: 'warning', extra: '' },
  error: { icon: 'error', extra: '' },
  cancelled: { icon: 'circle-slash', extra: '' },
};

/** Icon + tone class for a tool call's current state. */
export function toolStateIcon(tool: ToolCallNode): { icon: string; extra: string; tone: string } {
  if (tool.permission === 'asked' && isOpenCall(tool)) return { icon: 'shield', extra: '', tone: 'tone-wait' };
  if (tool.permission === 'denied') return { icon: 'circle-slash', extra: '', tone: 'tone-error' };
  switch (tool.status) {
    case 'pending':
      return { icon: 'clock', extra: '', tone: 'tone-muted' };
    case 'running':
      return { icon: 'loading', extra: 'codicon-modifier-spin', tone: 'tone-running' };
    case 'error':
      return { icon: 'error', extra: '', tone: 'tone-error' };
    case 'cancelled':
      return { icon: 'circle-slash', extra: '', tone: 'tone-muted' };
    default:
      return { icon: 'check', extra: '', tone: 'tone-ok' };
  }
}
