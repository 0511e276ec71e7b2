/**
 * Panel styles, installed as a constructed stylesheet (works under the webview's CSP without
 * 'unsafe-inline'). Colours come only from VS Code's theme variables. Tree-item internals
 * are reached through their exported parts (`::part(wrapper|label|content)`).
 */

const CSS = String.raw`
html, body { height: 100%; }
body {
  margin: 0; padding: 0; overflow: hidden;
  color: var(--vscode-foreground);
  background: var(--vscode-sideBar-background, var(--vscode-editor-background));
  font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); font-weight: var(--vscode-font-weight);
}
.app { display: flex; flex-direction: column; height: 100vh; }
.log { flex: 1 1 auto; overflow-y: auto; overflow-x: hidden; padding: 6px 0 10px; }

.empty-hint { padding: 16px 16px; color: var(--vscode-descriptionForeground); line-height: 1.5; }
.empty-hint[hidden] { display: none; }
.empty-title { font-weight: 600; color: var(--vscode-foreground); margin-bottom: 4px; }

.msg { margin: 6px 10px; line-height: 1.5; overflow-wrap: anywhere; }
.msg-user {
  padding: 6px 10px; border-radius: 4px;
  background: var(--vscode-input-background);
  border: 1px solid var(--vscode-input-border, var(--vscode-widget-border, transparent));
}
.msg-who { display: flex; align-items: center; gap: 4px; font-size: 11px; font-weight: 600; color: var(--vscode-descriptionForeground); margin-bottom: 2px; }
.msg-who .codicon { font-size: 12px; }
.msg-text { white-space: pre-wrap; user-select: text; }
.msg-assistant { padding: 0 4px; }
.msg-assistant .msg-text { white-space: normal; }
code, .detail-pre { font-family: var(--vscode-editor-font-family); font-size: var(--vscode-editor-font-size, 12px); }
code { padding: 0 3px; border-radius: 3px; background: var(--vscode-textCodeBlock-background); }

.notice { display: flex; align-items: flex-start; gap: 6px; margin: 6px 10px; padding: 4px 8px; border-radius: 3px; line-height: 18px; }
.notice .codicon { margin-top: 1px; }
.notice-error {
  color: var(--vscode-errorForeground);
  background: var(--vscode-inputValidation-errorBackground, transparent);
  border: 1px solid var(--vscode-inputValidation-errorBorder, var(--vscode-errorForeground));
}
.notice-warning { color: var(--vscode-editorWarning-foreground); border: 1px solid var(--vscode-editorWarning-foreground); }
.notice-info { color: var(--vscode-descriptionForeground); }
.notice-text { white-space: pre-wrap; user-select: text; overflow-wrap: anywhere; }

vscode-tree.activity { margin: 4px 4px; }
vscode-tree-item .row-icon { width: 16px; flex: 0 0 auto; }
vscode-tree-item.task-row.revealed > .task-text { background: var(--vscode-editor-findMatchHighlightBackground); border-radius: 3px; }
vscode-tree-item.task-row .task-text { display: flex; flex-direction: column; min-width: 0; max-width: 100%; overflow: hidden; }
.task-line { display: flex; align-items: center; gap: 4px; min-width: 0; height: 22px; white-space: nowrap; }
.task-line > * { flex: 0 0 auto; }
.task-line > .task-title, .task-line > .task-meta { flex: 0 1 auto; min-width: 0; overflow: hidden; text-overflow: ellipsis; }
.task-title { font-weight: 600; }
.task-sub { height: auto; line-height: 16px; padding: 0 0 4px 20px; gap: 0; font-size: 11px; color: var(--vscode-descriptionForeground); }
.task-sub > .row-state:not([hidden])::after { content: '·'; padding: 0 0.5em; color: var(--vscode-descriptionForeground); }
.task-warning { font-size: 14px; }
.task-warning[hidden] { display: none; }
vscode-tree-item .tool-name { flex: 0 0 auto; }
vscode-tree-item .tool-summary, vscode-tree-item .text-row-line {
  font-size: 12px; color: var(--vscode-descriptionForeground);
}
vscode-tree-item .tool-summary { font-family: var(--vscode-editor-font-family); }
.path-link { color: var(--vscode-textLink-foreground); cursor: pointer; }
.path-link:hover { color: var(--vscode-textLink-activeForeground, var(--vscode-textLink-foreground)); text-decoration: underline; }
vscode-tree-item .row-deco { display: inline-flex; align-items: center; gap: 4px; margin-left: 8px; }
vscode-tree-item .row-deco [hidden] { display: none; }
.row-state { font-size: 11px; white-space: nowrap; }
.row-status { font-size: 14px; }
.row-action { cursor: pointer; padding: 0 2px; border-radius: 3px; }
.row-action:hover { background: var(--vscode-toolbar-hoverBackground); }
/* Off-screen rows skip style, layout and paint (thousands of calls). */
vscode-tree-item.tool-row { content-visibility: auto; contain-intrinsic-size: auto 22px; }
vscode-tree-item.more-row .more-label { color: var(--vscode-textLink-foreground); }
vscode-tree-item.tool-row[data-status='ok'] > .row-deco .row-status { opacity: 0.55; }
/* Light themes: a dimmed green check falls under 3:1 against the side bar (WCAG non-text contrast). */
.vscode-light vscode-tree-item.tool-row[data-status='ok'] > .row-deco .row-status,
.vscode-high-contrast-light vscode-tree-item.tool-row[data-status='ok'] > .row-deco .row-status { opacity: 1; }

.tone-ok { color: var(--vscode-testing-iconPassed, var(--vscode-charts-green)); }
.tone-error { color: var(--vscode-errorForeground); }
.tone-warn, .tone-wait { color: var(--vscode-editorWarning-foreground, var(--vscode-charts-yellow)); }
.tone-running { color: var(--vscode-progressBar-background, var(--vscode-foreground)); }
.tone-muted { color: var(--vscode-descriptionForeground); }

vscode-tree-item.detail-item { cursor: auto; }
vscode-tree-item.detail-item::part(wrapper) { cursor: auto; background: transparent; color: var(--vscode-foreground); line-height: normal; padding-top: 2px; padding-bottom: 4px; }
vscode-tree-item.detail-item::part(content), vscode-tree-item.detail-item::part(label) { display: block; white-space: normal; line-height: normal; width: 100%; overflow: visible; }
.detail-body { display: block; width: 100%; max-width: 100%; white-space: normal; user-select: text; cursor: auto; overflow: visible !important; }
.detail-section { margin: 0 0 4px; }
.detail-heading { font-size: 11px; font-weight: 600; color: var(--vscode-descriptionForeground); margin: 2px 0; }
.detail-pre {
  margin: 0; padding: 6px 8px; border-radius: 3px; max-height: 240px; overflow: auto;
  white-space: pre-wrap; overflow-wrap: anywhere; user-select: text;
  background: var(--vscode-textCodeBlock-background);
  border: 1px solid var(--vscode-widget-border, transparent);
}
.detail-pre.is-error { color: var(--vscode-errorForeground); }
.detail-note { font-size: 12px; color: var(--vscode-descriptionForeground); margin: 2px 0; white-space: normal; }
.detail-extra[hidden] { display: none; }

.composer {
  flex: 0 0 auto; display: flex; flex-direction: column; gap: 6px; padding: 8px 10px 10px;
  border-top: 1px solid var(--vscode-panel-border, var(--vscode-widget-border, transparent));
}
.prompt-input { width: 100%; }
.composer-bar { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 4px 8px; }
.composer-buttons { display: flex; gap: 6px; flex: 0 0 auto; margin-left: auto; }
.composer-buttons > [hidden] { display: none !important; }
/* One line always: beside the buttons when it fits, else on its own (the buttons wrap under it), cut last. */
.totals { font-size: 11px; line-height: 14px; color: var(--vscode-descriptionForeground); min-width: 0; max-width: 100%; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
`;

export function installStyles(): void {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(CSS);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
