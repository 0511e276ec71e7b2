/**
 * Tool output over the limit is cut, never lost: the full text is saved beside the transcript and
 * the marker in the middle says how much was cut and where the rest is.
 */
export const DEFAULT_MAX_OUTPUT_CHARS = 50_000;

export interface LimitedOutput {
  content: string;
  fullOutputPath?: string;
}

export async function limitOutput(
  content: string,
  maxChars: number,
  saveFull: (content: string) => Promise<string>,
): Promise<LimitedOutput> {
  if (content.length <= maxChars) return { content };
  const fullOutputPath = await saveFull(content);
  // Keep the head (where commands print what they do) and a tail (where they print how it ended).
  const tailChars = Math.floor(maxChars * 0.2);
  const headChars = maxChars - tailChars;
  const cut = content.length - headChars - tailChars;
  const marker =
    `\n\n[... ${cut.toLocaleString('en-US')} of ${content.length.toLocaleString('en-US')} characters cut here. ` +
    `The full output was saved to ${fullOutputPath} (bash can grep or sed parts of it) ...]\n\n`;
  return { content: content.slice(0, headChars) + marker + content.slice(content.length - tailChars), fullOutputPath };
}

/**
 * A tool's own partial output (see ToolResult.fullOutput): cut further to `maxChars` around its gap, with
 * one marker that says exactly how much is not shown and where all of it is.
 */
export function limitPartialOutput(content: string, maxChars: number, full: NonNullable<import('../tools/types').ToolResult['fullOutput']>): LimitedOutput {
  const tailChars = Math.floor(maxChars * 0.2);
  const headChars = maxChars - tailChars;
  const fits = content.length <= maxChars;
  const head = content.slice(0, fits ? full.gapAt : Math.min(headChars, full.gapAt));
  const tail = content.slice(fits ? full.gapAt : Math.max(content.length - tailChars, full.gapAt));
  const hidden = content.length - head.length - tail.length + full.gapChars;
  const n = (v: number): string => v.toLocaleString('en-US');
  const saved = full.savedChars < full.totalChars ? ` — the file holds its first ${n(full.savedChars)} characters` : '';
  const marker =
    `\n\n[... ${n(hidden)} characters cut here: the command printed ${n(full.totalChars)} characters. ` +
    `The full output is in ${full.path}${saved} (bash can grep or sed parts of it) ...]\n\n`;
  return { content: head + marker + tail, fullOutputPath: full.path };
}
