/**
 * What reverting one subagent means, worked out from the session's events alone (so any process can do it):
 *
 *   agent_started ──▶ the subtree (the agent and its descendants), the workspace (the root's `cwd`)
 *   file_changed  ──▶ per file, the subtree's changes not yet undone:  first.before ─ … ─ last.after
 *                       (a command's change counts for every agent among its causes; one whose content
 *                       before was not kept is refused, with the reason; one whose causes include a call
 *                       from outside the subtree is shared: who else, so the revert can leave it alone)
 *                       restore = first.before (none: delete), expect = last.after (the file must still hold it)
 *                       someone else's change in between ─▶ refuse: reverting would undo theirs too
 *                       someone else's change after it ─▶ what is there is theirs: never "unchanged" unless it is ours
 *   change_manifest ─▶ the commands it ran (their effects cannot be reverted: listed, not undone)
 *   changes_reverted ─▶ what earlier reverts already put back
 */
import type { DelegateEvent, EventOf } from '../events';
import type { ContentHash, FileAction } from './types';

export interface RevertPlanFile {
  path: string;
  /** The subtree's net action on the file. */
  action: FileAction;
  /** The content to put back (undefined: there was no file, so it is deleted). */
  restore?: ContentHash;
  /** What the subtree's last change left (undefined: it deleted the file). */
  expected?: ContentHash;
  /** Why it cannot be put back: a command changed it and its content before was not kept. */
  lost?: string;
  /** Someone outside the subtree changed the file between its changes: who, and that change's contents. */
  between?: { who: string; before?: ContentHash; after?: ContentHash };
  /** Someone outside the subtree changed the file after its last change (not undone since): the file is theirs now. */
  changedSince?: { who: string };
  /** Calls from outside the subtree that overlapped and may have made its changes (none or several named it). */
  shared?: SharedWith[];
}

/** Another agent's call a shared change may be: who (a name for the user), and the command or MCP call. */
export interface SharedWith {
  agentId: string;
  who: string;
  command: string;
}

export interface RevertPlan {
  sessionId: string;
  rootAgentId: string;
  agentId: string;
  description: string;
  workdir: string;
  files: RevertPlanFile[];
  /** Files whose changes an earlier revert already undid. */
  alreadyReverted: string[];
  commands: string[];
}

type FileChanged = EventOf<'file_changed'>;

/** Undoing outcomes: the file holds what it held before (refused and unknown ones undo nothing). */
const UNDOING = new Set(['restored', 'deleted', 'recreated', 'unchanged']);

export function planRevert(events: readonly DelegateEvent[], agentId: string): RevertPlan | { error: string } {
  const parents = new Map<string, string | null>();
  const names = new Map<string, string>();
  let workdir: string | undefined;
  let rootAgentId: string | undefined;
  let finished = false;
  for (const e of events) {
    if (e.type === 'agent_started') {
      parents.set(e.agentId, e.parentId);
      names.set(e.agentId, e.parentId === null ? 'the main agent' : `the subagent "${e.description ?? e.agentId}" (${e.agentId})`);
      if (e.parentId === null) {
        rootAgentId = e.agentId;
        if (e.cwd) workdir = e.cwd;
      }
    }
    if (e.type === 'agent_finished' && e.agentId === agentId) finished = true;
  }
  if (!parents.has(agentId)) return { error: `no agent ${agentId} in this session` };
  if (parents.get(agentId) === null || rootAgentId === undefined) return { error: `${agentId} is the main agent: only a subagent's changes can be reverted` };
  if (!finished) return { error: `the subagent ${agentId} has not finished (it is still running, or its process was killed before it could record its end)` };
  if (!workdir) return { error: 'the session does not record its workspace folder' };
  const inTree = subtreeTest(parents, agentId);
  const undone = undoneChanges(events, parents);

  const byPath = new Map<string, FileChanged[]>();
  const alreadyReverted = new Set<string>();
  for (const e of events) {
    if (e.type !== 'file_changed') continue;
    const list = byPath.get(e.path) ?? [];
    list.push(e);
    byPath.set(e.path, list);
  }
  const files: RevertPlanFile[] = [];
  const ours = (e: FileChanged): boolean => inTree(e.agentId) || (e.causes?.some((c) => inTree(c.agentId)) ?? false);
  for (const [path, all] of byPath) {
    const mine = all.filter(ours);
    const live = mine.filter((e) => !undone.has(e.seq));
    if (live.length === 0) {
      if (mine.length > 0) alreadyReverted.add(path);
      continue;
    }
    const first = live[0] as FileChanged;
    const last = live[live.length - 1] as FileChanged;
    const created = first.causes ? first.action === 'created' : first.before === undefined;
    const action: FileAction = created ? 'created' : last.after === undefined ? 'deleted' : 'modified';
    const other = all.find((e) => e.seq > first.seq && e.seq < last.seq && !ours(e) && !undone.has(e.seq));
    const since = all.find((e) => e.seq > last.seq && !ours(e) && !undone.has(e.seq));
    const lost = live.find((e) => e.lost)?.lost;
    const shared = sharedWith(live, inTree, names);
    files.push({
      path,
      action,
      ...(lost ? { lost } : {}),
      ...(first.before ? { restore: first.before } : {}),
      ...(last.after ? { expected: last.after } : {}),
      ...(shared.length ? { shared } : {}),
      ...(other ? { between: { who: names.get(other.agentId) ?? other.agentId, ...(other.before ? { before: other.before } : {}), ...(other.after ? { after: other.after } : {}) } } : {}),
      ...(since ? { changedSince: { who: names.get(since.agentId) ?? since.agentId } } : {}),
    });
  }
  return {
    sessionId: events[0]?.sessionId ?? '',
    rootAgentId,
    agentId,
    description: names.get(agentId) ?? agentId,
    workdir,
    files,
    alreadyReverted: [...alreadyReverted],
    commands: commandsOf(events, agentId, inTree),
  };
}

