/**
 * Webview entry of the Delegate panel. Builds the layout (scrolling conversation + prompt box),
 * posts `ready`, takes the host's `snapshot` (an object, or its JSON: one string costs almost nothing to
 * post), then folds `events` batches into its state copy and re-renders the touched rows once per frame.
 */
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import type { HostToWebview } from '../src/protocol';
import { cacheTooltip } from '../src/view-model/format';
import { applyEvents, createSessionView, type SessionViewState } from '../src/view-model/session-view';
import { runChanges } from '../src/view-model/run-changes';
import { decodeSnapshot } from '../src/view-model/snapshot-codec';
import { ChangesBar, installChangesBarStyles } from './changes-bar';
import { installKeptBarStyles, KeptBar } from './kept-bar';
import { keptWork } from '../src/view-model/kept-work';
import { installTaskOutcomeStyles } from './task-outcome';
import { installHandoffStyles } from './handoff-bar';
import { installHandoffChipStyles } from './handoff-chip';
import { installMemoryMarkStyles } from './memory-mark';
import { totalsLine } from './totals-line';
import { Composer } from './composer';
import { installDiffStyles } from './diff-view';
import { el } from './dom';
import { Expansion } from './expansion';
import { HistoryView } from './history-view';
import { InboxView } from './inbox-view';
import { installInboxStyles } from './inbox-styles';
import { installAnswerStyles } from './answer-styles';
import { installLinkClicks } from './link-clicks';
import { setWorkspaceFolders } from './markdown';
import { installMarkdownStyles } from './markdown-styles';
import { emptyHint } from './empty-hint';
import { ConversationRenderer } from './renderer';
import { StickyHeader } from './sticky-header';
import { FindBar } from './find-bar';
import { installSessionStyles } from './session-styles';
import { installStyles } from './styles';
import { lastAskedAt, post } from './vscode-api';
import { SharedChoices } from './shared-choices';
import { installSetupStyles, SetupCard } from './setup-card';

installStyles();
installSessionStyles();
installDiffStyles();
installChangesBarStyles();
installKeptBarStyles();
installTaskOutcomeStyles();
installHandoffStyles();
installHandoffChipStyles();
installMemoryMarkStyles();
installMarkdownStyles();
installInboxStyles();
installSetupStyles();
installAnswerStyles();
installLinkClicks(document, {
  openFile: (path, line) => post(line === undefined ? { type: 'open_file', path } : { type: 'open_file', path, line }),
  openExternal: (url) => post({ type: 'open_external', url }),
});

const expansion = new Expansion();
const log = el('main', 'log');
const conversation = el('div', 'conversation');
const hint = emptyHint();
// First run: no key and no editor model make the empty state a setup card (its buttons run the host's commands).
const setupCard = new SetupCard((action) => post({ type: 'setup_action', action }));
hint.append(setupCard.element);
log.append(hint, conversation);
const logWrap = el('div', 'log-wrap');
// The list and what floats over it (the pinned task header, Jump to latest); the find bar sits above.
const logArea = el('div', 'log-area');
logArea.append(log);
logWrap.append(logArea);

const sharedChoices = new SharedChoices();
const actions = {
  openFile: (path: string) => post({ type: 'open_file', path }),
  openDiff: (agentId: string, toolUseId: string) => post({ type: 'open_diff', agentId, toolUseId }),
  stopAgent: (agentId: string) => post({ type: 'stop_agent', agentId }),
  review: (agentId: string, action: 'accept' | 'edit' | 'rerun') => post({ type: 'review', agentId, action }),
  openChange: (agentId: string, path: string) => post({ type: 'open_change', agentId, path }),
  revertAgent: (agentId: string) => {
    const includeShared = sharedChoices.checked(agentId);
    post(includeShared.length ? { type: 'revert_agent', agentId, includeShared } : { type: 'revert_agent', agentId });
  },
  includesShared: (agentId: string, path: string) => sharedChoices.has(agentId, path),
  setIncludeShared: (agentId: string, path: string, on: boolean) => sharedChoices.set(agentId, path, on),
  retryTask: (agentId: string, edit: boolean) => post({ type: 'retry_task', agentId, edit }),
  showNode: (nodeId: string) => {
    showConversation();
    renderer.reveal(nodeId, true);
  },
  needDetail: (id: string) => post({ type: 'node_detail', id }),
  openRecord: (agentId: string, description: string) => post({ type: 'open_record', agentId, description }),
  messageAgent: (agentId: string) => post({ type: 'message_agent', agentId }),
  handoff: (agentId: string, index: number) => post({ type: 'handoff', agentId, index }),
};
const renderer = new ConversationRenderer(log, conversation, expansion, actions);
const sticky = new StickyHeader(renderer, actions);
renderer.onRender = () => sticky.update();
const findBar = new FindBar(renderer);
findBar.install(document, () => find());

