/**
 * A reply's tool calls, read once where the loop takes them from the model's message:
 *
 *   tool_use ─▶ its tool (or none) ─▶ input parsed ─▶ the tool's describe() ─▶ OpenCall ─┬─▶ `pending` patch (the record)
 *                                                                                       └─▶ tool-executor.ts (runs `parsed`)
 *
 * The executor runs what was parsed here; only a PreToolUse hook's new input is parsed again (a new input). A call
 * whose tool is unknown, or whose input is not JSON or does not parse, is described by its input alone
 * (tools/types.ts describeInput) and ends in error when its turn comes, with the words the model gets.
 */
import type { EventBody, ToolCallDescription } from '../events';
import { INVALID_TOOL_INPUT, type ToolUseBlock } from '../llm/types';
import { oneLine } from '../shown-text';
import { describeInput, type AnyTool, type CallDescription, type ParseResult, type ToolRegistry } from '../tools/types';

export interface OpenCall {
  use: ToolUseBlock;
  /** Its tool; none for a name the agent does not have. */
  tool: AnyTool | undefined;
  /** The input as the tool parsed it (undefined: no tool, or the input was not JSON). */
  parsed: ParseResult<unknown> | undefined;
  /**
   * The tool's own words on the parsed input, whole (a permission prompt shows the whole command); undefined when
   * it has none to say or its describe() failed (the call then fails when it runs, as it would have).
   */
  said: CallDescription | undefined;
  /** What the call's record says it is. */
  description: ToolCallDescription;
}

/** Every tool_use of a reply, in order, each read once. */
export function readCalls(uses: readonly ToolUseBlock[], tools: ToolRegistry): OpenCall[] {
  return uses.map((use) => {
    const tool = tools.get(use.name);
    const garbled = invalidJson(use.input);
    const parsed = tool && garbled === undefined ? tool.parse(use.input) : undefined;
    const said = tool && parsed?.ok ? toolWords(tool, parsed.input) : undefined;
    // Without the tool's words, the input speaks for the call (or, not JSON, the text the model wrote).
    const shown = said ?? (garbled !== undefined ? { summary: garbled, paths: [] } : describeInput(use.input));
    return { use, tool, parsed, said, description: recordOf(tool, shown, use.input) };
  });
}

/** A tool's describe() of an input it parsed; undefined when it throws or answers something else than a description. */
export function toolWords(tool: AnyTool, input: unknown): CallDescription | undefined {
  try {
    const said = tool.describe(input);
    return typeof said.summary === 'string' && Array.isArray(said.paths) && said.paths.every((p) => typeof p === 'string') ? said : undefined;
  } catch {
    return undefined;
  }
}

/** The record's description: the summary's first line, its paths, the input as given. */
export function recordOf(tool: AnyTool | undefined, said: CallDescription, input: unknown): ToolCallDescription {
  return { ...(tool ? { kind: tool.kind } : {}), summary: oneLine(said.summary), paths: said.paths, input };
}

/** The record's first patch. */
export function pendingPatch(call: OpenCall): EventBody {
  return { type: 'tool_call', id: call.use.id, name: call.use.name, state: 'pending', ...call.description };
}

/** The raw text of a tool input the stream could not parse as JSON, if that is what this is. */
export function invalidJson(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null || !(INVALID_TOOL_INPUT in input)) return undefined;
  return String((input as Record<string, unknown>)[INVALID_TOOL_INPUT]);
}
