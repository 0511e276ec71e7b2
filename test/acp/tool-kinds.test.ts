/** How Delegate's tools read to an ACP client: kinds, titles, locations (src/acp/tool-kinds.ts). */
import assert from 'node:assert/strict';
import { locationsOf, toolKindOf, toolTitle } from '../../src/acp/tool-kinds';

describe('acp tool kinds', () => {
  it('gives each tool its ACP kind, a lone rm / mv its delete / move, MCP tools other', () => {
    assert.equal(toolKindOf('read_file', { path: 'a' }), 'read');
    assert.equal(toolKindOf('edit_file', {}), 'edit');
    assert.equal(toolKindOf('write_file', {}), 'edit');
    assert.equal(toolKindOf('grep', {}), 'search');
    assert.equal(toolKindOf('glob', {}), 'search');
    assert.equal(toolKindOf('web_fetch', {}), 'fetch');
    assert.equal(toolKindOf('task', {}), 'think');
    assert.equal(toolKindOf('mcp__docs__search', {}), 'other');
    assert.equal(toolKindOf('bash', { command: 'npm test' }), 'execute');
    assert.equal(toolKindOf('bash', { command: 'rm -f build/a.o' }), 'delete');
    assert.equal(toolKindOf('bash', { command: 'git mv a.ts b.ts' }), 'move');
    // Anything more than one simple command may do more than that.
    assert.equal(toolKindOf('bash', { command: 'rm a && npm test' }), 'execute');
    assert.equal(toolKindOf('bash', { command: 'mv a b; curl x' }), 'execute');
  });

  it('titles a call by what it does, and makes its paths absolute', () => {
    assert.equal(toolTitle('read_file', 'src/a.ts'), 'Read src/a.ts');
    assert.equal(toolTitle('task', 'find the config'), 'Delegate: find the config');
    assert.equal(toolTitle('mcp__docs__search', undefined), 'mcp__docs__search');
    assert.deepEqual(locationsOf('/ws', ['src/a.ts', '/abs/b.ts', '']), [{ path: '/ws/src/a.ts' }, { path: '/abs/b.ts' }]);
  });
});
