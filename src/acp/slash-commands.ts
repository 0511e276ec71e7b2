/**
 * Delegate's slash commands in an ACP client: offered by `available_commands_update` once a session is open, run
 * when a prompt starts with `/name` (the rest of its first text block is the command's input). What a command says
 * comes back as the agent's message; the model sees none of it. A `/word` that is not ours goes to the model as
 * written (a path, a user's own convention).
 *
 *   /compact          the conversation summarized now (between prompts)
 *   /agents           this session's subagents: id, name, task, how each ended (what /revert and messages name)
 *   /history          the sessions kept for this folder, newest first (session/load or resume opens one)
 *   /revert AGENT     a finished subagent's file changes undone (as `delegate revert`): a line per file
 */
import type { AvailableCommand, ContentBlock } from '@agentclientprotocol/sdk/unstable';
import { ROOT_AGENT_ID, type Session } from '../core/session';
import type { DelegateEvent, EventOf } from '../core/events';
import type { SessionHistory } from '../core/session/history';

export const SLASH_COMMANDS: AvailableCommand[] = [
  { name: 'compact', description: 'Compact the conversation now (summarize its earlier part)' },
  { name: 'agents', description: "This session's subagents: ids, tasks, how each ended" },
  { name: 'history', description: 'The sessions kept for this folder, newest first' },
  { name: 'revert', description: "Undo a finished subagent's file changes (and its subagents')", input: { hint: 'subagent id (see /agents)' } },
];

export interface SlashCommand {
  name: string;
  input: string;
}

/** The command a prompt is, when its first block is text starting with one of ours. */
export function slashCommandOf(blocks: readonly ContentBlock[]): SlashCommand | undefined {
  const first = blocks[0];
  if (first?.type !== 'text') return undefined;
  const match = /^\/([a-z][\w-]*)(?:\s+([\s\S]*))?$/.exec(first.text.trim());
  if (!match?.[1] || !SLASH_COMMANDS.some((c) => c.name === match[1])) return undefined;
  return { name: match[1], input: (match[2] ?? '').trim() };
}

export interface CommandContext {
  session: Session;
  stored: SessionHistory;
  workdir: string;
  signal: AbortSignal;
}

/** Runs one command; what it says (one paragraph or a list). A refusal is said the same way, nothing thrown. */
export async function runSlashCommand(command: SlashCommand, c: CommandContext): Promise<string> {
  try {
    return await run(command, c);
  } catch (err) {
    return `/${command.name} failed: ${err instanceof Error ? err.message : String(err)}`;
  }
}

async function run(command: SlashCommand, c: CommandContext): Promise<string> {
  switch (command.name) {
    case 'compact':
      return (await c.session.compact(c.signal)) ? 'Compacted the conversation: its earlier part is now a summary.' : 'Nothing to compact yet.';
    case 'agents':
      return listAgents((await c.stored.read(c.session.id)) ?? []);
    case 'history':
      return listSessions(await c.stored.list({ cwd: c.workdir }), c.session.id);
    case 'revert':
      return revert(command.input, c);
    default:
      return `Unknown command /${command.name}.`;
  }
}

function listAgents(events: readonly DelegateEvent[]): string {
  const agents = new Map<string, { started: EventOf<'agent_started'>; finished?: EventOf<'agent_finished'> }>();
  for (const e of events) {
    if (e.agentId === ROOT_AGENT_ID) continue;
    if (e.type === 'agent_started' && !agents.has(e.agentId)) agents.set(e.agentId, { started: e });
    if (e.type === 'agent_finished') {
      const known = agents.get(e.agentId);
      if (known) known.finished = e;
    }
  }
  if (agents.size === 0) return 'No subagents in this session yet.';
  const lines = [...agents].map(([id, { started, finished }]) => {
    const who = [started.name ? `"${started.name}"` : undefined, started.agentType ? `(${started.agentType})` : undefined].filter(Boolean).join(' ');
    const how = finished ? `${finished.status}, ${finished.turns} turn${finished.turns === 1 ? '' : 's'}` : 'running';
    return `- \`${id}\`${who ? ` ${who}` : ''}: ${started.description ?? started.prompt.split('\n')[0]?.slice(0, 80)} — ${how}`;
  });
  return `Subagents (\`/revert ID\` undoes one's file changes):\n${lines.join('\n')}`;
}

function listSessions(sessions: Awaited<ReturnType<SessionHistory['list']>>, current: string): string {
  if (sessions.length === 0) return 'No sessions kept for this folder yet.';
  const lines = sessions.slice(0, 20).map((s) => `- ${s.title || '(untitled)'} — \`${s.id}\`, ${new Date(s.updatedAt).toISOString().slice(0, 16).replace('T', ' ')}${s.id === current ? ' (this one)' : ''}`);
  const more = sessions.length > 20 ? `\n…and ${sessions.length - 20} older.` : '';
  return `Sessions of this folder, newest first (your client's session list opens one):\n${lines.join('\n')}${more}`;
}

async function revert(agentId: string, c: CommandContext): Promise<string> {
  if (!agentId) return 'Name the subagent: `/revert ID` (its id is in `/agents`).';
  const plan = await c.stored.revertPlan(c.session.id, agentId);
  if ('error' in plan) return `Cannot revert: ${plan.error}.`;
  let report: Awaited<ReturnType<SessionHistory['revert']>>;
  try {
    report = await c.stored.revert(c.session.id, plan, c.session);
  } catch (err) {
    return `Cannot revert now: ${err instanceof Error ? err.message : String(err)}.`;
  }
  const lines = [
    ...report.files.map((f) => `- ${f.outcome} \`${f.path}\`${f.reason ? ` (${f.reason})` : ''}`),
    ...report.alreadyReverted.map((path) => `- already \`${path}\` (reverted earlier)`),
  ];
  if (lines.length === 0) return `Nothing to revert: ${plan.description} changed no files.`;
  const commands = report.commands.length ? `\nWhat these commands did beyond the workspace's files is not reverted: ${report.commands.map((x) => `\`${x}\``).join(', ')}.` : '';
  return `Reverted the changes of ${plan.description}:\n${lines.join('\n')}${commands}`;
}
