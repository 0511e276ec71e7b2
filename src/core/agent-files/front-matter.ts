/**
 * An agent file's front matter: split from its body, then read as YAML — or, when the YAML is invalid, line by line.
 *
 * Agent files are written by hand, and the commonest mistake is a plain `description:` holding `: `
 * ("Triggers on: 'cohort analysis', …" — 8 of VoltAgent's 158 files; Claude Code's own plugin agents whose example
 * dialogue runs on unindented lines, `user: "…"`). YAML refuses the whole block; Claude Code then drops the agent or
 * gives it a placeholder description (anthropics/claude-code#91871). Read leniently instead:
 *
 *   name: cohort-analysis                     a line that starts with a field an agent file has (FIELDS) begins
 *   description: Use when … Triggers on: 'x'  that field; `key: rest of line` is its value as written
 *   <example>                                 any other line continues the field above it (unindented
 *   user: "Add tests"                         dialogue, `Context:` lines, wrapped text)
 *   tools:                                    `- item` lines under an empty field make a list
 *     - Read
 *   model: sonnet                             one value alone on its line is read as YAML when it parses
 *                                             ('quoted', [a, b], 5, true), else kept as text
 */
import type { parseDocument as ParseDocument } from 'yaml';

/** Fields of Claude Code's and Copilot's agent files: only these start a field when the YAML is read leniently. */
export const FIELDS: ReadonlySet<string> = new Set([
  'name', 'description', 'tools', 'disallowedTools', 'disallowed-tools', 'model', 'maxTurns', 'permissionMode', 'color',
  'thinking', 'effort', 'tokenBudget', 'timeoutSeconds', 'budgetUsd',
  // Delegate's typed return: a JSON Schema as a YAML mapping (report/typed-output.ts)
  'output',
  // Claude Code's others (agent-extras.ts reads those Delegate acts on)
  'skills', 'mcpServers', 'hooks', 'memory', 'background', 'isolation', 'initialPrompt', 'disabled',
  // Copilot's (.agent.md)
  'target', 'argument-hint', 'handoffs', 'mcp-servers', 'infer', 'user-invocable', 'user-invokable',
  'disable-model-invocation', 'agents', 'mode', 'hidden', 'metadata',
]);

export interface FrontMatter {
  yaml: string;
  body: string;
}

/**
 * Splits `---\nyaml\n---\nbody`; the front matter's first line number is 2. A BOM, CRLF or lone-CR line ends and
 * spaces after a `---` (hand-written files have them) are read as the fence.
 */
export function splitFrontMatter(text: string): FrontMatter | undefined {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const open = /^---[ \t]*\n/.exec(normalized);
  if (!open) return undefined;
  const rest = normalized.slice(open[0].length);
  const close = /^---[ \t]*$/m.exec(rest);
  if (!close) return undefined;
  return { yaml: rest.slice(0, close.index), body: rest.slice(close.index + close[0].length + 1) };
}

export type FrontMatterRead =
  | { ok: true; fields: Record<string, unknown>; lenient?: { error: string; line?: number } }
  | { ok: false; reason: string; line?: number };

/**
 * The front matter's fields: YAML when it parses, else the lenient line reader with the YAML error kept for the warning.
 * `known`: the fields that start a line when read leniently (default: an agent file's; skills/ passes SKILL.md's).
 */
export function readFrontMatter(yaml: string, parseDocument: typeof ParseDocument, known: ReadonlySet<string> = FIELDS): FrontMatterRead {
  const doc = parseDocument(yaml);
  if (doc.errors.length === 0) {
    const data: unknown = doc.toJS();
    if (typeof data !== 'object' || data === null || Array.isArray(data)) return { ok: false, reason: 'the front matter is not a mapping of fields', line: 2 };
    return { ok: true, fields: data as Record<string, unknown> };
  }
  const err = doc.errors[0];
  // linePos is 1-based within the front matter, which starts on the file's second line.
  const at = err?.linePos?.[0]?.line;
  const line = at !== undefined ? at + 1 : undefined;
  const error = (err?.message.split('\n')[0] ?? 'parse error').replace(/ at line \d+, column \d+:?$/, '');
  const fields = readLineByLine(yaml, parseDocument, known);
  if (Object.keys(fields).length === 0) return { ok: false, reason: `invalid YAML: ${error}`, ...(line ? { line } : {}) };
  return { ok: true, fields, lenient: { error, ...(line ? { line } : {}) } };
}

interface RawField {
  first: string;
  more: string[];
}

function readLineByLine(yaml: string, parseDocument: typeof ParseDocument, known: ReadonlySet<string>): Record<string, unknown> {
  const raw = new Map<string, RawField>();
  let current: RawField | undefined;
  for (const line of yaml.split('\n')) {
    const m = /^([A-Za-z][\w-]*):(?:\s+(.*))?$/.exec(line.trimEnd());
    if (m && known.has(m[1] as string)) {
      current = { first: (m[2] ?? '').trim(), more: [] };
      raw.set(m[1] as string, current); // a field written twice: the last one, as YAML parsers that allow it do
    } else if (current) current.more.push(line);
  }
  const fields: Record<string, unknown> = {};
  for (const [key, field] of raw) fields[key] = valueOf(field, parseDocument);
  return fields;
}

function valueOf({ first, more }: RawField, parseDocument: typeof ParseDocument): unknown {
  const rest = trimBlank(more);
  if (first === '' && rest.length > 0 && rest.every((l) => /^\s*-\s+\S/.test(l))) {
    return rest.map((l) => scalar(l.replace(/^\s*-\s+/, '').trim(), parseDocument));
  }
  if (/^[|>][+-]?$/.test(first)) {
    const indent = Math.min(...rest.filter((l) => l.trim()).map((l) => /^\s*/.exec(l)?.[0].length ?? 0));
    const lines = rest.map((l) => l.slice(Number.isFinite(indent) ? indent : 0));
    return first.startsWith('|') ? lines.join('\n').trim() : lines.join(' ').replace(/\s+/g, ' ').trim();
  }
  if (rest.length === 0) return scalar(first, parseDocument);
  // Text that runs on: its lines as written, indentation dropped (a description's example dialogue keeps its lines).
  return [first, ...more.map((l) => l.trim())].join('\n').trim();
}

/** One value as YAML would read it when it is valid on its own ('quoted', "quoted", [a, b], 5, true); else the text. */
function scalar(text: string, parseDocument: typeof ParseDocument): unknown {
  if (text === '') return null;
  const doc = parseDocument(text);
  if (doc.errors.length > 0) return text;
  const value: unknown = doc.toJS();
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? text : value;
}

function trimBlank(lines: string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && !lines[start]?.trim()) start++;
  while (end > start && !lines[end - 1]?.trim()) end--;
  return lines.slice(start, end);
}
