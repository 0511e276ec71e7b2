/**
 * Styles of the session features: the history list, compaction lines and rows, and the Stop action
 * of a running task row (its look is the tool rows' `.row-action`). A constructed stylesheet like styles.ts; theme variables only.
 */

const CSS = String.raw`
.history { flex: 1 1 auto; overflow-y: auto; padding: 4px 0 10px; }
.history[hidden] { display: none; }
.history-header { display: flex; align-items: center; gap: 8px; padding: 4px 10px 8px; border-bottom: 1px solid var(--vscode-panel-border, var(--vscode-widget-border, transparent)); }
.history-title { flex: 1 1 auto; font-weight: 600; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.history-header button {
  display: inline-flex; align-items: center; gap: 4px; padding: 2px 6px; border-radius: 3px; cursor: pointer;
  font: inherit; color: var(--vscode-textLink-foreground); background: transparent; border: 1px solid transparent;
}
.history-header button:hover { background: var(--vscode-toolbar-hoverBackground); }
.history-header button:focus-visible { outline: 1px solid var(--vscode-focusBorder); }
.history-list { list-style: none; margin: 0; padding: 4px 0; }
.history-row { padding: 6px 10px; cursor: pointer; border-left: 2px solid transparent; }
.history-row:hover { background: var(--vscode-list-hoverBackground); }
.history-row:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
.history-row.is-current { border-left-color: var(--vscode-focusBorder); background: var(--vscode-list-inactiveSelectionBackground); }
.history-row-title { display: flex; align-items: center; gap: 6px; min-width: 0; }
.history-row-text { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.history-row-meta { margin: 2px 0 0 22px; font-size: 11px; color: var(--vscode-descriptionForeground); }
.history-empty { padding: 12px 10px; color: var(--vscode-descriptionForeground); }
.history-none { padding: 12px 10px; color: var(--vscode-descriptionForeground); }
.history-none[hidden], .history-row[hidden], .history-search[hidden] { display: none; }
.history-search {
  display: block; box-sizing: border-box; width: calc(100% - 20px); margin: 8px 10px 0; padding: 3px 6px; font: inherit;
  color: var(--vscode-input-foreground); background: var(--vscode-input-background); border: 1px solid var(--vscode-input-border, transparent); border-radius: 2px;
}
.history-search:focus, .history-rename-input:focus { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
.history-rename-input { flex: 1 1 auto; min-width: 0; font: inherit; padding: 0 4px; color: var(--vscode-input-foreground); background: var(--vscode-input-background); border: 1px solid var(--vscode-input-border, transparent); }
.history-row-actions { display: inline-flex; gap: 2px; margin-left: auto; flex: 0 0 auto; opacity: 0; }
.history-row:hover .history-row-actions, .history-row:focus-within .history-row-actions { opacity: 1; }
.history-action { display: inline-flex; padding: 1px 3px; border-radius: 3px; cursor: pointer; color: var(--vscode-icon-foreground, var(--vscode-foreground)); background: transparent; border: 1px solid transparent; }
.history-action:hover { background: var(--vscode-toolbar-hoverBackground); }
.history-action:focus-visible { outline: 1px solid var(--vscode-focusBorder); }
.log[hidden], .composer[hidden] { display: none; }

.compaction { font-size: 12px; }
.compaction-row .compaction-label { color: var(--vscode-descriptionForeground); }
.compaction-label { margin-left: 4px; font-size: 12px; }

.row-action[hidden] { display: none; }
.changes-title { margin-left: 4px; }
.changes-summary, .change-counts { font-size: 12px; color: var(--vscode-descriptionForeground); }
.changes-revert { margin-left: 4px; }
.change-created { color: var(--vscode-gitDecoration-addedResourceForeground, var(--vscode-charts-green)); }
.change-modified { color: var(--vscode-gitDecoration-modifiedResourceForeground, var(--vscode-charts-yellow)); }
.change-deleted { color: var(--vscode-gitDecoration-deletedResourceForeground, var(--vscode-errorForeground)); }
.change-command-text { font-family: var(--vscode-editor-font-family, monospace); font-size: 12px; margin-left: 4px; }
.change-file .path-link { margin-left: 4px; }
/* Takes only the room the file's name leaves (no basis, grows up to its text), down to the checkbox alone. */
.change-shared { display: flex; align-items: center; flex: 1 1 0; min-width: 18px; max-width: max-content; margin-left: 8px; font-size: 11px; cursor: pointer; }
.change-shared > .change-include { margin: 0 4px 0 0; flex: none; }
.change-shared > .change-shared-text { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.change-note { font-size: 12px; }
.task-agent {
  margin-left: 6px; padding: 0 5px; border-radius: 8px; font-size: 10px; line-height: 15px; flex: 0 0 auto;
  color: var(--vscode-badge-foreground); background: var(--vscode-badge-background);
}
.task-agent[hidden] { display: none; }
.task-fork {
  margin-left: 6px; padding: 0 5px; border-radius: 8px; font-size: 10px; line-height: 15px; flex: 0 0 auto;
  display: inline-flex; align-items: center; gap: 2px;
  color: var(--vscode-badge-foreground); background: var(--vscode-badge-background);
}
.task-fork .codicon { font-size: 11px; }
.task-shape { margin-left: 6px; font-size: 10px; line-height: 15px; flex: 0 1 auto; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; color: var(--vscode-descriptionForeground); }
.task-shape[hidden] { display: none; }
.task-fork[hidden] { display: none; }
.task-agent[data-color='red'] { background: var(--vscode-charts-red, #f14c4c); color: #fff; }
.task-agent[data-color='blue'] { background: var(--vscode-charts-blue, #3794ff); color: #fff; }
.task-agent[data-color='green'] { background: var(--vscode-charts-green, #89d185); color: #fff; }
.task-agent[data-color='yellow'] { background: var(--vscode-charts-yellow, #cca700); color: #000; }
.task-agent[data-color='purple'] { background: var(--vscode-charts-purple, #b180d7); color: #fff; }
.task-agent[data-color='orange'] { background: var(--vscode-charts-orange, #d18616); color: #000; }
.task-agent[data-color='pink'] { background: var(--vscode-charts-pink, #d16d9e); color: #fff; }
.task-agent[data-color='cyan'] { background: var(--vscode-charts-cyan, #4ec9b0); color: #000; }
.task-budget { height: 3px; margin: 3px 0 1px; border-radius: 2px; background: var(--vscode-widget-border, rgba(128,128,128,0.25)); overflow: hidden; max-width: 220px; }
.task-budget[hidden] { display: none; }
.task-budget-fill { height: 100%; width: 0; background: var(--vscode-progressBar-background, var(--vscode-charts-blue)); }
.task-budget[data-level='high'] .task-budget-fill { background: var(--vscode-charts-yellow, var(--vscode-editorWarning-foreground)); }
.task-budget[data-level='over'] .task-budget-fill { background: var(--vscode-charts-red, var(--vscode-errorForeground)); }
.task-review { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; margin: 4px 0 2px; font-size: 12px; }
.task-review[hidden] { display: none; }
.task-review-label { color: var(--vscode-editorWarning-foreground); margin-right: 4px; flex: 1 1 100%; }
.review-button {
  font: inherit; font-size: 12px; padding: 1px 8px; border-radius: 2px; cursor: pointer;
  color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground);
  border: 1px solid var(--vscode-button-border, transparent);
}
.review-button:hover { background: var(--vscode-button-secondaryHoverBackground); }
.review-button.is-primary { color: var(--vscode-button-foreground); background: var(--vscode-button-background); }
.review-button.is-primary:hover { background: var(--vscode-button-hoverBackground); }
.review-button:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
.task-stop { padding: 3px; color: var(--vscode-debugIcon-stopForeground, var(--vscode-errorForeground)); }
`;

export function installSessionStyles(): void {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(CSS);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
