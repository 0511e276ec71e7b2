/**
 * Styles of a permission card's answers (permission-answers.ts): Allow and its ▾ joined as one split button, Deny
 * beside them on one row at any width, and the menu of wider answers, drawn like VS Code's own menus (theme colours).
 */

const CSS = String.raw`
.permission-answers { flex-wrap: nowrap; align-items: stretch; }
.allow-group { display: inline-flex; flex: none; }
.allow-group > .inbox-button:first-child:not(:only-child) { border-top-right-radius: 0; border-bottom-right-radius: 0; }
.allow-more {
  display: inline-flex; align-items: center; padding: 0 3px; border-top-left-radius: 0; border-bottom-left-radius: 0;
  border-left: 1px solid var(--vscode-button-separator, transparent);
}
.allow-more .codicon { font-size: 14px; }
.allow-more[aria-expanded='true'] { background: var(--vscode-button-hoverBackground); }
.permission-answers > .inbox-deny { flex: none; }
.inbox-button code, .scope-item code { font-family: var(--vscode-editor-font-family); font-size: 0.95em; }
.scope-menu {
  position: fixed; z-index: 100; box-sizing: border-box; overflow-y: auto; padding: 4px 0; border-radius: 5px;
  color: var(--vscode-menu-foreground, var(--vscode-foreground));
  background: var(--vscode-menu-background, var(--vscode-editorWidget-background, var(--vscode-sideBar-background)));
  border: 1px solid var(--vscode-menu-border, var(--vscode-widget-border, transparent));
  box-shadow: 0 2px 8px var(--vscode-widget-shadow, rgba(0, 0, 0, 0.36));
}
.scope-menu[hidden] { display: none; }
.scope-item {
  display: block; box-sizing: border-box; width: 100%; padding: 4px 10px; text-align: start; cursor: pointer;
  border: 1px solid transparent; border-radius: 0; background: none; color: inherit;
  font: inherit; font-size: 12px; line-height: 1.35; overflow-wrap: anywhere;
}
.scope-item:hover, .scope-item:focus {
  outline: none; color: var(--vscode-menu-selectionForeground, var(--vscode-list-activeSelectionForeground));
  background: var(--vscode-menu-selectionBackground, var(--vscode-list-activeSelectionBackground));
  border-color: var(--vscode-menu-selectionBorder, transparent);
}
.scope-item code { padding: 0 3px; border-radius: 3px; background: var(--vscode-textCodeBlock-background); }
.scope-item:focus code, .scope-item:hover code { background: rgba(0, 0, 0, 0.2); }
`;

export function installAnswerStyles(): void {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(CSS);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
