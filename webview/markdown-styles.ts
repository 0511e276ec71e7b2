/**
 * Styles of rendered markdown (assistant text, task results) and of highlighted code, as a
 * constructed stylesheet like styles.ts. Colours are VS Code theme variables; token colours
 * follow Dark+/Light+ per theme kind (VS Code does not expose the editor's token colours to
 * webviews), switched by the class VS Code puts on <body> (vscode-light, vscode-dark, …).
 */

const CSS = String.raw`
.md { line-height: 1.5; min-width: 0; overflow-wrap: anywhere; user-select: text; }
.md > :first-child { margin-top: 0; }
.md > :last-child { margin-bottom: 0; }
.md p, .md ul, .md ol, .md blockquote, .md .md-table-box, .md .md-code, .md .md-hr { margin: 0 0 8px; }
.md :is(h1, h2, h3, h4, h5, h6) { margin: 14px 0 6px; font-weight: 600; line-height: 1.3; }
.md h1 { font-size: 1.3em; }
.md h2 { font-size: 1.15em; }
.md h3 { font-size: 1.05em; }
.md :is(h4, h5, h6) { font-size: 1em; }
.md :is(h1, h2) { padding-bottom: 3px; border-bottom: 1px solid var(--vscode-widget-border, var(--vscode-panel-border, transparent)); }
.md :is(ul, ol) { padding-left: 22px; }
.md li > :is(ul, ol) { margin: 2px 0; }
.md li > p { margin: 0 0 4px; }
.md li + li { margin-top: 2px; }
.md li:has(> .md-task) { list-style: none; margin-left: -18px; }
.md .md-task { margin-right: 6px; vertical-align: -3px; color: var(--vscode-descriptionForeground); }
.md .md-task-done { color: var(--vscode-testing-iconPassed, var(--vscode-charts-green)); }
.md blockquote {
  margin-left: 0; padding: 2px 0 2px 10px;
  border-left: 3px solid var(--vscode-textBlockQuote-border, var(--vscode-widget-border));
  background: var(--vscode-textBlockQuote-background, transparent);
}
.md blockquote > :last-child { margin-bottom: 0; }
.md .md-hr { border: 0; border-top: 1px solid var(--vscode-widget-border, var(--vscode-panel-border, currentColor)); }
.md .md-image-alt { font-style: italic; color: var(--vscode-descriptionForeground); }

/* A table wider than the side bar scrolls in its box, and shows it can (table-scroll.ts). */
.md .md-table-wrap { max-width: 100%; overflow-x: auto; }
.md .md-table-bar {
  position: relative; height: 6px; margin-top: 2px; border-radius: 3px; cursor: pointer;
  background: var(--vscode-textCodeBlock-background, rgba(127, 127, 127, 0.15));
}
.md .md-table-bar[hidden] { display: none; }
.md .md-table-thumb {
  position: absolute; top: 0; bottom: 0; min-width: 16px; border-radius: 3px;
  background: var(--vscode-scrollbarSlider-hoverBackground, rgba(100, 100, 100, 0.7));
}
.md .md-table-bar:hover .md-table-thumb { background: var(--vscode-scrollbarSlider-activeBackground, rgba(191, 191, 191, 0.4)); }
.md table { border-collapse: collapse; font-size: 12px; line-height: 1.4; }
.md :is(th, td) {
  padding: 3px 8px; text-align: left; vertical-align: top;
  border: 1px solid var(--vscode-widget-border, var(--vscode-panel-border, currentColor));
  /* Not "anywhere": a cell keeps its words whole, and a table too wide for the side bar scrolls. */
  overflow-wrap: break-word;
}
.md th { font-weight: 600; background: var(--vscode-textCodeBlock-background); }
.md .md-align-center { text-align: center; }
.md .md-align-right { text-align: right; }

.md .md-link { color: var(--vscode-textLink-foreground); text-decoration: none; cursor: pointer; }
.md .md-link:hover { color: var(--vscode-textLink-activeForeground, var(--vscode-textLink-foreground)); text-decoration: underline; }
.md .md-link .md-code-inline { color: inherit; }
.md .md-link:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; border-radius: 2px; }

.md .md-code-inline {
  padding: 1px 4px; border-radius: 3px; font-size: 0.92em;
  font-family: var(--vscode-editor-font-family);
  color: var(--vscode-textPreformat-foreground, var(--vscode-foreground));
  background: var(--vscode-textPreformat-background, var(--vscode-textCodeBlock-background));
}
.md .md-code {
  border-radius: 4px; overflow: hidden;
  background: var(--vscode-textCodeBlock-background);
  border: 1px solid var(--vscode-widget-border, transparent);
}
.md .md-code-head {
  display: flex; align-items: center; justify-content: space-between; gap: 6px;
  height: 22px; padding: 0 2px 0 8px; font-size: 11px; line-height: 22px;
  color: var(--vscode-descriptionForeground);
  border-bottom: 1px solid var(--vscode-widget-border, transparent);
}
.md .md-code-lang { min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.md .md-code-copy {
  display: flex; align-items: center; justify-content: center; width: 20px; height: 20px; padding: 0;
  border: 0; border-radius: 3px; background: transparent; color: inherit; cursor: pointer;
}
.md .md-code-copy:hover { color: var(--vscode-foreground); background: var(--vscode-toolbar-hoverBackground); }
.md .md-code-copy:focus-visible { outline: 1px solid var(--vscode-focusBorder); }
.md .md-code-copy .codicon-check { color: var(--vscode-testing-iconPassed, var(--vscode-charts-green)); }
.md .md-code-copy .codicon-error { color: var(--vscode-errorForeground); }
.md .md-code-body {
  margin: 0; padding: 6px 8px; overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; tab-size: 4;
  line-height: 1.45; font-family: var(--vscode-editor-font-family); font-size: var(--vscode-editor-font-size, 12px);
}
.md .md-code-body code { padding: 0; border-radius: 0; background: none; font: inherit; color: var(--vscode-editor-foreground, var(--vscode-foreground)); }

/* The streaming cursor sits after the text being written, not below a block. */
.msg-assistant.is-streaming .md > :is(p, h1, h2, h3, h4, h5, h6):last-child::after,
.msg-assistant.is-streaming .md > :is(ul, ol):last-child > li:last-child::after,
.msg-assistant.is-streaming .md > .md-code:last-child code::after {
  content: ''; display: inline-block; width: 6px; height: 1em; margin-left: 2px; vertical-align: text-bottom;
  background: var(--vscode-editorCursor-foreground, var(--vscode-foreground)); opacity: 0.6;
}

/* Token colours: Dark+ by default (dark and high-contrast themes), Light+ for light themes. */
:root {
  --hl-keyword: #569cd6; --hl-control: #c586c0; --hl-type: #4ec9b0; --hl-function: #dcdcaa; --hl-string: #ce9178;
  --hl-number: #b5cea8; --hl-comment: #6a9955; --hl-variable: #9cdcfe; --hl-regexp: #d16969; --hl-tag: #569cd6;
  --hl-attr: #9cdcfe; --hl-selector: #d7ba7d; --hl-added: #81b88b; --hl-removed: #f14c4c;
}
.vscode-light, .vscode-high-contrast-light {
  --hl-keyword: #0000ff; --hl-control: #af00db; --hl-type: #267f99; --hl-function: #795e26; --hl-string: #a31515;
  --hl-number: #098658; --hl-comment: #008000; --hl-variable: #001080; --hl-regexp: #811f3f; --hl-tag: #800000;
  --hl-attr: #e50000; --hl-selector: #800000; --hl-added: #587c0c; --hl-removed: #ad0707;
}
.md-code-body :is(.hl-keyword, .hl-literal, .hl-symbol, .hl-variable-language, .hl-doctag) { color: var(--hl-keyword); }
.md-code-body :is(.hl-meta, .hl-section, .hl-bullet) { color: var(--hl-control); }
.md-code-body :is(.hl-type, .hl-built_in, .hl-title-class) { color: var(--hl-type); }
.md-code-body :is(.hl-title, .hl-title-function) { color: var(--hl-function); }
.md-code-body :is(.hl-string, .hl-char, .hl-meta-string, .hl-code) { color: var(--hl-string); }
.md-code-body :is(.hl-number) { color: var(--hl-number); }
.md-code-body :is(.hl-comment, .hl-quote) { color: var(--hl-comment); }
.md-code-body :is(.hl-variable, .hl-params, .hl-property, .hl-template-variable) { color: var(--hl-variable); }
.md-code-body :is(.hl-regexp, .hl-link) { color: var(--hl-regexp); }
.md-code-body .hl-name { color: var(--hl-tag); }
.md-code-body .hl-attr, .md-code-body .hl-attribute { color: var(--hl-attr); }
.md-code-body :is(.hl-selector-tag, .hl-selector-id, .hl-selector-class, .hl-selector-attr, .hl-selector-pseudo) { color: var(--hl-selector); }
.md-code-body .hl-addition { color: var(--vscode-gitDecoration-addedResourceForeground, var(--hl-added)); }
.md-code-body .hl-deletion { color: var(--vscode-gitDecoration-deletedResourceForeground, var(--hl-removed)); }
.md-code-body .hl-emphasis { font-style: italic; }
.md-code-body :is(.hl-strong, .hl-section) { font-weight: 600; }
.md-code-body .hl-quote { font-style: italic; }
`;

export function installMarkdownStyles(): void {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(CSS);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
