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
