/**
 * Entry of the lazily loaded highlighter bundle (dist/webview/highlight.js): highlight.js core
 * with the languages agents write most, turned into DOM nodes from highlight.js's token tree —
 * its HTML string output is never used. Leaves a Highlighter on globalThis (see highlight-api.ts).
 */
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import kotlin from 'highlight.js/lib/languages/kotlin';
import makefile from 'highlight.js/lib/languages/makefile';
import markdown from 'highlight.js/lib/languages/markdown';
import php from 'highlight.js/lib/languages/php';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import swift from 'highlight.js/lib/languages/swift';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { HIGHLIGHTER_GLOBAL, type Highlighter } from './highlight-api';

// Each language also brings its aliases (ts, tsx, js, sh, zsh, py, rs, html, toml, yml, console…).
const LANGUAGES = { bash, c, cpp, csharp, css, diff, dockerfile, go, ini, java, javascript, json, kotlin, makefile, markdown, php, python, ruby, rust, shell, sql, swift, typescript, xml, yaml };
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);

/** highlight.js's token tree (TokenTreeEmitter.root): scopes like "title.function" around text. */
interface ScopeNode {
  scope?: string;
  children: unknown[];
}

function isScopeNode(value: unknown): value is ScopeNode {
  return typeof value === 'object' && value !== null && Array.isArray((value as { children?: unknown }).children);
}

/** "title.function" → "hl-title hl-title-function"; a sub-language ("language:css") adds no class. */
function scopeClass(scope: string): string {
  if (scope.startsWith('language:')) return '';
  const [first, second] = scope.split('.');
  return second ? `hl-${first} hl-${first}-${second}` : `hl-${first}`;
}

function append(node: ScopeNode, parent: Node): void {
  for (const child of node.children) {
    if (typeof child === 'string') {
      parent.appendChild(document.createTextNode(child));
    } else if (isScopeNode(child)) {
      const cls = child.scope ? scopeClass(child.scope) : '';
      if (cls === '') {
        append(child, parent);
      } else {
        const span = document.createElement('span');
        span.className = cls;
        append(child, span);
        parent.appendChild(span);
      }
    }
  }
}

const highlighter: Highlighter = {
  highlight(code, language) {
    if (!hljs.getLanguage(language)) return null;
    const result = hljs.highlight(code, { language, ignoreIllegals: true });
    // `_emitter.root` is highlight.js's internal token tree (not in its types). An upgrade that changes
    // it shows plain code, and the webview test that looks for token spans fails.
    const root: unknown = (result._emitter as unknown as { root?: unknown }).root;
    if (!isScopeNode(root)) return null;
    const fragment = document.createDocumentFragment();
    append(root, fragment);
    // Anything lost or added on the way (a changed tree shape after an upgrade): plain text instead.
    return fragment.textContent === code ? fragment : null;
  },
};

(globalThis as unknown as Record<string, unknown>)[HIGHLIGHTER_GLOBAL] = highlighter;
