/**
 * The MCP SDK, loaded on first use: a session without MCP servers never pays for it (its client, zod schemas
 * and transports are a good part of a start-up otherwise), and the CLI's bundle keeps it in a chunk of its own.
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
  loading ??= Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
    import('@modelcontextprotocol/sdk/shared/stdio.js'),
  ]).then(([client, http, sse, stdio]) => ({
    Client: client.Client,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    SSEClientTransport: sse.SSEClientTransport,
    ReadBuffer: stdio.ReadBuffer,
    serializeMessage: stdio.serializeMessage,
  }));
  return loading;
}
