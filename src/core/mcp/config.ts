/**
 * MCP server configs, read from the two formats into one shape:
 *
 *   .mcp.json, --mcp-config     { "mcpServers": { NAME: { type?, command, args, env | url, headers } } }   Claude Code
 *   .vscode/mcp.json            { "servers": { NAME: { … , envFile } }, "inputs": [ { id, description, password } ] }
 *
 * The format is told by the root key, not the file name. `type` is stdio, http (`streamable-http` is the same),
 * or sse; without one a `command` means stdio and a `url` http. A file that cannot be used, or one server in it,
 * becomes a problem (file + why) for the host to report once; everything else still loads.
 */
import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { errorText } from '../errors';
import { parseEnvFile } from './env-file';
import { expandPlaceholders, inputIdsIn, type ExpandContext } from './expand';
import { parseJsonc } from './jsonc';

export type McpTransportKind = 'stdio' | 'http' | 'sse';

/** A VS Code `promptString` input a server needs (`${input:id}`). */
export interface McpInputSpec {
  id: string;
  description: string;
  password: boolean;
  default?: string;
}

export interface McpServerConfig {
  name: string;
  /** The file it came from (for messages). */
  source: string;
  /** `project`: found in the workspace (the editor asks before starting it); `explicit`: the user named the file. */
  origin: 'project' | 'explicit';
  transport: McpTransportKind;
  command?: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  url?: string;
  headers: Record<string, string>;
  /** `${input:id}` placeholders still in the values above, which the host fills before the start. */
  inputs: McpInputSpec[];
}

export interface McpConfigProblem {
  file: string;
  /** The server it concerns, when only one does. */
  server?: string;
  message: string;
}

export interface McpConfigSet {
  servers: McpServerConfig[];
  problems: McpConfigProblem[];
}

export interface McpConfigFile {
  path: string;
  origin: McpServerConfig['origin'];
  /** A file found by looking (the workspace's): missing is normal. A file the user named must exist. */
  optional: boolean;
  /** Inline JSON instead of a file (`--mcp-config '{"mcpServers": …}'`, as Claude Code accepts). */
  text?: string;
}

export interface LoadOptions {
  workspaceFolder: string;
  /** What `${VAR}` expands from: the tools' environment (credentials withheld), so a config cannot carry one out. */
  env: Record<string, string | undefined>;
  /** A variable set but withheld from tools: its `${VAR}` says how to pass it rather than "not set". */
  withheld?: (name: string) => boolean;
  userHome: string;
}

/** Reads every file; a later file's server replaces an earlier one of the same name (so a named file wins). */
export async function loadMcpConfigs(files: McpConfigFile[], opts: LoadOptions): Promise<McpConfigSet> {
  const byName = new Map<string, McpServerConfig>();
  const problems: McpConfigProblem[] = [];
  for (const file of files) {
    let text = file.text;
    if (text === undefined) {
      try {
        // Not opened unless it is a file: a FIFO (or a link to /dev/stdin) would wait for ever, /dev/zero never end.
        if (!(await stat(file.path)).isFile()) {
          problems.push({ file: file.path, message: 'is not a regular file (a device, a pipe or a folder)' });
          continue;
        }
        text = await readFile(file.path, 'utf8');
      } catch (err) {
        const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
        if (!(missing && file.optional)) problems.push({ file: file.path, message: missing ? 'no such file' : `cannot be read: ${errorText(err)}` });
        continue;
      }
    }
    const set = await parseMcpConfig(text, file, opts);
    problems.push(...set.problems);
    for (const server of set.servers) {
      byName.delete(server.name);
      byName.set(server.name, server);
    }
  }
  return { servers: [...byName.values()], problems };
}

