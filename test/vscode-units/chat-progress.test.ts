/**
 * ChatProgress (src/vscode/chat-progress.ts) needs no editor: a recording stream stands in for
 * vscode.ChatResponseStream and the webview tests' Script builder stamps the events.
 */
import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { ChatProgress, escapeMarkdown } from '../../src/vscode/chat-progress';
import { ROOT, Script } from '../webview/fixtures';

type Part = { kind: 'markdown' | 'progress'; text: string } | { kind: 'button'; agentId: unknown };

function recordingStream(parts: Part[]): vscode.ChatResponseStream {
  const stream = {
    markdown: (text: string) => parts.push({ kind: 'markdown', text }),
    progress: (text: string) => parts.push({ kind: 'progress', text }),
    button: (b: vscode.Command) => parts.push({ kind: 'button', agentId: b.arguments?.[0] }),
  };
  return stream as unknown as vscode.ChatResponseStream; // only the three parts ChatProgress writes
}

describe('vscode/chat-progress', () => {
  it('names every subagent still running after each start and each finish (the Chat view spins only on the newest line)', () => {
    const parts: Part[] = [];
    const progress = new ChatProgress(recordingStream(parts), (e) => e.agentId === ROOT);
    const s = new Script();
    s.rootStart('Survey and configure.');
    s.taskStart(ROOT, null, 'tu-1', 'a', 'survey tests', 1);
    s.taskStart(ROOT, null, 'tu-2', 'b', 'read config', 1);
    s.childFinish('b', ROOT, 'completed', 2, 1, [2000, 100], 'retries 3');
    s.childFinish('a', ROOT, 'budget_exceeded', 3, 3, [9000, 300], 'partial');
    for (const e of s.events) progress.onEvent(e);

    assert.deepEqual(
      parts.map((p) => (p.kind === 'button' ? `button ${String(p.agentId)}` : `${p.kind} ${p.text.trim()}`)),
      [
        'progress Subagent: survey tests',
        'progress Subagents: survey tests, read config',
        'markdown ✓ **read config** — 2 turns · 1 tool call · 2.1k tokens · 12s',
        'button b',
        'progress Subagent: survey tests',
        'markdown ◐ **survey tests** (budget reached) — 3 turns · 3 tool calls · 9.3k tokens · 12s',
        'button a',
      ],
    );
  });

  it('streams the main agent’s text, a new paragraph after a subagent line, and never a subagent’s text', () => {
    const parts: Part[] = [];
    const progress = new ChatProgress(recordingStream(parts), (e) => e.agentId === ROOT);
    const s = new Script();
    s.rootStart('Go.');
    s.emit(ROOT, null, { type: 'text_delta', turn: 1, text: 'Handing it over.' });
    s.taskStart(ROOT, null, 'tu-1', 'a', 'look', 1);
    s.emit('a', ROOT, { type: 'text_delta', turn: 1, text: 'CHILD TEXT' });
    s.childFinish('a', ROOT, 'error', 1, 0, [100, 10], '', 'boom');
    s.emit(ROOT, null, { type: 'text_delta', turn: 2, text: 'Done.' });
    for (const e of s.events) progress.onEvent(e);

    const markdown = parts.filter((p) => p.kind === 'markdown').map((p) => (p as { text: string }).text);
    assert.equal(markdown[0], 'Handing it over.');
    assert.match(markdown[1] ?? '', /✗ \*\*look\*\* \(failed\)/);
    assert.equal(markdown[2], '\n\nDone.');
    assert.ok(!markdown.join('').includes('CHILD TEXT'));
    assert.equal(progress.streamedText, true);
  });

  it('escapes a description so the model’s words stay words', () => {
    assert.equal(escapeMarkdown('fix [x](y) *now*'), 'fix \\[x\\]\\(y\\) \\*now\\*');
  });
});
