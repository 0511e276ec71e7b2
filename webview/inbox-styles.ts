/**
 * Styles of the inbox (inbox-view.ts) and of the rows whose call waits for an answer: the cards sit above the
 * conversation, which gives up its room first (it scrolls); the inbox takes up to half the panel, never less than
 * its tallest card (the other cards scroll inside), in theme colours only. A tool row already
 * carries `data-permission="asked"` while its call waits; it gets the same warning edge as its card.
 */

const CSS = String.raw`
.inbox {
  flex: 0 1 auto; display: flex; flex-direction: column; box-sizing: border-box; max-height: 50vh; overflow: hidden; padding: 6px 8px 8px;
  border-bottom: 1px solid var(--vscode-panel-border, var(--vscode-widget-border, transparent));
  background: var(--vscode-sideBar-background, var(--vscode-editor-background));
}
.inbox[hidden] { display: none; }
.inbox-heading { flex: none; font-size: 11px; font-weight: 600; text-transform: uppercase; letter-spacing: 0.04em; color: var(--vscode-descriptionForeground); margin: 0 2px 6px; }
/* The cards beyond what fits scroll here; the inbox is never lower than its tallest card (inbox-view.ts). */
.inbox-list { flex: 0 1 auto; min-height: 0; overflow-y: auto; display: flex; flex-direction: column; gap: 6px; }
.inbox-more {
  flex: none; align-self: center; display: inline-flex; align-items: center; gap: 4px; margin-top: 4px; padding: 1px 8px;
  font: inherit; font-size: 11px; border-radius: 10px; cursor: pointer; border: 1px solid var(--vscode-button-border, transparent);
  color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground);
}
.inbox-more:hover { background: var(--vscode-button-secondaryHoverBackground); }
.inbox-more:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
.inbox-more[hidden] { display: none; }
.inbox-card {
  flex: none; padding: 6px 8px; border-radius: 4px; line-height: 1.4; overflow-wrap: anywhere;
  background: var(--vscode-editorWidget-background, var(--vscode-input-background));
  border: 1px solid var(--vscode-widget-border, var(--vscode-contrastBorder, transparent));
  border-left: 3px solid var(--vscode-editorWarning-foreground, var(--vscode-focusBorder));
}
.inbox-card.is-answered { opacity: 0.6; }
.inbox-who { display: flex; flex-wrap: wrap; align-items: center; gap: 0 4px; font-size: 12px; font-weight: 600; min-width: 0; }
.inbox-who .codicon { font-size: 14px; color: var(--vscode-editorWarning-foreground, inherit); flex: 0 0 auto; }
.inbox-who-name { min-width: 0; }
.inbox-who-type { font-weight: normal; font-size: 11px; color: var(--vscode-descriptionForeground); white-space: nowrap; }
.inbox-show {
  margin-left: auto; flex: 0 0 auto; padding: 0 4px; border: none; background: none; cursor: pointer;
  font: inherit; font-weight: normal; color: var(--vscode-textLink-foreground);
}
.inbox-show:hover { text-decoration: underline; }
/* A question may be 2,000 characters: it scrolls in its own box, its answers stay in view below it. */
.inbox-title { margin: 2px 0 4px; max-height: 30vh; overflow-y: auto; }
.inbox-input {
  margin: 0 0 4px; padding: 4px 6px; max-height: min(8em, 20vh); overflow: auto; white-space: pre-wrap; user-select: text;
  font-family: var(--vscode-editor-font-family); font-size: var(--vscode-editor-font-size, 12px);
  background: var(--vscode-textCodeBlock-background); border-radius: 3px;
}
.inbox-why { font-size: 11px; color: var(--vscode-descriptionForeground); white-space: pre-wrap; margin-bottom: 2px; max-height: 20vh; overflow-y: auto; }
.inbox-buttons, .inbox-reply { display: flex; flex-wrap: wrap; gap: 4px; margin-top: 4px; }
.inbox-button {
  max-width: 100%; text-align: start; padding: 2px 8px; min-height: 22px; border-radius: 2px; cursor: pointer; font: inherit; font-size: 12px;
  border: 1px solid var(--vscode-button-border, transparent);
  color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground);
}
.inbox-button:hover { background: var(--vscode-button-secondaryHoverBackground); }
.inbox-primary { color: var(--vscode-button-foreground); background: var(--vscode-button-background); }
.inbox-primary:hover { background: var(--vscode-button-hoverBackground); }
.inbox-deny { color: var(--vscode-errorForeground); }
.inbox-button:focus-visible, .inbox-show:focus-visible, .inbox-text:focus { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
.inbox-button:disabled { cursor: default; }
.inbox-text {
  flex: 1 1 120px; min-width: 0; padding: 2px 6px; font: inherit; font-size: 12px;
  color: var(--vscode-input-foreground); background: var(--vscode-input-background);
  border: 1px solid var(--vscode-input-border, transparent); border-radius: 2px;
}
[data-permission='asked'] { box-shadow: inset 2px 0 0 var(--vscode-editorWarning-foreground, var(--vscode-focusBorder)); }
`;

export function installInboxStyles(): void {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(CSS);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
