// MCP configs: both formats into one shape, placeholders as Claude Code and VS Code expand them, and a bad
// file or server reported (file + why) while the rest still loads.
import assert from 'node:assert/strict';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describeServer, loadMcpConfigs, serverFingerprint, withInputs, type McpConfigFile } from '../../../src/core/mcp/config';
import { parseEnvFile } from '../../../src/core/mcp/env-file';
import { parseJsonc } from '../../../src/core/mcp/jsonc';
import { mcpResultToToolResult } from '../../../src/core/mcp/mcp-result';
import { mcpToolName } from '../../../src/core/mcp/mcp-tool';
import { must } from '../../kit/must';
import { tempDir } from '../../kit/temp-dirs';

const ws = (): string => tempDir('delegate-mcpcfg-');
const inline = (text: string, path = '/x/.mcp.json'): McpConfigFile => ({ path, origin: 'project', optional: false, text });

describe('MCP configs', () => {
  it('reads Claude Code .mcp.json: stdio, http (streamable-http too), sse; ${VAR} and ${VAR:-default} in every field', async () => {
    const workspace = ws();
    const text = JSON.stringify({
      mcpServers: {
        local: { command: '${TOOLS:-/opt}/bin/srv', args: ['--token', '${TOKEN}', '$NOT_EXPANDED'], env: { KEY: '${TOKEN}', EMPTY: '${UNSET_X:-}' } },
        remote: { type: 'streamable-http', url: 'https://${HOST}/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } },
        old: { type: 'sse', url: 'http://127.0.0.1:9/sse' },
      },
    });
    const set = await loadMcpConfigs([inline(text)], { workspaceFolder: workspace, env: { TOKEN: 't0k', HOST: 'example.test' }, userHome: '/home/u' });
    assert.deepEqual(set.problems, []);
    const [local, remote, old] = set.servers;
    assert.equal(local?.transport, 'stdio');
    assert.equal(local?.command, '/opt/bin/srv');
    assert.deepEqual(local?.args, ['--token', 't0k', '$NOT_EXPANDED']);
    assert.deepEqual(local?.env, { KEY: 't0k', EMPTY: '' });
    assert.equal(remote?.transport, 'http');
    assert.equal(remote?.url, 'https://example.test/mcp');
    assert.deepEqual(remote?.headers, { Authorization: 'Bearer t0k' });
    assert.equal(old?.transport, 'sse');
    assert.equal(describeServer(must(local)), "/opt/bin/srv --token t0k '$NOT_EXPANDED'");
  });

  it('an unset ${VAR} without a default makes that server unusable, named with the file; the others load', async () => {
    const text = JSON.stringify({ mcpServers: { bad: { command: 'x', env: { K: '${NOPE_UNSET}' } }, good: { command: 'y' }, worse: { type: 'ftp', url: 'x' } } });
    const set = await loadMcpConfigs([inline(text)], { workspaceFolder: ws(), env: {}, userHome: '/h' });
    assert.deepEqual(set.servers.map((s) => s.name), ['good']);
    assert.equal(set.problems.length, 2);
    assert.equal(set.problems[0]?.file, '/x/.mcp.json');
    assert.equal(set.problems[0]?.server, 'bad');
    assert.match(set.problems[0]?.message ?? '', /NOPE_UNSET is not set/);
    assert.match(set.problems[1]?.message ?? '', /unknown type "ftp"/);
  });

  it('a file that cannot be used is one problem; a missing optional file is none; a named one that is missing is one', async () => {
    const workspace = ws();
    writeFileSync(join(workspace, 'broken.json'), '{ "mcpServers": { ');
    writeFileSync(join(workspace, 'other.json'), '{ "tools": [] }');
    const set = await loadMcpConfigs(
      [
        { path: join(workspace, '.mcp.json'), origin: 'project', optional: true },
        { path: join(workspace, 'broken.json'), origin: 'explicit', optional: false },
        { path: join(workspace, 'other.json'), origin: 'explicit', optional: false },
        { path: join(workspace, 'gone.json'), origin: 'explicit', optional: false },
      ],
      { workspaceFolder: workspace, env: {}, userHome: '/h' },
    );
    assert.deepEqual(set.servers, []);
    assert.deepEqual(set.problems.map((p) => [p.file.slice(workspace.length + 1), p.message.split(':')[0]]), [
      ['broken.json', 'is not valid JSON'],
      ['other.json', 'has no "mcpServers" object (Claude Code) nor "servers" object (VS Code)'],
      ['gone.json', 'no such file'],
    ]);
  });

  it('a later file replaces a server of the same name (a named file beats the folder\'s)', async () => {
    const a = inline(JSON.stringify({ mcpServers: { s: { command: 'first' }, t: { command: 'kept' } } }));
    const b = inline(JSON.stringify({ mcpServers: { s: { command: 'second' } } }), '/cli.json');
    const set = await loadMcpConfigs([a, b], { workspaceFolder: ws(), env: {}, userHome: '/h' });
    assert.deepEqual(set.servers.map((s) => [s.name, s.command, s.source]), [['t', 'kept', '/x/.mcp.json'], ['s', 'second', '/cli.json']]);
  });

  it('reads VS Code .vscode/mcp.json: JSONC, ${workspaceFolder}, ${env:…}, envFile, and ${input:…} left for the host', async () => {
    const workspace = ws();
    mkdirSync(join(workspace, '.vscode'));
    writeFileSync(join(workspace, '.env.mcp'), '# comment\nexport FROM_FILE="a b"\nOVERRIDDEN=file\nPLAIN=x # trailing\n');
    const text = `{
      // VS Code writes comments
      "inputs": [{ "type": "promptString", "id": "api-key", "description": "The API key", "password": true }],
      "servers": {
        "gh": {
          "type": "stdio", "command": "\${workspaceFolder}/srv", "args": ["--key", "\${input:api-key}", "\${env:HOME_X}"],
          "envFile": "\${workspaceFolder}/.env.mcp", "env": { "OVERRIDDEN": "env" },
        },
        "missing": { "url": "http://127.0.0.1:1/mcp", "headers": { "X": "\${input:nope}" } },
      },
    }`;
    const set = await loadMcpConfigs([inline(text, join(workspace, '.vscode', 'mcp.json'))], { workspaceFolder: workspace, env: { HOME_X: '/hx' }, userHome: '/h' });
    assert.equal(set.problems.length, 1);
    assert.match(set.problems[0]?.message ?? '', /input "nope"/);
    const gh = must(set.servers[0]);
    assert.equal(gh.command, `${workspace}/srv`);
    assert.deepEqual(gh.args, ['--key', '${input:api-key}', '/hx']);
    assert.deepEqual(gh.env, { FROM_FILE: 'a b', OVERRIDDEN: 'env', PLAIN: 'x' });
    assert.deepEqual(gh.inputs, [{ id: 'api-key', description: 'The API key', password: true }]);
    const filled = withInputs(gh, new Map([['api-key', 's3cret']]));
    assert.deepEqual(filled.args, ['--key', 's3cret', '/hx']);
    assert.deepEqual(filled.inputs, []);
    // The approval key has the placeholder, not the secret; a changed argument changes it.
    assert.ok(!serverFingerprint(gh).includes('s3cret'));
    assert.notEqual(serverFingerprint(gh), serverFingerprint({ ...gh, args: [...gh.args, '--more'] }));
  });

  it('JSONC keeps comment-like text inside strings', () => {
    assert.deepEqual(parseJsonc('{"a": "http://x/*y*/", /* c */ "b": [1,], }'), { a: 'http://x/*y*/', b: [1] });
    assert.deepEqual(parseEnvFile('A=1\nB=\'two # not a comment\'\n'), { A: '1', B: 'two # not a comment' });
  });
});

describe('MCP results and names', () => {
  it('text as text, images as a note, resources as their text or a note, isError as an error result', () => {
    const png = Buffer.alloc(1229).toString('base64');
    const out = mcpResultToToolResult({
      content: [
        { type: 'text', text: 'hello' },
        { type: 'image', mimeType: 'image/png', data: png },
        { type: 'resource', resource: { uri: 'demo://t/1', text: 'inner text' } },
        { type: 'resource', resource: { uri: 'demo://b/1', mimeType: 'application/zip', blob: Buffer.alloc(10).toString('base64') } },
        { type: 'resource_link', uri: 'demo://l/2', name: 'Two', mimeType: 'text/plain', description: 'second' },
      ],
    });
    assert.equal(out.isError, undefined);
    assert.equal(out.content, 'hello\n\n[image: image/png, 1.2 KB]\n\n[resource demo://t/1]\ninner text\n\n[resource demo://b/1: application/zip, 10 B]\n\n[resource link: demo://l/2 (Two, text/plain) — second]');
    assert.deepEqual(mcpResultToToolResult({ content: [{ type: 'text', text: 'bad input' }], isError: true }), { content: 'bad input', isError: true });
    assert.equal(mcpResultToToolResult({ content: [], structuredContent: { a: 1 } }).content, '{\n  "a": 1\n}');
  });

  it('names keep what the API accepts, at most 64 characters', () => {
    assert.equal(mcpToolName('my.server', 'get/thing'), 'mcp__my_server__get_thing');
    assert.equal(mcpToolName('s', 'x'.repeat(100)).length, 64);
  });
});
