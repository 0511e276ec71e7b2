/**
 * JSON with comments and trailing commas (VS Code's `.vscode/mcp.json` is JSONC; people write `//` lines in
 * `.mcp.json` too). Comments and trailing commas are blanked outside strings, then JSON.parse does the rest,
 * so its error messages (with positions) still apply to the original text.
 */
export function parseJsonc(text: string): unknown {
  let out = '';
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i] as string;
    if (c === '"') {
      const start = i++;
      while (i < n && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      out += text.slice(start, ++i);
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < n && text[i] !== '\n') {
        out += ' ';
        i++;
      }
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? n : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else {
      out += c;
      i++;
    }
  }
  // A comma followed only by blanks and a closing bracket (comments are blanks by now).
  return JSON.parse(out.replace(/,(\s*[}\]])/g, ' $1'));
}
