/**
 * An agent file's `memory` (Claude Code): a folder of its own that outlives the session, where the agent keeps
 * what it learns. Where Claude Code puts it, by scope:
 *
 *   user     ~/.claude/agent-memory/<name>/          across every project
 *   project  <workspace>/.claude/agent-memory/<name>/        shared through version control
 *   local    <workspace>/.claude/agent-memory-local/<name>/  this checkout only (not for version control)
 *
 * When the agent starts: the folder is made if missing, the head of its MEMORY.md (200 lines, at most 25 KB, as
 * Claude Code) goes into its system prompt with how to keep it, and it gets three tools that reach that folder and
 * nothing else — memory_read, memory_write, memory_edit (the file tools rooted there: a path that leaves it is
 * refused). Its other tools are its file's: memory gives no wider access to the workspace.
 */
import { mkdir, readFile, realpath } from 'node:fs/promises';
import { join, sep } from 'node:path';
import type { AgentDefinition } from '../agent-files/agent-definition';
import type { AgentMemoryNote } from '../events';
import { createEditFileTool } from '../tools/edit-file';
import { createNodeFileOps } from '../tools/node-file-ops';
import { PathLocks } from '../tools/path-locks';
import { createReadFileTool } from '../tools/read-file';
import type { AnyTool } from '../tools/types';
import { createWriteFileTool } from '../tools/write-file';

const HEAD_LINES = 200;
const HEAD_BYTES = 25_000;

/** The memory tools' names: the permission policy lets them write without a question (never in plan mode). */
export const MEMORY_TOOLS = ['memory_read', 'memory_write', 'memory_edit'] as const;

export interface AgentMemory {
  dir: string;
  /** What its agent_started says of it (the panel's marker): scope, folder, refused. */
  note: AgentMemoryNote;
  /** What its system prompt gets: where the folder is, how to keep it, MEMORY.md's head. */
  prompt: string;
  tools: AnyTool[];
}

function memoryDir(scope: NonNullable<AgentDefinition['memory']>, name: string, workdir: string, home: string): string {
  if (scope === 'user') return join(home, '.claude', 'agent-memory', name);
  return join(workdir, '.claude', scope === 'project' ? 'agent-memory' : 'agent-memory-local', name);
}

/** MEMORY.md's first 200 lines, cut at 25 KB, and what was left out; '' when there is none yet. */
async function memoryHead(dir: string): Promise<string> {
  const text = await readFile(join(dir, 'MEMORY.md'), 'utf8').catch(() => '');
  const lines = text.split('\n');
  let head = lines.slice(0, HEAD_LINES).join('\n');
  if (Buffer.byteLength(head) > HEAD_BYTES) head = Buffer.from(head).subarray(0, HEAD_BYTES).toString('utf8').replace(/\uFFFD$/, '');
  const cut = head.length < text.trimEnd().length;
  return cut ? `${head}\n[MEMORY.md goes on past here (${lines.length} lines): read it with memory_read, and move details into other files so its head stays whole]` : head;
}

/** One of the file tools, renamed and described as a memory tool; its paths are the folder's, so none is the workspace's. */
function asMemoryTool(tool: AnyTool, name: string, what: string): AnyTool {
  return { ...tool, name, description: `${what} A path is relative to your memory folder, and a path that leaves it is refused. ${tool.description}`, describe: (input: never) => ({ ...tool.describe(input), paths: [] }) } as AnyTool;
}

export async function loadAgentMemory(def: AgentDefinition, workdir: string, home: string): Promise<AgentMemory | undefined> {
  if (!def.memory) return undefined;
  const dir = memoryDir(def.memory, def.name, workdir, home);
  const note: AgentMemoryNote = { scope: def.memory, dir };
  await mkdir(dir, { recursive: true });
  // A repository's folder may be a link out of it (to ~/.ssh): its memory tools would write there unasked.
  if (def.memory !== 'user') {
    const [real, root] = await Promise.all([realpath(dir), realpath(workdir)]);
    if (!real.startsWith(`${root}${sep}`)) {
      return { dir, note: { ...note, refused: true }, prompt: `# Your memory\nYour memory folder ${dir} is not usable: it leads out of the workspace (to ${real}), so you have no memory in this run. Say so in your report.`, tools: [] };
    }
  }
  const ops = createNodeFileOps();
  const locks = new PathLocks();
  const tools = [
    asMemoryTool(createReadFileTool(dir, ops) as AnyTool, 'memory_read', 'Reads a file of your persistent memory folder.'),
    asMemoryTool(createWriteFileTool(dir, ops, locks) as AnyTool, 'memory_write', 'Writes a file of your persistent memory folder.'),
    asMemoryTool(createEditFileTool(dir, ops, locks) as AnyTool, 'memory_edit', 'Edits a file of your persistent memory folder.'),
  ];
  const head = await memoryHead(dir);
  const prompt = [
    '# Your memory',
    `You have a persistent memory folder, ${dir} (${def.memory} scope), kept across sessions: build it up with what you learn (codebase patterns, decisions, recurring problems) so later runs start from it.`,
    'Read and change it only with memory_read, memory_write and memory_edit (paths relative to the folder); they reach nothing else. Check it before you start; record what you learned before you report.',
    `MEMORY.md is its index: its first ${HEAD_LINES} lines are put here at every start, so keep it short and put details in other files of the folder, linked from it.`,
    head ? `## MEMORY.md\n${head}` : 'MEMORY.md is empty: nothing is recorded yet.',
  ].join('\n');
  return { dir, note, prompt, tools };
}
