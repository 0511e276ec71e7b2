/**
 * An MCP server's tool as one of ours: `mcp__<server>__<tool>`, the server's input schema as is (less its
 * `$schema` tag), kind `external`, read-only when the server says so (`annotations.readOnlyHint`), so plan mode
 * may run it. Names keep what the API accepts (letters, digits, `_`, `-`; at most 64): anything else becomes `_`,
 * as Claude Code does, so `mcp__…` names in agent files and `--allowed-tools` mean the same tools in both.
 */
import { describeInput, type Tool, type ToolResult } from '../tools/types';
import type { McpToolInfo } from './server-connection';

export type McpToolInput = Record<string, unknown>;

const MAX_NAME = 64;
const MAX_DESCRIPTION = 2048;

/** The part of a server connection a tool needs. */
export interface McpCaller {
  call(tool: string, args: McpToolInput, signal: AbortSignal): Promise<ToolResult>;
}

function normalizeMcpName(part: string): string {
  return part.replace(/[^A-Za-z0-9_-]/g, '_');
}

export function mcpToolName(server: string, tool: string): string {
  return `mcp__${normalizeMcpName(server)}__${normalizeMcpName(tool)}`.slice(0, MAX_NAME);
}

export function createMcpTool(server: string, info: McpToolInfo, caller: McpCaller): Tool<McpToolInput> {
  const { $schema: _ignored, ...schema } = info.inputSchema;
  const description = (info.description?.trim() || info.title || `Tool ${info.name} of the MCP server ${server}.`).slice(0, MAX_DESCRIPTION);
  return {
    name: mcpToolName(server, info.name),
    kind: 'external',
    ...(info.annotations?.readOnlyHint === true ? { readOnly: true } : {}),
    description,
    inputSchema: { ...schema, type: 'object' },
    parse(raw) {
      // The server validates against its own schema and says what is wrong; here only the shape is checked.
      if (raw === undefined || raw === null) return { ok: true, input: {} };
      if (typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, error: 'input must be a JSON object' };
      return { ok: true, input: raw as McpToolInput };
    },
    // A server's tool has no words of its own for a call: its input says it (`key: value`, no paths).
    describe: (input) => describeInput(input),
    execute: (input, ctx) => caller.call(info.name, input, ctx.signal),
  };
}
