/**
 * The job summary (GitHub-flavoured markdown, written by main.ts through core.summary): the run's status and
 * totals, then the subagent tree from the CLI's JSON result, one table row per subagent, nested by `parent_id`:
 *
 *   | Subagent              | Status    | Turns | Tokens | Cost    | Changes                    |
 *   | survey the parser     | completed | 3     | 4,210  | $0.0123 | 2 files (+14 −3), 1 command |
 *   | └ read the tests      | completed | 2     | 1,002  | $0.0031 | —                          |
 *
 * then each subagent's changed files and the final answer, folded. Pure: a string in, a string out.
 */
import type { ResultObject } from '../cli/output';
import type { Usage } from '../core/vocabulary';

type Subagent = ResultObject['subagents'][number];

/** Job summaries are cut at 1 MiB per step: the answer is cut well before. */
const MAX_RESULT_CHARS = 60_000;

export function buildSummary(result: ResultObject, prompt: string): string {
  const lines: string[] = [`### Delegate: ${result.status}`, ''];
  lines.push(`> ${cell(firstLine(prompt, 300))}`, '');
  lines.push('| Status | Turns | Tokens | Cost | Subagents | Session |', '| --- | --: | --: | --: | --: | --- |');
  lines.push(`| ${result.status} | ${result.num_turns} | ${tokens(result.usage)} | ${cost(result.total_cost_usd)} | ${result.subagents.length} | \`${result.session_id}\` |`, '');
  if (result.error) lines.push(`**${result.status === 'budget_exceeded' ? 'Budget' : 'Error'}:** ${cell(result.error)}`, '');

  if (result.subagents.length > 0) {
    lines.push('#### Subagents', '', '| Subagent | Type | Status | Turns | Tokens | Cost | Changes |', '| --- | --- | --- | --: | --: | --: | --- |');
    for (const { agent, depth } of tree(result.subagents)) {
      const name = `${depth > 0 ? `${'&nbsp;&nbsp;'.repeat(depth - 1)}└ ` : ''}${cell(agent.description) || agent.id}`;
      lines.push(`| ${name} | ${cell(agent.agent_type)}${agent.fork ? ' (fork)' : ''} | ${agent.status} | ${agent.num_turns} | ${tokens(agent.usage)} | ${cost(agent.cost_usd)} | ${changes(agent)} |`);
    }
    lines.push('');
    const changed = result.subagents.filter((s) => (s.changes?.files.length ?? 0) > 0);
    if (changed.length > 0) {
      lines.push('<details><summary>Changed files</summary>', '');
      for (const agent of changed) {
        lines.push(`- **${cell(agent.description) || agent.id}**`);
        for (const f of agent.changes?.files ?? []) lines.push(`  - \`${f.path.replace(/`/g, "'")}\` ${f.action} (+${f.added} −${f.removed})`);
      }
      lines.push('', '</details>', '');
    }
  }
  if (result.result.trim() !== '') {
    const text = result.result.length > MAX_RESULT_CHARS ? `${result.result.slice(0, MAX_RESULT_CHARS)}\n\n… (cut; the whole answer is the \`result\` output)` : result.result;
    lines.push('<details open><summary>Result</summary>', '', text, '', '</details>', '');
  }
  return lines.join('\n');
}

/** Depth-first, each agent under its parent, siblings in the order the CLI lists them (finishing order). */
export function tree(subagents: readonly Subagent[]): { agent: Subagent; depth: number }[] {
  const ids = new Set(subagents.map((s) => s.id));
  const children = new Map<string | null, Subagent[]>();
  for (const s of subagents) {
    // The main agent is not in the list: its children (and any orphan) are the tree's top level.
    const parent = s.parent_id !== null && ids.has(s.parent_id) ? s.parent_id : null;
    children.set(parent, [...(children.get(parent) ?? []), s]);
  }
  const out: { agent: Subagent; depth: number }[] = [];
  const walk = (parent: string | null, depth: number): void => {
    for (const agent of children.get(parent) ?? []) {
      out.push({ agent, depth });
      walk(agent.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

/** All the tokens an agent spent, as the CLI counts them (uncached, cache reads and writes, output). */
function tokens(u: Usage): string {
  return (u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens + u.output_tokens).toLocaleString('en-US');
}

function cost(usd: number | undefined): string {
  return usd === undefined ? '—' : `$${usd.toFixed(4)}`;
}

function changes(agent: Subagent): string {
  const files = agent.changes?.files ?? [];
  const commands = agent.changes?.commands.length ?? 0;
  const parts: string[] = [];
  if (files.length > 0) {
    const added = files.reduce((n, f) => n + f.added, 0);
    const removed = files.reduce((n, f) => n + f.removed, 0);
    parts.push(`${files.length} ${files.length === 1 ? 'file' : 'files'} (+${added} −${removed})`);
  }
  if (commands > 0) parts.push(`${commands} ${commands === 1 ? 'command' : 'commands'}`);
  return parts.join(', ') || '—';
}

/** Text safe inside a table cell: one line, no column breaks, no HTML. */
function cell(text: string): string {
  return text.replace(/\s+/g, ' ').trim().replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\|/g, '\\|');
}

function firstLine(text: string, max: number): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
