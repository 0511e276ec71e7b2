/**
 * The tool names of Copilot's agent files (VS Code's `.agent.md`, GitHub's custom agents) in Delegate's names, so
 * an agent from a public collection gets the tools it asks for. Names are case-insensitive, bare or namespaced:
 *
 *   tool sets       read → read_file          search → glob, grep         edit → edit_file, write_file
 *                   execute → bash            web → web_fetch, web_search agent → task
 *   their tools     read/readFile, search/codebase, search/fileSearch, search/textSearch, search/listDirectory,
 *                   search/usages, edit/editFiles, edit/createFile, execute/runInTerminal, web/fetch,
 *                   agent/runSubagent, … — and the same without the set (`readFile`, `runInTerminal`, `fetch`)
 *   GitHub aliases  shell, powershell (execute) · NotebookRead (read) · NotebookEdit (edit) · custom-agent (agent)
 *   `*`             every tool                `server/*`, `server/tool`   an MCP server's tools (mcp__server…)
 *
 * VS Code's tools with no counterpart here (problems, todos, testFailure, githubRepo, vscode/…, extension tools
 * `publisher.ext/tool`) are named back as `editorOnly`: the caller says so once, and the agent loads without them.
 * Sources: code.visualstudio.com/docs/agents/reference/tools-reference, docs.github.com …/custom-agents-configuration.
 */

const SETS: Record<string, readonly string[]> = {
  read: ['read_file'],
  search: ['glob', 'grep'],
  edit: ['edit_file', 'write_file'],
  execute: ['bash'],
  web: ['web_fetch', 'web_search'],
  agent: ['task'],
  // GitHub's compatible aliases of the sets (Bash, Read, Edit, … are Claude Code's names: tool-names.ts).
  shell: ['bash'],
  powershell: ['bash'],
  notebookread: ['read_file'],
  notebookedit: ['edit_file', 'write_file'],
  'custom-agent': ['task'],
  // Sets of earlier VS Code versions, still in many files.
  runcommands: ['bash'],
  runtasks: ['bash'],
};

/** One tool of a set, by its bare name (lower case); [] = VS Code's only. */
const TOOLS: Record<string, readonly string[]> = {
  readfile: ['read_file'],
  codebase: ['read_file', 'glob', 'grep'],
  filesearch: ['glob'],
  textsearch: ['grep'],
  listdirectory: ['glob'],
  usages: ['grep'],
  editfiles: ['edit_file', 'write_file'],
  createfile: ['write_file'],
  runinterminal: ['bash'],
  terminal: ['bash'],
  createandruntask: ['bash'],
  runtask: ['bash'],
  fetch: ['web_fetch'],
  websearch: ['web_search'],
  runsubagent: ['task'],
  // No counterpart in Delegate.
  problems: [],
  changes: [],
  searchresults: [],
  searchsubagent: [],
  createdirectory: [],
  editnotebook: [],
  createjupyternotebook: [],
  getnotebooksummary: [],
  readnotebookcelloutput: [],
  runnotebookcell: [],
  getterminaloutput: [],
  awaitterminal: [],
  killterminal: [],
  terminallastcommand: [],
  terminalselection: [],
  gettaskoutput: [],
  testfailure: [],
  runtests: [],
  findtestfiles: [],
  githubrepo: [],
  githubtextsearch: [],
  todos: [],
  todo: [],
  todowrite: [],
  new: [],
  newworkspace: [],
  opensimplebrowser: [],
  extensions: [],
  installextension: [],
  getprojectsetupinfo: [],
  runcommand: [],
  vscodeapi: [],
  askquestions: [],
  memory: [],
};

/** Namespaces of VS Code's own tools (not MCP servers): a tool of theirs not listed above is VS Code's only. */
const EDITOR_NAMESPACES = new Set([...Object.keys(SETS), 'vscode', 'browser', 'todo', 'todos']);

export type CopilotToolName =
  | { kind: 'tools'; tools: readonly string[] }
  | { kind: 'all' }
  | { kind: 'mcp'; name: string }
  | { kind: 'editorOnly' }
  | { kind: 'unknown' };

/** What one name of a Copilot agent file's `tools` stands for. */
export function copilotToolName(raw: string): CopilotToolName {
  const name = raw.trim().toLowerCase();
  if (name === '*') return { kind: 'all' };
  const slash = name.indexOf('/');
  if (slash === -1) {
    const set = SETS[name];
    if (set) return { kind: 'tools', tools: set };
    const tool = TOOLS[name];
    if (tool) return tool.length ? { kind: 'tools', tools: tool } : { kind: 'editorOnly' };
    return { kind: 'unknown' };
  }
  const space = name.slice(0, slash);
  const tool = name.slice(slash + 1);
  if (EDITOR_NAMESPACES.has(space)) {
    if (tool === '*') return SETS[space] ? { kind: 'tools', tools: SETS[space] } : { kind: 'editorOnly' };
    const mapped = TOOLS[tool];
    return mapped?.length ? { kind: 'tools', tools: mapped } : { kind: 'editorOnly' };
  }
  // `publisher.extension/tool`: a VS Code extension's tool.
  if (space.includes('.')) return { kind: 'editorOnly' };
  // An MCP server's tools, in the case the file wrote them (server names are case-sensitive).
  const server = raw.trim().slice(0, slash).replace(/[^A-Za-z0-9_-]/g, '_');
  const serverTool = raw.trim().slice(slash + 1).replace(/[^A-Za-z0-9_-]/g, '_');
  return { kind: 'mcp', name: tool === '*' ? `mcp__${server}` : `mcp__${server}__${serverTool}` };
}
