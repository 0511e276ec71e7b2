/**
 * The contract between the panel and its lazily loaded highlighter bundle (webview/highlight-bundle.ts
 * → dist/webview/highlight.js, ~115 KB minified, loaded on the first fenced block with a language).
 */

export interface Highlighter {
  /**
   * The code as DOM nodes — text nodes inside `<span class="hl-…">` elements — whose text is exactly
   * `code`; null for a language the bundle does not know (the caller keeps the plain text).
   */
  highlight(code: string, language: string): DocumentFragment | null;
}

/** The bundle leaves its Highlighter on this globalThis property (an IIFE cannot export). */
export const HIGHLIGHTER_GLOBAL = 'delegateHighlighter';