async function parseMcpConfig(text: string, file: McpConfigFile, opts: LoadOptions): Promise<McpConfigSet> {
  const problem = (message: string, server?: string): McpConfigProblem => ({ file: file.path, message, ...(server !== undefined ? { server } : {}) });
  let root: unknown;
  try {
    root = parseJsonc(text);
  } catch (err) {
    return { servers: [], problems: [problem(`is not valid JSON: ${errorText(err)}`)] };
  }
  if (!isRecord(root)) return { servers: [], problems: [problem('must hold a JSON object')] };
  const dialect = isRecord(root.mcpServers) ? 'claude' : isRecord(root.servers) ? 'vscode' : undefined;
  if (!dialect) return { servers: [], problems: [problem('has no "mcpServers" object (Claude Code) nor "servers" object (VS Code)')] };
  const entries = (dialect === 'claude' ? root.mcpServers : root.servers) as Record<string, unknown>;
  const inputs = dialect === 'vscode' ? readInputs(root.inputs) : new Map<string, McpInputSpec>();
  const ctx: ExpandContext = { env: opts.env, workspaceFolder: opts.workspaceFolder, userHome: opts.userHome, dialect, ...(opts.withheld ? { withheld: opts.withheld } : {}) };
  const servers: McpServerConfig[] = [];
  const problems: McpConfigProblem[] = [];
  for (const [name, raw] of Object.entries(entries)) {
    const parsed = await parseServer(name, raw, file, ctx, inputs, opts.workspaceFolder);
    if (typeof parsed === 'string') problems.push(problem(parsed, name));
    else servers.push(parsed);
  }
  return { servers, problems };
}

async function parseServer(
  name: string,
  raw: unknown,
  file: McpConfigFile,
  ctx: ExpandContext,
  inputs: Map<string, McpInputSpec>,
  workspace: string,
): Promise<McpServerConfig | string> {
  if (!name.trim()) return 'a server has an empty name';
  if (!isRecord(raw)) return 'must be an object';
  const type = typeof raw.type === 'string' ? raw.type : raw.command !== undefined ? 'stdio' : raw.url !== undefined ? 'http' : undefined;
  const transport: McpTransportKind | undefined =
    type === 'stdio' ? 'stdio' : type === 'http' || type === 'streamable-http' || type === 'streamableHttp' ? 'http' : type === 'sse' ? 'sse' : undefined;
  if (!transport) return type === undefined ? 'has neither "command" (stdio) nor "url" (http)' : `has an unknown type "${type}" (stdio, http or sse)`;

  // Expansion of every string value; the first unusable placeholder makes the server unusable.
  let missing: string | undefined;
  const expand = (value: string): string => {
    const out = expandPlaceholders(value, { ...ctx, inputs: new Map() });
    if (out.ok) return out.value;
    // `${input:…}` stays for the host to fill at start; anything else is a problem now.
    if (!out.missing.startsWith('the input')) missing ??= out.missing;
    return inputsOnly(value, ctx);
  };
  const strings = (value: unknown, what: string): string[] | string => {
    if (value === undefined) return [];
    if (!Array.isArray(value) || !value.every(isScalar)) return `"${what}" must be a list of strings`;
    return value.map((v) => expand(String(v)));
  };
  const table = (value: unknown, what: string): Record<string, string> | string => {
    if (value === undefined) return {};
    if (!isRecord(value) || !Object.values(value).every(isScalar)) return `"${what}" must be an object of strings`;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(String(v))]));
  };

  const args = strings(raw.args, 'args');
  if (typeof args === 'string') return args;
  let env = table(raw.env, 'env');
  if (typeof env === 'string') return env;
  const headers = table(raw.headers, 'headers');
  if (typeof headers === 'string') return headers;
  let command: string | undefined;
  let url: string | undefined;
  if (transport === 'stdio') {
    if (typeof raw.command !== 'string' || !raw.command.trim()) return 'a stdio server needs a "command" string';
    command = expand(raw.command);
  } else {
    if (typeof raw.url !== 'string' || !raw.url.trim()) return `an ${transport} server needs a "url" string`;
    url = expand(raw.url);
    if (!missing && inputIdsIn(url).length === 0 && !/^https?:\/\//i.test(url)) return `"url" must be an http or https URL (got "${url}")`;
  }
  let cwd: string | undefined;
  if (typeof raw.cwd === 'string' && raw.cwd.trim()) cwd = resolve(workspace, expand(raw.cwd));
  if (typeof raw.envFile === 'string' && raw.envFile.trim() && transport === 'stdio') {
    const path = expand(raw.envFile);
    const full = isAbsolute(path) ? path : resolve(workspace, path);
    try {
      env = { ...parseEnvFile(await readFile(full, 'utf8')), ...env };
    } catch (err) {
      return `its envFile ${full} cannot be read: ${errorText(err)}`;
    }
  }
  if (missing) return `cannot start: ${missing}`;

  const used = [command ?? '', url ?? '', ...args, ...Object.values(env), ...Object.values(headers)].flatMap(inputIdsIn);
  const needs: McpInputSpec[] = [];
  for (const id of new Set(used)) {
    const spec = inputs.get(id);
    if (!spec) return `uses \${input:${id}}, but the file's "inputs" has no input "${id}"`;
    needs.push(spec);
  }
  return {
    name,
    source: file.path,
    origin: file.origin,
    transport,
    args,
    env,
    headers,
    inputs: needs,
    ...(command !== undefined ? { command } : {}),
    ...(url !== undefined ? { url } : {}),
    ...(cwd !== undefined ? { cwd } : {}),
  };
}

