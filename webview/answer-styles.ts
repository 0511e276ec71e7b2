/**
 * Styles of a permission card's answers (permission-answers.ts): Allow and its ▾ joined as one split button, Deny
 * beside them on one row at any width, and the menu of wider answers, drawn like VS Code's own menus; and of the
 * fan-out card (fanout-card.ts), whose middle (tasks, forecast) scrolls so its answers stay in view. Theme colours.
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

/* At most the inbox's room, and about 60 % of the panel: the tasks it lists stay in sight as pending rows below. */
.inbox-fanout { display: flex; flex-direction: column; max-height: min(var(--inbox-card-room, 100vh), max(240px, 60vh)); box-sizing: border-box; }
.inbox-fanout > * { flex: none; }
.inbox-fanout > .fanout-info { flex: 0 1 auto; min-height: 48px; overflow-y: auto; }
.fanout-shared, .fanout-why, .fanout-caps, .fanout-forecast { font-size: 11px; color: var(--vscode-descriptionForeground); }
.fanout-label { font-weight: 600; }
.fanout-forecast .fanout-label { margin-top: 4px; }
.fanout-tasks { list-style: none; margin: 4px 0; padding: 0; }
.fanout-task summary { cursor: pointer; padding: 1px 0; }
.fanout-task summary:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
.fanout-own { margin-left: 6px; font-size: 11px; color: var(--vscode-descriptionForeground); }
.fanout-prompt {
  margin: 2px 0 4px 14px; padding: 4px 6px; max-height: 12em; overflow: auto; white-space: pre-wrap; user-select: text;
  font-family: var(--vscode-editor-font-family); font-size: var(--vscode-editor-font-size, 12px);
  background: var(--vscode-textCodeBlock-background); border-radius: 3px;
}
.fanout-caps { margin-top: 4px; }
.fanout-never { display: flex; align-items: center; gap: 4px; margin-top: 4px; font-size: 12px; cursor: pointer; width: fit-content; }
.fanout-never input { margin: 0; accent-color: var(--vscode-button-background); }
.fanout-never input:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
.fanout-why { margin-top: 2px; }
`;

export function installAnswerStyles(): void {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(CSS);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