let state: SessionViewState = createSessionView();
let hostRunning = false;
let pending = new Set<string>();
let frame = 0;
let needsReset = true;
let barRunning = false;

const composer = new Composer(expansion.draft, {
  send: (text, handoff) => {
    // The user's own prompt: back to the end (also when they had scrolled up), where its row will come.
    renderer.jumpToLatest();
    post(handoff ? { type: 'prompt', text, handoff } : { type: 'prompt', text });
  },
  stop: () => post({ type: 'stop' }),
  draftChanged: (text) => {
    expansion.draft = text;
  },
  handoffChanged: (handoff) => {
    expansion.draftHandoff = handoff;
  },
  setupAction: (action) => post({ type: 'setup_action', action }),
}, expansion.draftHandoff);

const history = new HistoryView({
  open: (id) => {
    showConversation();
    post({ type: 'open_session', id });
  },
  newSession: () => {
    showConversation();
    post({ type: 'new_session' });
  },
  close: () => showConversation(),
  rename: (id, title) => post({ type: 'rename_session', id, title }),
  delete: (id, title) => post({ type: 'delete_session', id, title }),
});

/** Ctrl/Cmd+F: the History list's search while it shows, else the conversation's find bar. */
function find(): void {
  if (history.visible) history.focusSearch();
  else findBar.open();
}

/** The history list replaces the conversation and the prompt box until the user goes back. */
function showConversation(): void {
  history.hide();
  app.classList.remove('showing-history');
  logWrap.hidden = false;
  composer.element.hidden = false;
}

const changesBar = new ChangesBar({
  review: (path) => post({ type: 'review_changes', kept: [...expansion.keptFiles()], ...(path === undefined ? {} : { path }) }),
  revert: (agentIds, paths) => post(paths ? { type: 'revert_agents', agentIds, paths } : { type: 'revert_agents', agentIds }),
  keep: (keys) => {
    expansion.keepFiles(keys);
    if (!(hostRunning || state.running)) changesBar.update(runChanges(state, expansion.keptFiles()));
  },
});

// Isolated subagents' work on their branches: Apply, Discard, Open diff, Apply all (the host lands it).
const keptBar = new KeptBar({
  land: (agentIds, action) => post({ type: 'land_agents', agentIds, action }),
  openDiff: (agentId, path) => post({ type: 'open_kept_diff', agentId, path }),
  resolve: (agentId) => post({ type: 'resolve_agent', agentId }),
});

// Subagents' questions waiting for the user, above the conversation.
/** Inbox cards the user answered whose removal has not come yet: focus goes on from them (focusAfterInbox). */
const answeredCards = new Set<string>();
const inbox = new InboxView({
  answer: (id, decision) => {
    answeredCards.add(id);
    post({ type: 'inbox_answer', id, decision });
  },
  reply: (id, text) => {
    answeredCards.add(id);
    post({ type: 'inbox_reply', id, text });
  },
  fanout: (id, choice, dontAsk) => {
    answeredCards.add(id);
    post({ type: 'inbox_fanout', id, choice, dontAsk });
  },
  show: (agentId) => {
    revealAgent = agentId;
    schedule();
  },
}, () => app.clientHeight - composer.element.offsetHeight - changesBar.element.offsetHeight - keptBar.element.offsetHeight);

