/**
 * The settings table in docs/settings.md is the code's (core/settings/setting-table.ts and defaults.ts), and the
 * names in it are the ones the hosts really take: the CLI's --help, `delegate acp --help`, package.json's
 * `delegate.*` settings (whose defaults must be the core's: the editor keeps none of its own), action.yml's inputs.
 * UPDATE_SETTINGS_DOC=1 writes the table anew.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ACP_USAGE, USAGE } from '../../../src/cli/args';
import { OVERRIDE_DEFAULTS } from '../../../src/core/settings/defaults';
import { settingsTable, TABLE_END, TABLE_START } from '../../../src/core/settings/settings-doc';
import { SETTINGS } from '../../../src/core/settings/setting-table';
import { REPO } from '../../kit/run-cli';

const DOC = join(REPO, 'docs', 'settings.md');
const rows = Object.entries(SETTINGS);

/** Settings of the editor alone (how it reaches a model, its cards): not a session's, so not in the table. */
const EDITOR_ONLY = ['delegate.provider', 'delegate.vscodeModel', 'delegate.confirmFanout', 'delegate.confirmAboveUsd', 'delegate.reviewSubagentResults'];
/** The Action's inputs that are its own (the prompt, the folder, the key, its outputs), not a session's settings. */
// output-schema is one run's, not a session setting (the CLI's --output-schema).
const ACTION_ONLY = ['prompt', 'working-directory', 'fail-on-budget', 'upload-transcript', 'artifact-name', 'verbose', 'anthropic-api-key', 'output-schema'];

describe('the settings table', () => {
  it("docs/settings.md's table is the one made from the code", () => {
    const doc = readFileSync(DOC, 'utf8');
    const start = doc.indexOf(TABLE_START);
    const end = doc.indexOf(TABLE_END);
    assert.ok(start >= 0 && end > start, `${DOC} has the table's markers`);
    const made = `${TABLE_START}\n${settingsTable()}\n${TABLE_END}`;
    const current = doc.slice(start, end + TABLE_END.length);
    if (current !== made && process.env.UPDATE_SETTINGS_DOC) writeFileSync(DOC, doc.replace(current, made));
    else assert.equal(current, made, 'docs/settings.md differs from the code: run UPDATE_SETTINGS_DOC=1 npx mocha --no-config --node-option import=tsx --extension ts test/core/settings/settings-doc.test.ts');
  });

  it("every flag is the CLI's (--help), and every flag delegate acp takes is in its --help", () => {
    for (const [key, row] of rows) {
      if (row.flag) assert.ok(USAGE.includes(`  ${row.flag} `), `${key}: ${row.flag} is not in delegate --help`);
      if (row.flag && row.acp === undefined) assert.ok(ACP_USAGE.includes(`  ${row.flag} `), `${key}: ${row.flag} is not in delegate acp --help`);
      if (row.env) assert.ok(USAGE.includes(row.env) || ['DELEGATE_MODEL_ALIASES', 'MCP_TIMEOUT', 'MCP_TOOL_TIMEOUT'].includes(row.env), `${key}: ${row.env} is not in delegate --help`);
    }
  });

  it("every editor setting is package.json's, with the core's default; package.json has no session setting the table lacks", () => {
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, { default?: unknown }> } } };
    const properties = pkg.contributes.configuration.properties;
    const named = new Set<string>();
    for (const [key, row] of rows) {
      if (!row.editor?.startsWith('delegate.')) continue;
      named.add(row.editor);
      const property = properties[row.editor];
      assert.ok(property, `${key}: ${row.editor} is not in package.json`);
      const core = (OVERRIDE_DEFAULTS as Record<string, unknown>)[key];
      // No default in the core (from the model, none): the editor's is "not set" (0, '', {}, []).
      if (core === undefined) assert.ok([0, '', undefined].includes(property.default as never) || JSON.stringify(property.default).match(/^(\{\}|\[\])$/), `${row.editor}'s default ${JSON.stringify(property.default)} is a value the core does not have`);
      else assert.deepEqual(property.default, core, `${row.editor}'s default is not the core's`);
    }
    for (const name of Object.keys(properties)) assert.ok(named.has(name) || EDITOR_ONLY.includes(name), `${name} is not in the settings table`);
  });

  it("every Action input is action.yml's and becomes the setting's flag (or variable)", () => {
    const yml = readFileSync(join(REPO, 'action.yml'), 'utf8');
    const inputs = [...(yml.split(/^outputs:/m)[0] ?? '').matchAll(/^ {2}([a-z-]+):$/gm)].map((m) => m[1]);
    const inputsTs = readFileSync(join(REPO, 'src', 'action', 'inputs.ts'), 'utf8');
    const named = new Set<string>();
    for (const [key, row] of rows) {
      if (!row.action) continue;
      named.add(row.action);
      assert.ok(inputs.includes(row.action), `${key}: ${row.action} is not an input of action.yml`);
      if (row.flag) assert.equal(row.flag, `--${row.action}`, `${key}: the input ${row.action} becomes ${row.flag}`);
      else assert.ok(row.env && inputsTs.includes(row.env), `${key}: the input ${row.action} becomes ${row.env}`);
    }
    for (const input of inputs) assert.ok(named.has(input ?? '') || ACTION_ONLY.includes(input ?? ''), `action.yml's ${input} is not in the settings table`);
  });
});
