/**
 * One subagent's whole record as markdown, for *Open in editor* (the side panel is too narrow for long reads):
 * its prompt, then in order its thinking, its text, every call with its full input and output (as the model
 * received it; a cut output names the file with the rest), its nested subagents' calls (each under its own
 * heading), its result and what it changed. Built from the session's transcript events. Pure.
 */
import { endsCall, opensCall, type DelegateEvent } from '../core/events';

const fence = (text: string, lang = ''): string => {
  const ticks = '`'.repeat(Math.max(3, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length + 1)));
  return `${ticks}${lang}\n${text}\n${ticks}`;
};

const json = (value: unknown): string => {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
};

/** The agent's own id and those of its descendants (from `agent_started` parent links). */
function family(events: readonly DelegateEvent[], agentId: string): Map<string, number> {
  const depth = new Map<string, number>([[agentId, 0]]);
  for (const e of events) {
    if (e.type === 'agent_started' && e.parentId !== null && depth.has(e.parentId) && !depth.has(e.agentId)) depth.set(e.agentId, (depth.get(e.parentId) ?? 0) + 1);
  }
  return depth;
}

/** The markdown record of `agentId` (undefined when the transcript has no such agent). */
export function agentRecord(events: readonly DelegateEvent[], agentId: string): string | undefined {
  const started = events.find((e) => e.type === 'agent_started' && e.agentId === agentId);
  if (started?.type !== 'agent_started') return undefined;
  const depths = family(events, agentId);
  const out: string[] = [`# ${started.description ?? 'Subagent'}`, '', `Agent \`${agentId}\`${started.agentType ? ` (${started.agentType})` : ''} · model ${started.model}`, '', '## Prompt', '', fence(started.prompt)];
  // The agent's calls under ### (## is for Prompt, Changes, Result); a nested subagent one level deeper each.
  const heading = (id: string, title: string, offset = 3): string => `${'#'.repeat(Math.min(6, offset + (depths.get(id) ?? 0)))} ${title}`;
  const calls = new Set<string>();
  for (const e of events) {
    if (!depths.has(e.agentId)) continue;
    const nested = e.agentId !== agentId;
    switch (e.type) {
      case 'agent_started':
        if (nested) out.push('', heading(e.agentId, `Subagent: ${e.description ?? e.agentId}`, 2), '', fence(e.prompt));
        break;
      case 'thinking':
        if (e.text.trim() !== '') out.push('', heading(e.agentId, 'Thinking'), '', e.text.trim());
        break;
      case 'message':
        if (e.message.role === 'assistant') {
          const text = typeof e.message.content === 'string' ? e.message.content : e.message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n\n');
          if (text.trim() !== '') out.push('', text.trim());
        }
        break;
      case 'tool_call':
        if (endsCall(e)) {
          out.push('', `Output${e.state === 'error' ? ' (error)' : ''} · ${e.durationMs} ms:`, '', fence(e.output));
          if (e.fullOutputPath) out.push('', `The output was cut; the whole of it: \`${e.fullOutputPath}\``);
        } else if (opensCall(e) && !calls.has(`${e.agentId}\n${e.id}`)) {
          // The call's first patch says what it is.
          calls.add(`${e.agentId}\n${e.id}`);
          out.push('', heading(e.agentId, `\`${e.name}\`${e.summary ? ` ${e.summary}` : ''}`), '', 'Input:', '', fence(json(e.input), 'json'));
        }
        break;
      case 'change_manifest':
        if (!nested && (e.files.length > 0 || e.commands.length > 0)) {
          out.push('', '## Changes', '');
          for (const f of e.files) out.push(`- ${f.action} \`${f.path}\` (+${f.added} −${f.removed})`);
          for (const c of e.commands) out.push(`- ran \`${c.command}\`${c.exit_code === null ? ' (stopped)' : ` (exit ${c.exit_code})`}`);
        }
        break;
      case 'agent_finished':
        if (!nested) {
          out.push('', `## Result · ${e.status} · ${e.turns} turns · ${e.toolCalls} calls · ${Math.round(e.durationMs / 1000)} s`, '');
          if (e.error) out.push(fence(e.error), '');
          out.push(e.result.trim() === '' ? '(no result)' : e.result.trim());
        }
        break;
      default:
        break;
    }
  }
  return `${out.join('\n')}\n`;
}
