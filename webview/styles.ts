/**
 * Panel styles, installed as a constructed stylesheet (works under the webview's CSP without
 * 'unsafe-inline'). Colours come only from VS Code's theme variables.
 */

/** Rows deeper than this keep the deepest indent (classes lv-1 … lv-INDENT_LEVELS). */
export const INDENT_LEVELS = 24;
const levels = (rule: (level: number) => string): string => Array.from({ length: INDENT_LEVELS }, (_, i) => rule(i + 1)).join('\n');
/**
 * A row's indent and indent guides by a class per level (placeRow sets lv-N), not calc(var(--level)): a row's
 * style is recomputed each time the virtual list moves it, and var() in calc is re-parsed at every one of them
 * (25 rows a frame under a burst: 1.1 → 0.5 ms of style, measured in headless Chromium).
 */
const levelRules = (): string => levels((l) => `.lv-${l} { padding-left: ${4 + (l - 1) * 12}px; background-size: ${(l - 1) * 12}px 100%; }`);
const detailLevelRules = (): string => levels((l) => `.detail-item.lv-${l} { padding-left: ${24 + (l - 2) * 12}px; }`);

const CSS = String.raw`
html, body { height: 100%; }
body {
  margin: 0; padding: 0; overflow: hidden;
  color: var(--vscode-foreground);
  background: var(--vscode-sideBar-background, var(--vscode-editor-background));
  font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); font-weight: var(--vscode-font-weight);
}
.app { display: flex; flex-direction: column; height: 100vh; }
.log { flex: 1 1 auto; overflow-y: auto; overflow-x: hidden; padding: 0; overflow-anchor: none; }

.empty-hint { padding: 16px 16px; color: var(--vscode-descriptionForeground); line-height: 1.5; }
.empty-hint[hidden] { display: none; }
.empty-title { font-weight: 600; color: var(--vscode-foreground); margin-bottom: 4px; }

.msg { margin: 6px 10px; line-height: 1.5; overflow-wrap: anywhere; }
.msg-user {
  padding: 6px 10px; border-radius: 4px;
  background: var(--vscode-input-background);
  border: 1px solid var(--vscode-input-border, var(--vscode-widget-border, transparent));
}
.msg-retry { display: flex; align-items: center; gap: 4px; padding-top: 3px; padding-bottom: 3px; font-size: 12px; }
.msg-retry .codicon { font-size: 12px; flex: 0 0 auto; color: var(--vscode-descriptionForeground); }
.msg-retry-who { font-weight: 600; color: var(--vscode-descriptionForeground); margin-right: 4px; }
.msg-retry-text { min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.msg-handoff { margin-top: 2px; font-size: 11px; line-height: 16px; color: var(--vscode-descriptionForeground); }
.msg-handoff .codicon { font-size: 11px; vertical-align: -1px; margin-right: 3px; }
.msg-handoff-agent { font-weight: 600; }
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

/* The flat tree (renderer.ts): rows absolutely placed in a container as tall as the whole list. */
/* Basis 0: the conversation takes the room the inbox, the changes bar and the prompt box leave (it scrolls), never theirs. */
.log-wrap { flex: 1 1 0; min-height: 0; display: flex; flex-direction: column; }
.log-wrap[hidden] { display: none; }
/* Clips what floats over the list (the pinned header, Jump): the list may be squeezed to nothing by the inbox. */
.log-area { position: relative; flex: 1 1 auto; min-height: 0; display: flex; flex-direction: column; overflow: hidden; }
.log-area > .log { flex: 1 1 auto; min-height: 0; }
.conversation { position: relative; width: 100%; outline: none; }
.tree-row {
  position: absolute; top: 0; left: 0; right: 0; box-sizing: border-box;
  display: flex; align-items: center; gap: 4px; min-height: 22px; line-height: 22px; white-space: nowrap;
  padding: 0 6px 0 4px; cursor: pointer; outline: none;
  /* Indent guides: one 1 px line per level above this one. */
  background-image: repeating-linear-gradient(to right, transparent 0 11px, var(--vscode-tree-inactiveIndentGuidesStroke, transparent) 11px 12px);
  background-size: 0 100%; background-position: 4px 0; background-repeat: no-repeat;
}
${levelRules()}
.tree-row > * { flex: 0 0 auto; }
/* One-line rows are exactly 22 px: the virtual list places them without measuring (renderer.ts FIXED). */
.tool-row, .text-row, .compaction-row, .changes-row, .change-file, .change-command, .change-note, .fold-row { height: 22px; overflow: hidden; }
.tree-row:hover { background-color: var(--vscode-list-hoverBackground); }
.tree-row:focus { background-color: var(--vscode-list-inactiveSelectionBackground); }
.tree-row:focus-visible { outline: 1px solid var(--vscode-list-focusOutline, var(--vscode-focusBorder)); outline-offset: -1px; }
.tree-row > .twistie { width: 16px; font-size: 14px; text-align: center; transition: transform 0.1s; color: var(--vscode-icon-foreground, inherit); }
.tree-row:not([aria-expanded]) > .twistie { visibility: hidden; }
.tree-row[aria-expanded='true'] > .twistie { transform: rotate(90deg); }
.tree-row .row-icon { width: 16px; flex: 0 0 auto; }
.block-row { display: block; white-space: normal; line-height: normal; cursor: auto; padding: 0; background: none; }
.block-row:hover, .block-row:focus { background-color: transparent; }
.block-row > * { margin-top: 6px; margin-bottom: 6px; }
.task-row { align-items: flex-start; padding-top: 2px; padding-bottom: 2px; }
.task-row > .twistie, .task-row > .row-action { line-height: 22px; height: 22px; }
.tree-row.revealed { background-color: var(--vscode-editor-findMatchHighlightBackground); }
.task-row .task-text { display: flex; flex-direction: column; flex: 1 1 auto; min-width: 0; overflow: hidden; line-height: normal; }
.task-line { display: flex; align-items: center; gap: 4px; min-width: 0; height: 22px; white-space: nowrap; }
.task-line > * { flex: 0 0 auto; }
.task-line > .task-title, .task-line > .task-meta { flex: 0 1 auto; min-width: 0; overflow: hidden; text-overflow: ellipsis; }
.task-title { font-weight: 600; }
/* The title wraps (up to three lines) rather than losing its end in a narrow side bar; so do the figures under it. */
.task-line:first-child { height: auto; min-height: 22px; align-items: flex-start; }
.task-line:first-child > * { line-height: 22px; }
.task-line > .task-title { white-space: normal; overflow-wrap: anywhere; line-height: 18px; padding: 2px 0; display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 3; }
.task-line:first-child > .task-agent, .task-line:first-child > .task-fork { margin-top: 3px; line-height: 16px; }
/* Inline text, not a flex line: "Failed · 2 turns · …" wraps as words do, its separator stays with the word. */
.task-sub { display: block; height: auto; line-height: 16px; padding: 0 0 4px 20px; font-size: 11px; color: var(--vscode-descriptionForeground); white-space: normal; overflow-wrap: anywhere; }
.task-sub > .row-state[hidden] { display: none; }
/* No separator after the state when no figures follow it (a pending task). */
.task-sub > .row-state:not([hidden]):has(+ .task-meta:not(:empty))::after { content: '·'; padding: 0 0.5em; color: var(--vscode-descriptionForeground); }
/* Two lines at most: a narrow side bar still shows the nested-subagent count after a long command. */
.task-now { padding: 0 0 4px 20px; font-size: 11px; line-height: 14px; color: var(--vscode-descriptionForeground); font-family: var(--vscode-editor-font-family); white-space: normal; overflow-wrap: anywhere; display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 2; overflow: hidden; }
.task-now[hidden] { display: none; }
.task-warning { font-size: 14px; }
.task-warning[hidden] { display: none; }
.tree-row .tool-name { flex: 0 0 auto; }
.tree-row .tool-summary, .tree-row .text-row-line {
  flex: 0 1 auto; min-width: 0; overflow: hidden; text-overflow: ellipsis; font-size: 12px; color: var(--vscode-descriptionForeground);
}
.tree-row .tool-summary { font-family: var(--vscode-editor-font-family); }
.tree-row .changes-summary, .tree-row .change-counts { font-size: 12px; color: var(--vscode-descriptionForeground); }
.tree-row .change-command-text, .tree-row .path-link { min-width: 0; overflow: hidden; text-overflow: ellipsis; flex: 0 1 auto; }
.tree-row > .row-action, .tree-row > .row-deco, .change-file > .row-state, .change-command > .row-state { margin-left: auto; }
.tree-row > .row-deco ~ .row-action { margin-left: 0; }
.path-link { color: var(--vscode-textLink-foreground); cursor: pointer; }
.path-link:hover { color: var(--vscode-textLink-activeForeground, var(--vscode-textLink-foreground)); text-decoration: underline; }
.tree-row .row-deco { display: inline-flex; align-items: center; gap: 4px; padding-left: 8px; }
.tree-row .row-deco [hidden] { display: none; }
.row-state { font-size: 11px; white-space: nowrap; }
.row-status { font-size: 14px; }
.row-action { cursor: pointer; padding: 0 2px; border-radius: 3px; }
.task-open, .task-message { height: 22px; padding: 0 3px; border: none; border-radius: 3px; cursor: pointer; background: transparent; color: var(--vscode-icon-foreground, var(--vscode-foreground)); opacity: 0.7; }
.task-open { margin-left: auto; }
.task-message:not([hidden]) { margin-left: auto; }
.task-message:not([hidden]) ~ .task-open { margin-left: 0; }
.task-open:hover, .task-open:focus-visible, .task-message:hover, .task-message:focus-visible { opacity: 1; background: var(--vscode-toolbar-hoverBackground); }
.task-open:focus-visible, .task-message:focus-visible { outline: 1px solid var(--vscode-focusBorder); }
.task-open[hidden], .task-message[hidden] { display: none; }
.task-open:not([hidden]) ~ .row-action { margin-left: 0; }
.row-action:hover { background: var(--vscode-toolbar-hoverBackground); }
.tool-row[data-status='ok'] > .row-deco .row-status { opacity: 0.55; }
/* Light themes: a dimmed green check falls under 3:1 against the side bar (WCAG non-text contrast). */
.vscode-light .tool-row[data-status='ok'] > .row-deco .row-status,
.vscode-high-contrast-light .tool-row[data-status='ok'] > .row-deco .row-status { opacity: 1; }

/* The find/filter box (find-bar.ts). */
.find-bar { flex: 0 0 auto; display: flex; align-items: center; gap: 6px; padding: 4px 8px; border-bottom: 1px solid var(--vscode-panel-border, var(--vscode-widget-border, transparent)); }
.find-bar[hidden] { display: none; }
.find-box { flex: 1 1 auto; min-width: 0; display: flex; align-items: center; gap: 4px; padding: 0 4px; border-radius: 2px;
  background: var(--vscode-input-background); border: 1px solid var(--vscode-input-border, transparent); }
.find-box:focus-within { border-color: var(--vscode-focusBorder); }
.find-bar.no-match .find-box { border-color: var(--vscode-inputValidation-errorBorder, var(--vscode-errorForeground)); }
.find-input { flex: 1 1 auto; min-width: 0; border: none; outline: none; background: transparent; color: var(--vscode-input-foreground); font: inherit; padding: 3px 0; }
.find-input::placeholder { color: var(--vscode-input-placeholderForeground); }
.find-icon { color: var(--vscode-descriptionForeground); }
.find-count { flex: 0 0 auto; font-size: 11px; color: var(--vscode-descriptionForeground); white-space: nowrap; }
.find-next-error, .find-close { flex: 0 0 auto; display: inline-flex; align-items: center; gap: 4px; font: inherit; font-size: 12px; padding: 1px 6px; border-radius: 2px; cursor: pointer;
  color: var(--vscode-foreground); background: transparent; border: 1px solid transparent; }
.find-next-error:hover, .find-close:hover { background: var(--vscode-toolbar-hoverBackground); }
.find-next-error:focus-visible, .find-close:focus-visible { outline: 1px solid var(--vscode-focusBorder); }
.find-next-error .codicon { color: var(--vscode-errorForeground); }
@media (max-width: 340px) { .find-next-error > span:not(.codicon) { display: none; } }
@media (max-width: 280px) {
  .find-bar { gap: 4px; padding: 4px 6px; }
  .find-count-word { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
}

/* The pinned header of the task one scrolls inside (sticky-header.ts), and the jump button. */
.sticky-task {
  position: absolute; top: 0; left: 0; right: 10px; z-index: 2; cursor: pointer;
  background: var(--vscode-sideBar-background, var(--vscode-editor-background));
  box-shadow: 0 2px 3px -1px var(--vscode-widget-shadow, rgba(0, 0, 0, 0.3));
}
.sticky-task[hidden] { display: none; }
.sticky-task > .tree-row { position: relative; padding-left: 4px; background-image: none; }
.sticky-task > .tree-row > .twistie { visibility: hidden; }
.jump-latest {
  position: absolute; bottom: 10px; left: 50%; transform: translateX(-50%); z-index: 2;
  display: inline-flex; align-items: center; gap: 4px; font: inherit; font-size: 12px; padding: 2px 10px; border-radius: 11px; cursor: pointer;
  color: var(--vscode-button-foreground); background: var(--vscode-button-background); border: 1px solid var(--vscode-button-border, transparent);
  box-shadow: 0 1px 4px var(--vscode-widget-shadow, rgba(0, 0, 0, 0.3));
}
.jump-latest:hover { background: var(--vscode-button-hoverBackground); }
.jump-latest:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 2px; }
.jump-latest[hidden] { display: none; }

.tone-ok { color: var(--vscode-testing-iconPassed, var(--vscode-charts-green)); }
.tone-error { color: var(--vscode-errorForeground); }
.tone-warn, .tone-wait { color: var(--vscode-editorWarning-foreground, var(--vscode-charts-yellow)); }
.tone-running { color: var(--vscode-progressBar-background, var(--vscode-foreground)); }
.tone-muted { color: var(--vscode-descriptionForeground); }

.detail-item { display: block; cursor: auto; white-space: normal; line-height: normal; padding-top: 2px; padding-bottom: 4px; }
${detailLevelRules()}
.detail-item:hover { background-color: transparent; }
.detail-item > .twistie { display: none; }
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
