/**
 * The MCP SDK, loaded on first use: a session without MCP servers never pays for it (its client, zod schemas
 * and transports are a good part of a start-up otherwise). The CLI's bundle keeps sdk-modules.ts in chunks of
 * its own; the extension's build makes it dist/mcp-sdk.js (see scripts/build.mjs).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { StdioFraming } from './stdio-transport';

export interface McpSdk extends StdioFraming {
  Client: typeof Client;
  StreamableHTTPClientTransport: typeof StreamableHTTPClientTransport;
  SSEClientTransport: typeof SSEClientTransport;
}

let loading: Promise<McpSdk> | undefined;

export function loadMcpSdk(): Promise<McpSdk> {
  loading ??= import('./sdk-modules').then((sdk) => ({
    Client: sdk.Client,
    StreamableHTTPClientTransport: sdk.StreamableHTTPClientTransport,
    SSEClientTransport: sdk.SSEClientTransport,
    ReadBuffer: sdk.ReadBuffer,
    serializeMessage: sdk.serializeMessage,
  }));
  return loading;
}
