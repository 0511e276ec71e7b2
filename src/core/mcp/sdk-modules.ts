/**
 * The parts of the MCP SDK Delegate uses, in one module that is only ever imported dynamically (sdk.ts).
 * The extension's build makes it a file of its own (dist/mcp-sdk.js): its CommonJS bundle cannot split, and
 * the SDK inside it would be parsed at every activation (+460 KB minified, ~+50 ms measured) for no server.
 */
export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
export { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
export { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