/** The config with `${input:id}` replaced by the values the host collected. */
export function withInputs(server: McpServerConfig, values: ReadonlyMap<string, string>): McpServerConfig {
  if (server.inputs.length === 0) return server;
  const fill = (text: string): string => text.replace(/\$\{input:([^}]+)\}/g, (whole, id: string) => values.get(id) ?? whole);
  const map = (t: Record<string, string>): Record<string, string> => Object.fromEntries(Object.entries(t).map(([k, v]) => [k, fill(v)]));
  return {
    ...server,
    args: server.args.map(fill),
    env: map(server.env),
    headers: map(server.headers),
    inputs: [],
    ...(server.command !== undefined ? { command: fill(server.command) } : {}),
    ...(server.url !== undefined ? { url: fill(server.url) } : {}),
  };
}

/** What would run, one line: the command and its arguments, or the URL (for approval prompts and messages). */
export function describeServer(server: McpServerConfig): string {
  if (server.transport !== 'stdio') return `${server.url ?? ''} (${server.transport})`;
  return [server.command ?? '', ...server.args].map(shellQuote).join(' ');
}

/**
 * A stable key of everything that decides what runs (inputs still as placeholders, so secrets are not in it):
 * an approval remembered under it is asked again when the command, an argument, the environment or the URL changes.
 */
export function serverFingerprint(server: McpServerConfig): string {
  const sorted = (t: Record<string, string>): [string, string][] => Object.entries(t).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([server.name, server.transport, server.command ?? null, server.args, sorted(server.env), server.cwd ?? null, server.url ?? null, sorted(server.headers)]);
}

function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function readInputs(raw: unknown): Map<string, McpInputSpec> {
  const inputs = new Map<string, McpInputSpec>();
  if (!Array.isArray(raw)) return inputs;
  for (const item of raw) {
    if (!isRecord(item) || typeof item.id !== 'string') continue;
    inputs.set(item.id, {
      id: item.id,
      description: typeof item.description === 'string' ? item.description : item.id,
      password: item.password === true,
      ...(typeof item.default === 'string' ? { default: item.default } : {}),
    });
  }
  return inputs;
}

/** A value whose only unresolved placeholders are `${input:…}`, with the rest expanded. */
function inputsOnly(value: string, ctx: ExpandContext): string {
  return value
    .split(/(\$\{input:[^}]+\})/)
    .map((part) => {
      if (part.startsWith('${input:')) return part;
      const out = expandPlaceholders(part, { ...ctx, inputs: new Map() });
      return out.ok ? out.value : part;
    })
    .join('');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isScalar(value: unknown): boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}
