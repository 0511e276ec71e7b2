/**
 * Model text for the markdown tests, screenshots and bench: a typical final answer (table,
 * highlighted code, links), hostile text (raw HTML, script links), and a ~20 KB answer whose
 * tail is streamed.
 */
import type { DelegateEvent } from '../../src/core/events';
import { createSessionView, applyEvents, type SessionViewState } from '../../src/view-model/session-view';
import { ROOT, Script } from './fixtures';

export const WORKSPACE = '/home/me/proj';

export const ANSWER = `## Flaky test fixed

The failure came from a fixed sleep in [\`test/a.test.ts:12\`](test/a.test.ts:12); the runner's timeout is set in [setup](./test/setup.ts#L3). See the [mocha docs](https://mochajs.org/#timeouts) and https://nodejs.org/api/timers.html for details.

| File | Change | Lines |
| :--- | :--- | ---: |
| \`test/a.test.ts\` | sleep → \`await settled()\` | 4 |
| \`test/setup.ts\` | timeout 2 s → 5 s | 1 |

\`\`\`ts
// Waits until no timer is pending (replaces the 50 ms sleep).
export async function settled(timeoutMs = 5_000): Promise<void> {
  const start = Date.now();
  while (pendingTimers() > 0) {
    if (Date.now() - start > timeoutMs) throw new Error('timers still pending');
    await new Promise((resolve) => setImmediate(resolve));
  }
}
\`\`\`

Next steps:

1. Run \`npm test\` **twenty times** in a row.
2. If it still fails, check the _CI_ logs.
   - [x] local runs pass
   - [ ] CI passes

> Tip: \`--retries 0\` makes a flake show up at once.
`;

export const HOSTILE = `Raw HTML stays text: <img src="x" onerror="globalThis.__pwned = 'img'"> and <script>globalThis.__pwned = 'script'</script>

<iframe src="javascript:globalThis.__pwned='iframe'"></iframe>
<svg onload="globalThis.__pwned = 'svg'"><a href="javascript:alert(1)">svg link</a></svg>

[click me](javascript:globalThis.__pwned='link') · [data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==) · [vb](vbscript:msgbox) · [cmd](command:workbench.action.quit) · <javascript:alert(1)> · [outside](../../etc/passwd) · [abs](file:///etc/passwd)

![tracker](https://example.com/pixel.gif "t") ![x](javascript:globalThis.__pwned='image')

<a href="https://example.com" onclick="globalThis.__pwned='a'">anchor</a>`;

/** Constructs whose parse depends on the lines after them: what streaming re-renders must get right. */
export const TRICKY = `Intro paragraph
continues here.

- item one

- item two (loose)
  continued

1. first
2. second

Setext heading
==============

| a | b |
| :- | -: |
| 1 | 2 |
> quote
lazy continuation

    indented code

* * *

- [ ] task
- [x] done
  \`\`\`ts
  const nested = true;
  \`\`\`

~~~python
def f():
    return 1
~~~

Final **bold** text with \`code\`, a [link](src/a.ts:3) and https://example.com.
`;

/**
 * Text cut where the next characters change how an earlier line parses: each pair is streamed as
 * [prefix, suffix] and must render like the whole text.
 */
export const TRICKY_CUTS: Array<[string, string]> = [
  ['A paragraph\n#', 'hashtag continues it'],
  ['A paragraph\n-', 'x continues it'],
  ['A paragraph\n-', '--\n\nafter'],
  ['- a\n\n', '  b belongs to a'],
  ['- a\n\n1', '. starts a new list'],
  ['- a\n\n-', ' b'],
  ['> quote\n', 'lazy line'],
  ['| a |\n| -', ' |\n| 1 |'],
  ['| a | b |\n| - | - |\n', '| 1 | 2 |\ntext'],
  ['```ts\nconst a = 1;\n``', '`\nafter the fence'],
  ['    code\n', '    more code\nnot code'],
  ['1. one\n2. two\n\n', '   continued'],
  ['Term\n', '===\n'],
];

/** A session whose answer streamed `prefix` so far, and the event that streams `suffix`. */
export function streamedCut(prefix: string, suffix: string): { state: SessionViewState; next: DelegateEvent } {
  const script = new Script();
  script.rootStart('Fix the flaky test.');
  script.turn(ROOT, null, 1);
  script.emit(ROOT, null, { type: 'text_delta', turn: 1, text: prefix });
  const state = createSessionView();
  applyEvents(state, script.take());
  return { state, next: script.emit(ROOT, null, { type: 'text_delta', turn: 1, text: suffix }) };
}

/**
 * A ~`kb` KB answer: paragraphs, lists, a table and code blocks, repeated.
 * @public scripts/bench-markdown.mjs loads it through tsx, where knip does not look.
 */
export function longAnswer(kb: number): string {
  const part = (i: number): string => `### Part ${i}

Paragraph ${i} explains what changed in \`src/module-${i}.ts\` and why: the old code read the whole file into memory and **then** split it, which is slow for large inputs; see [the module](src/module-${i}.ts:${i + 1}).

- first point about part ${i}
- second point, with \`inline code\` and a [link](https://example.com/${i})

| key | value |
| --- | --- |
| a${i} | ${i * 3} |

\`\`\`ts
export function part${i}(input: string): string[] {
  return input.split('\\n').filter((line) => line.trim() !== '');
}
\`\`\`
`;
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < kb * 1024; i++) {
    const p = part(i);
    parts.push(p);
    size += p.length;
  }
  return parts.join('\n');
}

/** The session before its answer streams in: `streamingDeltas` continues it. */
export function promptOnly(): { state: SessionViewState; script: Script } {
  const script = new Script();
  script.rootStart('Fix the flaky test.');
  script.turn(ROOT, null, 1);
  const state = createSessionView();
  applyEvents(state, script.take());
  return { state, script };
}

/** A finished session whose root answered `text` (final, or still streaming its first half). */
export function answerState(text: string, streaming = false): SessionViewState {
  const s = new Script();
  s.rootStart('Fix the flaky test.');
  s.turn(ROOT, null, 1);
  if (streaming) s.emit(ROOT, null, { type: 'text_delta', turn: 1, text });
  else s.rootText(1, text);
  const state = createSessionView();
  applyEvents(state, s.events);
  return state;
}

/** A finished task whose subagent's result is `result` (markdown). */
export function resultState(result: string): SessionViewState {
  const s = new Script();
  s.rootStart('Survey the tests.');
  s.turn(ROOT, null, 1);
  s.taskStart(ROOT, null, 'tu-md', 'agent-md', 'Survey the test setup', 1);
  s.turn('agent-md', ROOT, 1);
  s.tool('agent-md', ROOT, 'm1', 'read_file', { path: 'test/setup.ts' }, 'export const timeout = 2000;');
  s.childFinish('agent-md', ROOT, 'completed', 1, 1, [2000, 300], result);
  s.taskEnd(ROOT, null, 'tu-md', result);
  const state = createSessionView();
  applyEvents(state, s.events);
  return state;
}
