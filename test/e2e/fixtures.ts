/**
 * Fixtures of the end-to-end tests: a temporary workspace with a few files (one holding a CANARY
 * string that must never reach the main agent), route helpers for the local Messages-API server
 * (a subagent's request is recognised by its system prompt), and request inspection.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { firstUserText, type MessagesRequestBody, type RecordedRequest, type Reply, type Route } from '../fixtures/messages-api-server';
import { isChild } from '../kit/is-child';
import { tempDir } from '../kit/temp-dirs';
export { isChild };

export const CANARY = 'CANARY-e2e-5c1f9d';
export const CONFIG_JSON = '{\n  "retries": 3\n}\n';

const FILES: Record<string, string> = {
  'README.md': '# Sample project\n\nA tiny project the Delegate end-to-end tests work on.\n',
  'src/math.ts': 'export const add = (a: number, b: number): number => a + b;\n',
  'src/strings.ts': 'export const shout = (s: string): string => s.toUpperCase();\n',
  'test/math.test.ts': "import { add } from '../src/math';\n// adds numbers\nconsole.assert(add(1, 2) === 3);\n",
  'test/strings.test.ts': `import { shout } from '../src/strings';\n// ${CANARY}: only a subagent may ever read this line\nconsole.assert(shout('a') === 'A');\n`,
  'config.json': CONFIG_JSON,
};

/**
 * A fresh temporary workspace with FILES (the kit's tempDir: made in a `before`, it goes when the run ends, and on
 * exit — the editor runner's signal handlers end the process with process.exit()); `remove()` deletes it sooner.
 */
export function createWorkspace(prefix: string): { dir: string; remove(): void } {
  const dir = tempDir(`delegate-e2e-${prefix}-`);
  for (const [rel, text] of Object.entries(FILES)) {
    const file = join(dir, rel);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The main agent's route: every request that is not a subagent's. */
export function parentRoute(replies: Reply[]): Route {
  return { name: 'parent', match: (req) => !isChild(req), replies };
}

/** A subagent's route: its task prompt (its first user message) contains `marker`. */
export function childRoute(marker: string, replies: Reply[]): Route {
  return { name: `child ${marker}`, match: (req) => isChild(req) && firstUserText(req).includes(marker), replies };
}

/** Everything a request sent, as one string (system, messages, tool results), to search for leaks. */
export function wholeRequest(req: RecordedRequest): string {
  const body: MessagesRequestBody = req.body;
  return JSON.stringify({ system: body.system, messages: body.messages });
}
