/**
 * The stale-write guard: each agent's view of each file is the content it last read or wrote itself.
 *
 *   read_file a.ts ──▶ stamps[agent][a.ts] = sha256(all of a.ts)   (also for a window: offset/limit)
 *   write/edit a.ts, under a.ts's lock:
 *       no file            ──▶ go (creating)
 *       no stamp           ──▶ refuse: "read it first"
 *       stamp ≠ sha256(now) ──▶ refuse: "changed since you read it, by <who>: read it again"
 *       else               ──▶ write; stamps[agent][a.ts] = sha256(new)  (own writes count as read)
 *
 * Parallel subagents in one folder otherwise overwrite each other's edits with stale text, and no one knows.
 */
import type { Changer } from './change-attribution';
import type { ContentHash } from './types';

export class ReadStamps {
  private readonly byAgent = new Map<string, Map<string, ContentHash>>();

  stamp(agentId: string, absPath: string, hash: ContentHash): void {
    let mine = this.byAgent.get(agentId);
    if (!mine) this.byAgent.set(agentId, (mine = new Map()));
    mine.set(absPath, hash);
  }

  get(agentId: string, absPath: string): ContentHash | undefined {
    return this.byAgent.get(agentId)?.get(absPath);
  }
}

/** "the subagent "fix config" (a1b2c3d4)", "a command (`npm run fmt`, run by the main agent)"… undefined: unknown. */
export function describeChanger(who: Changer, selfName: string): string | undefined {
  switch (who.kind) {
    case 'agent':
      return who.name === selfName ? 'you' : who.name;
    case 'command': {
      const shown = who.commands.slice(0, 2).map((c) => `\`${oneLine(c.command)}\`, run by ${c.by === selfName ? 'you' : c.by}`);
      const more = who.commands.length > 2 ? ` and ${who.commands.length - 2} more` : '';
      return `a command (${shown.join('; ')}${more})`;
    }
    case 'revert':
      return 'a revert of a subagent\'s changes';
    case 'unknown':
      return undefined;
  }
}

/** The refusal for a write over a file the agent has not read. */
export function notReadMessage(displayPath: string, verb: 'write' | 'edit', lastWriter: string | undefined): string {
  const by = lastWriter ? ` (last written by ${lastWriter})` : '';
  return `Refused: ${displayPath} already exists${by} and you have not read it. Read it with read_file first, then ${verb === 'edit' ? 'make your edit' : 'write it'}.`;
}

/** The refusal for a write over a file that changed since the agent read it. */
export function staleMessage(displayPath: string, verb: 'write' | 'edit', changer: string | undefined): string {
  const by = changer ? `: ${changer} changed it` : ' (not by Delegate: the user or another program changed it)';
  return `Refused: ${displayPath} changed since you last read it${by}. Read it again with read_file, then ${verb === 'edit' ? 'redo your edit' : 'write it'} on the current content.`;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}
