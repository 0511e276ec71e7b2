/**
 * How much instruction text goes into a system prompt, and the note that says what a cut left out: one rule for
 * project instructions (CLAUDE.md, AGENTS.md…; project-instructions.ts) and an agent file's body (agent-files/).
 */

/** Characters of instruction text one system prompt takes from files; the rest is left out with a note. */
export const MAX_INSTRUCTION_CHARS = 40_000;

/** The line that ends cut instructions: what was left out (`the rest of CLAUDE.md`, a file), and where to look. */
export function cutNote(max: number, left: readonly string[]): string {
  const files = left.length === 1 ? 'the file itself' : 'the files themselves';
  return `[Instructions cut at ${max.toLocaleString('en-US')} characters: ${left.join(', ')} left out. Read ${files} if you need the rest.]`;
}
