/**
 * An agent file's own hooks (Claude Code's `hooks:` front matter): they run only while that agent runs, for that
 * agent's own calls and its end, and are removed when it finishes.
 *
 *   child starts ─▶ its `hooks`, read and checked as settings.json's are (a bad entry: a notice; frontmatter Stop
 *                   is SubagentStop, as in Claude Code) ─▶ installCommandHooks on a view of the session's registry
 *                   that passes only this agent's events ─▶ child runs ─▶ child ends ─▶ removed
 *
 * A project agent file's hooks are the folder's commands, as .claude/settings.json's are: they wait for the same
 * answer about the folder and are skipped, with one notice, when it is no. The user's own (~/.claude/agents) run.
 */
import type { AgentDefinition } from '../agent-files/agent-definition';
import { installCommandHooks, type CommandHookSession } from '../hooks/command-hooks';
import { addFile, emptyHookSettings } from '../hooks/hook-settings';
import type { HookHandlers, HookEvent, HookRegistry } from '../policy/hooks';
import type { AgentIdentity } from '../vocabulary';
import type { FolderTrust } from './folder-trust';
import type { Notify } from './mcp';

export interface AgentHooksOptions {
  registry: HookRegistry;
  /** What the settings files' hooks run with (session id, folder, transcripts, processes, environment). */
  session: Omit<CommandHookSession, 'admit'>;
  folderTrust: FolderTrust | undefined;
  notify: Notify;
}

/** The registry as one agent's hooks see it: every handler installed through it runs for that agent's events only. */
function scopedTo(registry: HookRegistry, agentId: string): Pick<HookRegistry, 'on'> {
  return {
    on: <E extends HookEvent>(event: E, handler: HookHandlers[E]) =>
      registry.on(event, ((ctx: { agent: AgentIdentity }) => (ctx.agent.agentId === agentId ? (handler as (c: unknown) => unknown)(ctx) : undefined)) as HookHandlers[E]),
  };
}

/** Installs an agent's own hooks for its run; returns how to remove them (undefined: it has none that can run). */
export function agentHookInstaller(o: AgentHooksOptions): (def: AgentDefinition, agent: AgentIdentity) => Promise<(() => void) | undefined> {
  return async (def, agent) => {
    if (!def.hooks) return undefined;
    const who = `agent "${def.displayName ?? def.name}"`;
    // Claude Code: a Stop hook in an agent's front matter runs as SubagentStop (the agent is a subagent).
    const { Stop, ...rest } = def.hooks;
    const hooks = Stop === undefined ? rest : { ...rest, SubagentStop: [...(Array.isArray(rest.SubagentStop) ? rest.SubagentStop : []), ...(Array.isArray(Stop) ? Stop : [Stop])] };
    const settings = emptyHookSettings();
    addFile(settings, def.source, JSON.stringify({ hooks }));
    for (const p of settings.problems) await o.notify('warning', `${who}: ${p.text}`, def.source);
    if (!Object.values(settings.groups).some((groups) => groups.length > 0)) return undefined;
    if (def.scope === 'project' && o.folderTrust) {
      const answer = await o.folderTrust.answer();
      if (!answer.trusted) {
        await o.notify('warning', `${who}: its hooks did not run: this folder is not trusted, and the agent file is the folder's (hooks run commands outside the sandbox): ${answer.howToTrust}`, def.source);
        return undefined;
      }
    }
    return installCommandHooks(scopedTo(o.registry, agent.agentId), settings, o.session);
  };
}