/** The calls outside the subtree among the causes of its live changes, each once. */
function sharedWith(live: FileChanged[], inTree: (id: string) => boolean, names: Map<string, string>): SharedWith[] {
  const seen = new Map<string, SharedWith>();
  for (const e of live) {
    for (const c of e.causes ?? []) {
      if (inTree(c.agentId) || seen.has(c.toolUseId)) continue;
      seen.set(c.toolUseId, { agentId: c.agentId, who: names.get(c.agentId) ?? c.agentId, command: c.command });
    }
  }
  return [...seen.values()];
}

function subtreeTest(parents: Map<string, string | null>, agentId: string): (id: string) => boolean {
  return (id) => {
    let cur: string | null | undefined = id;
    for (let depth = 0; cur && depth < 64; depth++) {
      if (cur === agentId) return true;
      cur = parents.get(cur);
    }
    return false;
  };
}

/** Seqs of file changes an earlier revert undid: its target's subtree's changes to the files it put back. */
function undoneChanges(events: readonly DelegateEvent[], parents: Map<string, string | null>): Set<number> {
  const undone = new Set<number>();
  for (const r of events) {
    if (r.type !== 'changes_reverted') continue;
    const inTree = subtreeTest(parents, r.target);
    const paths = new Set(r.files.filter((f) => UNDOING.has(f.outcome)).map((f) => f.path));
    for (const e of events) {
      if (e.seq >= r.seq) break;
      if (e.type === 'file_changed' && paths.has(e.path) && (inTree(e.agentId) || e.causes?.some((c) => inTree(c.agentId)))) undone.add(e.seq);
    }
  }
  return undone;
}

/** The commands the subtree ran: from its manifest, else (an older transcript) from its bash calls. */
function commandsOf(events: readonly DelegateEvent[], agentId: string, inTree: (id: string) => boolean): string[] {
  const manifest = events.find((e): e is EventOf<'change_manifest'> => e.type === 'change_manifest' && e.agentId === agentId);
  if (manifest) return manifest.commands.map((c) => c.command);
  // Each call's first patch says what it is (its summary is one line: the command is in its input).
  const seen = new Set<string>();
  const commands: string[] = [];
  for (const e of events) {
    if (e.type !== 'tool_call' || e.name !== 'bash' || !('input' in e) || !inTree(e.agentId) || seen.has(`${e.agentId}\n${e.id}`)) continue;
    seen.add(`${e.agentId}\n${e.id}`);
    commands.push(String((e.input as { command?: unknown } | null)?.command ?? ''));
  }
  return commands;
}
