// Copilot's tool names (VS Code's tool sets and namespaced tools, GitHub's aliases) in Delegate's names, as the
// agent files of public collections write them.
import assert from 'node:assert/strict';
import { mapToolNames } from '../../../src/core/agent-files/agent-catalog';
import { copilotToolName } from '../../../src/core/agent-files/copilot-tools';

const ALL = new Set(['bash', 'read_file', 'write_file', 'edit_file', 'glob', 'grep', 'web_fetch', 'web_search', 'task']);
const tools = (...names: string[]) => mapToolNames(names, ALL).tools.sort();

describe('Copilot tool names', () => {
  it('maps the tool sets, bare', () => {
    assert.deepEqual(tools('read'), ['read_file']);
    assert.deepEqual(tools('search'), ['glob', 'grep']);
    assert.deepEqual(tools('edit'), ['edit_file', 'write_file']);
    assert.deepEqual(tools('execute'), ['bash']);
    assert.deepEqual(tools('web'), ['web_fetch', 'web_search']);
    assert.deepEqual(tools('agent'), ['task']);
    assert.deepEqual(tools('search/*', 'edit/*'), ['edit_file', 'glob', 'grep', 'write_file']);
  });

  it('maps each namespaced tool, and the same name bare, case-insensitively', () => {
    const cases: [string, string[]][] = [
      ['read/readFile', ['read_file']],
      ['search/codebase', ['glob', 'grep', 'read_file']],
      ['search/fileSearch', ['glob']],
      ['search/textSearch', ['grep']],
      ['search/listDirectory', ['glob']],
      ['search/usages', ['grep']],
      ['search/readFile', ['read_file']],
      ['edit/editFiles', ['edit_file', 'write_file']],
      ['edit/createFile', ['write_file']],
      ['execute/runInTerminal', ['bash']],
      ['runCommands/runInTerminal', ['bash']],
      ['web/fetch', ['web_fetch']],
      ['agent/runSubagent', ['task']],
    ];
    for (const [name, want] of cases) {
      assert.deepEqual(tools(name), want, name);
      assert.deepEqual(tools(name.slice(name.indexOf('/') + 1)), want, `${name} bare`);
      assert.deepEqual(tools(name.toUpperCase()), want, `${name} in capitals`);
    }
  });

  it("GitHub's aliases, and Claude Code's names before Copilot's (Edit is edit_file, edit is the set)", () => {
    assert.deepEqual(tools('shell'), ['bash']);
    assert.deepEqual(tools('powershell'), ['bash']);
    assert.deepEqual(tools('custom-agent'), ['task']);
    assert.deepEqual(tools('NotebookRead'), ['read_file']);
    assert.deepEqual(tools('Edit'), ['edit_file']);
    assert.deepEqual(tools('edit'), ['edit_file', 'write_file']);
  });

  it('`*` is every tool; server/* and server/tool are an MCP server’s tools', () => {
    assert.equal(mapToolNames(['*'], ALL).all, true);
    assert.deepEqual(copilotToolName('github/*'), { kind: 'mcp', name: 'mcp__github' });
    assert.deepEqual(copilotToolName('my-server/get_issue'), { kind: 'mcp', name: 'mcp__my-server__get_issue' });
    assert.deepEqual(copilotToolName('Context7/resolve.library'), { kind: 'mcp', name: 'mcp__Context7__resolve_library' });
  });

  it('VS Code-only tools are set apart from unknown names; tools the session lacks make a name unknown', () => {
    const mapped = mapToolNames(['read/problems', 'todos', 'vscode/askQuestions', 'ms-vscode.vscode-websearchforcopilot/websearch', 'githubRepo', 'frobnicate', 'read/readFile'], ALL);
    assert.deepEqual(mapped.tools, ['read_file']);
    assert.deepEqual(mapped.editorOnly, ['read/problems', 'todos', 'vscode/askQuestions', 'ms-vscode.vscode-websearchforcopilot/websearch', 'githubRepo']);
    assert.deepEqual(mapped.unknown, ['frobnicate']);
    assert.deepEqual(mapToolNames(['search/textSearch'], new Set(['read_file'])).unknown, ['search/textSearch']);
  });
});