const app = el('div', 'app');
logWrap.prepend(findBar.element);
logArea.append(sticky.element, sticky.jump);
app.append(history.element, inbox.element, logWrap, keptBar.element, changesBar.element, composer.element);
document.body.append(app);

function flush(): void {
  frame = 0;
  const changed = needsReset || pending.size > 0;
  const snapshot = needsReset;
  if (needsReset) {
    needsReset = false;
    renderer.reset(state);
  } else {
    renderer.update(state, pending);
  }
  pending = new Set();
  if (revealAgent !== undefined) revealPending();
  hint.hidden = state.items.length > 0;
  const running = hostRunning || state.running;
  composer.setRunning(running);
  // What waits for the run's end (a task's Retry) is hidden while anything runs.
  app.classList.toggle('is-running', running);
  // The run's changes are gathered once it has ended (a walk of the run), not on every frame of it.
  if (running) changesBar.update(null);
  else if (snapshot) barAfterPaint(state);
  else if (changed || running !== barRunning) changesBar.update(runChanges(state, expansion.keptFiles()));
  // Isolated subagents' kept work: read from the agents' task nodes only (a few), once the run has ended.
  // A resolve the bar started is a run too: the bar stays, showing it busy.
  if (changed || running !== barRunning) keptBar.update(running && !keptBar.resolving ? null : keptWork(state), running);
  barRunning = running;
  const t = state.totals;
  composer.setTotals(state.items.length === 0 ? { full: '', compact: '' } : totalsLine(t), cacheTooltip(t.tokens));
}

/**
 * A snapshot's changes bar, once the conversation is painted: gathering it reads every call of the last run, which
 * a packed snapshot makes only when read (call-table.ts), so the rows in view come first.
 */
function barAfterPaint(of: SessionViewState): void {
  changesBar.update(null);
  requestIdleCallback(() => {
    if (state === of && !(hostRunning || state.running)) changesBar.update(runChanges(state, expansion.keptFiles()));
  }, { timeout: 250 });
}

/** A subagent to show (the Chat view's button), once its rows are rendered. */
let revealAgent: string | undefined;

function revealPending(): void {
  const task = Object.values(state.nodes).find((n) => n.kind === 'task' && n.agentId === revealAgent);
  revealAgent = undefined;
  if (!task) return;
  showConversation();
  // The user went to this row on purpose: reveal stops following the conversation's end.
  renderer.reveal(task.id);
}

function schedule(): void {
  if (frame === 0) frame = requestAnimationFrame(flush);
}

