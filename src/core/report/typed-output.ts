/**
 * Typed returns: a child given a JSON Schema (task's `output_schema`, an agent file's `output:`) must end its final
 * message with a value that validates. How it gives the value, and why:
 *
 *   the task's prompt ─▶ + "[harness] … end your final message with one ```json block … this schema: …"
 *   its final message  ─▶ the last ```json fenced block (or the whole message, when it is bare JSON) ─▶ JSON.parse
 *                      ─▶ the schema (ajv, through the MCP SDK's validator: the library package.json already has)
 *        valid ─▶ its report is the prose before the block + the value (canonical JSON); `output` carries the value
 *        not   ─▶ the loop asks once more with the errors (OutputVerdict.note) ─▶ still not: the task fails with them
 *
 * A final fenced block rather than a `return` tool offered to typed children only: a tool would change the tools the
 * request starts with, which siblings share in the prompt cache; its input must be an object (a schema of an array
 * or a string would need wrapping); and ending on a tool call costs one more turn for the closing text. The block is
 * the answer itself, over any endpoint. JSON a model writes in a block can be malformed (a trailing comma): that is
 * a parse error the one retry shows it.
 */
import { guardReport } from './report-guard';

/** A final message's verdict (the loop's OutputVerdict, by shape: report/ does not import the loop). */
type OutputVerdict = { ok: true; value: unknown; report: string } | { ok: false; errors: string; note: string };

/** At most this much of the schema goes into the prompt (a huge schema is refused: it is the parent's mistake). */
const MAX_SCHEMA_CHARS = 20_000;
/** The errors shown to the child and the parent are cut here. */
const MAX_ERROR_CHARS = 2_000;
/** Deeper values are refused before anything recurses into them (the validator, the guard, JSON.stringify). */
const MAX_DEPTH = 64;

/** The last ```json (or ```JSON) block of a text, and the prose before it. */
const JSON_BLOCK = /```[ \t]*json[ \t]*\r?\n([\s\S]*?)\r?\n[ \t]*```/gi;

export interface TypedOutput {
  check(finalMessage: string): Promise<OutputVerdict>;
  /** What the child's prompt gets appended: the schema and how to answer. */
  promptNote: string;
}

/** A schema compiled into the child's check, or a one-line reason it cannot be (the parent's tool_result). */
export async function typedOutput(schema: unknown, source: string): Promise<TypedOutput | { error: string }> {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return { error: `${source} must be a JSON Schema object (e.g. {"type": "object", "properties": {…}})` };
  const text = JSON.stringify(schema);
  if (text.length > MAX_SCHEMA_CHARS) return { error: `${source} is ${text.length.toLocaleString('en-US')} characters of JSON; at most ${MAX_SCHEMA_CHARS.toLocaleString('en-US')}` };
  // Loaded only for a typed child: ajv is not on the start path. The bundle's chunk gives its named export.
  const { AjvJsonSchemaValidator } = await import('@modelcontextprotocol/sdk/validation/ajv');
  let validate: (value: unknown) => { valid: boolean; errorMessage?: string | undefined };
  try {
    validate = new AjvJsonSchemaValidator().getValidator(schema as never);
  } catch (err) {
    return { error: `${source} is not a usable JSON Schema: ${err instanceof Error ? err.message : String(err)}` };
  }
  const check = async (final: string): Promise<OutputVerdict> => {
    const found = valueOf(final);
    const errors = 'error' in found ? found.error : tooDeep(found.value) ? `the value is nested deeper than ${MAX_DEPTH} levels` : validationErrors(() => validate(found.value));
    if (errors === undefined && 'value' in found) return { ok: true, value: found.value, report: joinTypedReport(found.prose, found.value) };
    const cut = (errors ?? '').length > MAX_ERROR_CHARS ? `${(errors ?? '').slice(0, MAX_ERROR_CHARS)}…` : (errors ?? '');
    return { ok: false, errors: cut, note: retryNote(cut) };
  };
  return { check, promptNote: promptNote(text) };
}

/** Whether a parsed value nests deeper than MAX_DEPTH (walked without recursion: a hostile value may be 100,000 deep). */
function tooDeep(value: unknown): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [v, depth] = item;
    if (depth > MAX_DEPTH) return true;
    if (v && typeof v === 'object') for (const x of Object.values(v)) stack.push([x, depth + 1]);
  }
  return false;
}

/** The validator's words on a value, or undefined when it passes; a validator that throws (a schema's bad `pattern`) is an error too. */
function validationErrors(run: () => { valid: boolean; errorMessage?: string | undefined }): string | undefined {
  try {
    const result = run();
    return result.valid ? undefined : `the value does not match the schema: ${result.errorMessage ?? 'invalid'}`;
  } catch (err) {
    return `the value could not be checked against the schema: ${err instanceof Error ? err.message : String(err)}`;
  }
}

/** The value a final message gives: its last ```json block, else the whole message when it is bare JSON. */
function valueOf(final: string): { value: unknown; prose: string } | { error: string } {
  const blocks = [...final.matchAll(JSON_BLOCK)];
  const last = blocks.at(-1);
  if (!last || last.index === undefined) {
    const whole = parse(final.trim());
    return 'value' in whole ? { value: whole.value, prose: '' } : { error: 'the final message has no ```json block' };
  }
  const parsed = parse(last[1] ?? '');
  if ('error' in parsed) return { error: `its last \`\`\`json block is not JSON (${parsed.error})` };
  // Words after the block (told not to, a model may add a line) are kept: nothing the child said is dropped.
  return { value: parsed.value, prose: around(final, last.index, last[0].length) };
}

function parse(text: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

function promptNote(schema: string): string {
  return (
    '\n\n[harness] This task asks for a typed result. End your final message with one fenced ```json block holding a value that validates against this JSON Schema ' +
    '(anything you want to say goes before the block; nothing after it):\n```json\n' +
    `${schema}\n\`\`\``
  );
}

function retryNote(errors: string): string {
  return `[harness] Your final message did not give the typed result this task asks for: ${errors}. Answer again: your report, then one fenced \`\`\`json block, last, holding a value that validates against the JSON Schema you were given.`;
}

/** A typed report as the parent reads it: the prose, then the value as one ```json block. */
export function joinTypedReport(prose: string, value: unknown): string {
  const block = `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
  return prose ? `${prose}\n\n${block}` : block;
}

/** The prose of a typed report (joinTypedReport's), without its final block. */
export function typedReportProse(report: string): string {
  const last = [...report.matchAll(JSON_BLOCK)].at(-1);
  return last?.index !== undefined ? around(report, last.index, last[0].length) : report;
}

/** A text without the block at [index, index + length): what comes before it, then what comes after. */
function around(text: string, index: number, length: number): string {
  return [text.slice(0, index).trim(), text.slice(index + length).trim()].filter(Boolean).join('\n\n');
}

/** A child's value with every string in it through the report guard (it is untrusted text like its prose): still the same JSON shape. */
export function guardOutput(value: unknown): { value: unknown; found: string[] } {
  const found = new Set<string>();
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const g = guardReport(v);
      for (const f of g.found) found.add(f);
      return g.text;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [walkKey(k), walk(x)]));
    return v;
  };
  const walkKey = (k: string): string => walk(k) as string;
  return { value: walk(value), found: [...found] };
}
