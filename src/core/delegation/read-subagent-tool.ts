/**
 * `read_subagent{id, what, offset?, limit?, diff?}`: read-only, bounded pages of a subagent's record — its tool
 * calls, the files it changed (diffs on request) or its messages — so its one-message report is not all its
 * parent can know. Pages come from the session (SubagentDirectory.page: child-pages.ts); this agent
 * may read its own subagents and theirs (its subtree), nobody else's. A page goes through the report guard
 * (report-guard.ts) as a task result does: the child's messages and its tools' outputs are untrusted text.
 */
import { asRecord, type ParseResult, type Tool } from '../tools/types';
import type { ReadWhat, SubagentDirectory } from './child-port';
import type { AgentIdentity } from '../vocabulary';

export interface ReadSubagentInput {
  id: string;
  what: ReadWhat;
  offset: number;
  limit: number;
  diff: boolean;
}

const WHATS: readonly ReadWhat[] = ['calls', 'files', 'transcript', 'output'];
const READ_DEFAULT_LIMIT = 20;
const READ_MAX_LIMIT = 100;

export function createReadSubagentTool(reader: AgentIdentity, directory: Pick<SubagentDirectory<unknown>, 'find' | 'childrenOf' | 'page'>): Tool<ReadSubagentInput> {
  /** Is `id` in the reader's subtree (a child, a grandchild…)? */
  const mine = (id: string): boolean => {
    let cur = directory.find(id);
    for (let depth = 0; cur && depth < 64; depth++) {
      if (cur.parentId === reader.agentId) return true;
      cur = directory.find(cur.parentId);
    }
    return false;
  };
  return {
    name: 'read_subagent',
    kind: 'read',
    // Offered from the first subagent on, then read on every request (issue 30). What it returns is defanged as task
    // results are, and the [harness] note that comes with such a page says so: not repeated here.
    description:
      'What one of your subagents (id or name) actually did, finished or running. what: "calls" (its tool calls: input, status, output excerpt), ' +
      '"files" (files it changed and commands it ran; diff: true adds the diffs), "transcript" (its messages) or "output" (a typed return\'s value). ' +
      `Pages of ${READ_DEFAULT_LIMIT} (limit up to ${READ_MAX_LIMIT}); a page ends with "N more; offset=…" when there is more. Check a report with it before relying on it.`,
    inputSchema: {
      type: 'object',
      properties: {
        id: { type: 'string' },
        what: { type: 'string', enum: [...WHATS] },
        offset: { type: 'integer', minimum: 0 },
        limit: { type: 'integer', minimum: 1, maximum: READ_MAX_LIMIT },
        diff: { type: 'boolean' },
      },
      required: ['id', 'what'],
    },
    parse(raw): ParseResult<ReadSubagentInput> {
      const rec = asRecord(raw);
      if (!rec || typeof rec.id !== 'string' || rec.id.trim() === '') return { ok: false, error: 'read_subagent needs "id": a subagent\'s id or name' };
      if (typeof rec.what !== 'string' || !(WHATS as readonly string[]).includes(rec.what)) return { ok: false, error: `"what" must be one of ${WHATS.map((w) => `"${w}"`).join(', ')}` };
      const int = (v: unknown, name: string, min: number): number | string | undefined =>
        v === undefined ? undefined : typeof v === 'number' && Number.isInteger(v) && v >= min ? v : `"${name}" must be an integer ≥ ${min}`;
      const offset = int(rec.offset, 'offset', 0);
      const limit = int(rec.limit, 'limit', 1);
      if (typeof offset === 'string') return { ok: false, error: offset };
      if (typeof limit === 'string') return { ok: false, error: limit };
      return { ok: true, input: { id: rec.id.trim(), what: rec.what as ReadWhat, offset: offset ?? 0, limit: Math.min(limit ?? READ_DEFAULT_LIMIT, READ_MAX_LIMIT), diff: rec.diff === true } };
    },
    describe: (input) => ({ summary: `${input.id} ${input.what}${input.offset ? ` from ${input.offset}` : ''}`, paths: [] }),
    async execute(input) {
      const entry = directory.find(input.id);
      if (!entry || !mine(entry.id)) {
        const own = directory.childrenOf(reader.agentId).map((c) => (c.name ? `${c.id} "${c.name}"` : c.id));
        return { content: `No subagent "${input.id}" of yours (${own.length ? `your subagents: ${own.join(', ')}` : 'you have started no subagent in this session'})`, isError: true };
      }
      // A page is the child's words and what its tools returned: defanged like its report.
      const { guardToolResult } = await import('../report/report-guard');
      return guardToolResult(await directory.page({ id: entry.id, what: input.what, offset: input.offset, limit: input.limit, diff: input.diff }), 'record');
    },
  };
}