window.addEventListener('message', (ev: MessageEvent<HostToWebview>) => {
  const msg = ev.data;
  switch (msg.type) {
    case 'snapshot':
      // A new or opened session, or a run the palette started: the conversation, not a stale History list.
      showConversation();
      state = msg.packed !== undefined ? decodeSnapshot(msg.packed) : msg.state;
      // Trimming the saved choices of other sessions can wait: an id of another session is looked for in every call.
      requestIdleCallback(() => {
        const nodes = state.nodes;
        expansion.retain((id) => id.replace(/^(prompt|outcome|changes|fold):/, '') in nodes);
      }, { timeout: 1000 });
      hostRunning = msg.running;
      pending = new Set();
      needsReset = true;
      // Drawn now rather than at the next frame: the whole conversation is here, and that frame can show it.
      if (frame !== 0) cancelAnimationFrame(frame);
      flush();
      return;
    case 'events':
      // A prompt sent from elsewhere (the palette's Ask, the Chat view) is the user's too: follow it.
      if (msg.events.some((e) => e.type === 'prompt')) renderer.following = true;
      applyEvents(state, msg.events, pending);
      break;
    case 'node_detail':
      // The input and output a slim snapshot left out, for a row being opened.
      if (state.nodes[msg.node.id]?.kind === 'tool') {
        state.nodes[msg.node.id] = msg.node;
        pending.add(msg.node.id);
      }
      break;
    case 'status':
      // A run started (Ask from the palette or the chat view): show it, even over the History list.
      if (msg.running && !hostRunning) {
        showConversation();
        // The host's word that a run starts (not the frame's running flag: the run's own events arrive in batches
        // after the host's messages, and a batch holding its start but not its end would clear a 401 line said
        // at its end).
        composer.runStarted();
      }
      hostRunning = msg.running;
      break;
    case 'workspace':
      setWorkspaceFolders(msg.folders);
      return;
    case 'kept_resolve':
      keptBar.resolveState(msg);
      keptBar.update(keptWork(state), hostRunning || state.running);
      return;
    case 'reveal':
      revealAgent = msg.agentId;
      break;
    case 'inbox':
      inbox.update(msg.items);
      focusAfterInbox(msg.items.map((i) => i.id));
      return;
    case 'find':
      find();
      return;
    case 'setup': {
      // A card that goes while one of its buttons has the focus hands it to the prompt box, not the page body.
      const focused = setupCard.element.contains(document.activeElement);
      setupCard.update(msg.problem);
      composer.setSetupNeeded(msg.problem !== undefined);
      if (focused && setupCard.element.hidden) composer.focus();
      return;
    }
    case 'cannot_run':
      showConversation();
      composer.cannotRun(msg.problem, msg.prompt);
      return;
    case 'key_saved':
      composer.keySaved();
      return;
    case 'fill_prompt':
      showConversation();
      composer.fillHandoff(msg.text, msg.handoff);
      return;
    case 'history':
      logWrap.hidden = true;
      composer.element.hidden = true;
      app.classList.add('showing-history');
      history.show(msg.sessions, msg.currentId);
      return;
    default:
      return;
  }
  schedule();
});

// Running tasks' elapsed time ticks even while no event arrives (a subagent waiting on a slow model).
setInterval(() => {
  renderer.tick(Date.now());
  sticky.tick(Date.now());
}, 1000);

/** Where focus is when no control has it: the page itself (a screen reader says "document", keys do nothing). */
const focusLost = (): boolean => document.activeElement === null || document.activeElement === document.body;

/** An answered card went: focus stays in the inbox (its next card) when one is left, else goes to the prompt box. */
function focusAfterInbox(ids: readonly string[]): void {
  const gone = [...answeredCards].filter((id) => !ids.includes(id));
  for (const id of gone) answeredCards.delete(id);
  if (gone.length > 0 && focusLost()) composer.focus();
}

// "Focus on Delegate View" (and any way back into the panel by keyboard): the prompt box, as the Chat view does —
// even when a row kept the document's focus from before (which one is left depends on what re-rendered meanwhile).
// Not for a click into the panel (its own focus or a selection is the user's), nor a return from the editor UI the
// panel itself opened (a quick pick, an input box: the row the user acted on keeps the focus).
/** A text box the user was typing in (the find bar, an inbox answer) keeps the focus whatever took it away. */
const typingIn = (el: Element | null): boolean => el?.matches('input, textarea, vscode-textfield, vscode-textarea') ?? false;
let pointerAt = -Infinity;
let leftByPanel = false;
window.addEventListener('pointerdown', () => (pointerAt = performance.now()), { capture: true });
// The host keeps a context of its own (VS Code has none for a focused webview view): Ctrl/Cmd+F is the panel's then.
window.addEventListener('focus', () => {
  post({ type: 'focus', focused: true });
  setTimeout(() => {
    if (performance.now() - pointerAt < 500 || app.classList.contains('showing-history')) return;
    if (focusLost() || !(leftByPanel || typingIn(document.activeElement))) composer.focus();
  }, 0);
});
window.addEventListener('blur', () => {
  post({ type: 'focus', focused: false });
  leftByPanel = performance.now() - lastAskedAt() < 1000;
  // A click counts for the focus it brings, not for a later return (the palette within 500 ms of a click: e2e).
  pointerAt = -Infinity;
});

schedule();
composer.focus();
post({ type: 'ready' });
if (document.hasFocus()) post({ type: 'focus', focused: true });
