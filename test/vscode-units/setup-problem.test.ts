/**
 * The buttons and words of first-run problems (src/view-model/setup-problem.ts), which the panel's card, the line under
 * its composer and the editor's toast all show: an editor model is offered only when the editor has one, Set API Key
 * comes first where a key fixes it, and a 401/403 from the core reads as a refused key.
 */
import assert from 'node:assert/strict';
import { problemBrief, rejectedKey, setupButtons, type SetupProblem } from '../../src/view-model/setup-problem';

const labels = (p: SetupProblem): string[] => setupButtons(p).map((b) => b.label);

describe('first-run problems: buttons and words', () => {
  it('never offers a model picker when the editor has no model', () => {
    for (const kind of ['credentials', 'key', 'model', 'rejected'] as const) {
      const none = labels({ kind, message: 'x', editorModels: 0 });
      assert.ok(!none.includes('Use an editor model…'), kind);
      assert.ok(none.length > 0, `${kind}: something to do`);
    }
    assert.deepEqual(labels({ kind: 'credentials', message: 'x', editorModels: 0 }), ['Set API Key']);
    assert.deepEqual(labels({ kind: 'credentials', message: 'x', editorModels: 3 }), ['Set API Key', 'Use an editor model…']);
    assert.deepEqual(labels({ kind: 'key', message: 'x', editorModels: 1 }), ['Set API Key', 'Use an editor model…']);
    assert.deepEqual(labels({ kind: 'model', message: 'x', editorModels: 0 }), ['Use the Anthropic API']);
    assert.deepEqual(labels({ kind: 'model', message: 'x', editorModels: 2 }), ['Use an editor model…', 'Use the Anthropic API']);
    assert.deepEqual(labels({ kind: 'rejected', message: 'x', editorModels: 2 }), ['Set API Key']);
  });

  it('reads the core\'s 401 and 403 lines as a refused key, and nothing else', () => {
    const e401 = rejectedKey('authentication failed (401): invalid x-api-key — check the key set with “Delegate: Set API Key”');
    assert.deepEqual(e401, { kind: 'rejected', message: 'The Anthropic API refused the key (401: invalid x-api-key)', editorModels: 0 });
    assert.equal(e401 && problemBrief(e401), 'The API refused the key (401).');
    const e403 = rejectedKey('permission denied (403): not allowed — check ANTHROPIC_API_KEY and its permissions');
    assert.equal(e403 && problemBrief(e403), 'The API refused the key (403).');
    assert.equal(rejectedKey('authentication_error: bad key — check ANTHROPIC_API_KEY')?.message, 'The Anthropic API refused the key: authentication_error: bad key');
    for (const other of ['API error (529 overloaded_error): Overloaded', 'request rejected (400 invalid_request_error): messages: roles must alternate', 'cannot reach http://x: connect ECONNREFUSED']) {
      assert.equal(rejectedKey(other), undefined, other);
    }
  });
});
