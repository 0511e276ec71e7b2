/**
 * *Open in editor* for a subagent: its whole record (prompt, thinking, every call with full input and output,
 * result, changes — view-model/agent-record.ts) as a read-only markdown document in an editor tab, read from
 * the session's transcript through the core's face. The document's URI names the session and the agent
 * (`delegate-record:/<description>.md?session=…&agent=…`), so VS Code can reload it.
 */
import * as vscode from 'vscode';
import { agentRecord } from '../view-model/agent-record';
import type { SessionController } from './session-controller';

const RECORD_SCHEME = 'delegate-record';

export class AgentRecordView implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly controller: SessionController) {}

  register(): vscode.Disposable {
    return vscode.Disposable.from(vscode.workspace.registerTextDocumentContentProvider(RECORD_SCHEME, this), this.changed);
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const query = new URLSearchParams(uri.query);
    const session = query.get('session') ?? '';
    const agent = query.get('agent') ?? '';
    const events = await this.controller.sessions.read(session);
    if (!events) return `Delegate: the transcript of session ${session} was not found.\n`;
    return agentRecord(events, agent) ?? `Delegate: session ${session} has no subagent ${agent}.\n`;
  }

  /** Opens (or refreshes) the record of `agentId` of the session open in the panel. */
  async open(agentId: string, description: string): Promise<void> {
    const session = this.controller.openSessionId;
    if (!session) {
      void vscode.window.showInformationMessage('Delegate: no session is open.');
      return;
    }
    const name = description.replace(/[^\w .-]+/g, ' ').trim().slice(0, 60) || agentId;
    const uri = vscode.Uri.from({ scheme: RECORD_SCHEME, path: `/${name}.md`, query: new URLSearchParams({ session, agent: agentId }).toString() });
    this.changed.fire(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
    await vscode.window.showTextDocument(doc, { preview: false });
  }
}
