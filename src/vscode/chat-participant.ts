/**
 * `@delegate` in VS Code's Chat view. Its requests run in the same Delegate session as the panel (the
 * panel shows the prompt, the tree and every tool call as usual), on the model picked in the chat's
 * model picker (`request.model`); chat-progress.ts turns the run into the chat's response.
 *
 *   @delegate <prompt>   a prompt; a follow-up goes on with the same conversation
 *   /new                 a new session (controller.newSession)
 *   /compact             compacts the conversation (controller.compact)
 *
 * An editor without the chat API or Chat view: nothing is registered, the panel and the palette stay
 * the way in.
 */
import * as vscode from 'vscode';
import { ChatProgress } from './chat-progress';
import type { SessionController } from './session-controller';

const PARTICIPANT_ID = 'delegate.chat';

export function registerChatParticipant(context: vscode.ExtensionContext, controller: SessionController): void {
  // The API is there from 1.95 on; a host that strips it (or an editor without chat) is not an error.
  if (typeof vscode.chat?.createChatParticipant !== 'function') return;
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, (request, _context, stream, token) => handle(controller, request, stream, token));
  participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'delegate.svg');
  context.subscriptions.push(participant);
}

async function handle(controller: SessionController, request: vscode.ChatRequest, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
  if (request.command === 'new') {
    controller.newSession();
    stream.markdown('Started a new Delegate session: the next prompt starts a fresh conversation.');
    return {};
  }
  if (controller.isRunning) {
    return { errorDetails: { message: 'Delegate is still working on the last prompt: stop it first, or wait.' } };
  }
  if (request.command === 'compact') {
    const done = await controller.compact({ model: request.model });
    if (done === undefined) return { errorDetails: { message: 'The conversation could not be compacted (see the notification).' } };
    stream.markdown(done ? 'Compacted the conversation: the next prompt starts from its summary.' : 'Nothing to compact yet.');
    return {};
  }
  const progress = new ChatProgress(stream);
  const events = controller.onEvents((batch) => {
    for (const event of batch) progress.onEvent(event);
  });
  const cancel = token.onCancellationRequested(() => controller.stop());
  try {
    const result = await controller.ask(request.prompt, { model: request.model });
    if (!result) return { errorDetails: { message: 'Delegate could not start (the notification says why).' } };
    if (result.status === 'error') return { errorDetails: { message: result.error ?? 'the run failed' }, metadata: { sessionId: controller.openSessionId } };
    // A reply that streamed nothing (a hook's block, a turn limit) still says something here.
    if (!progress.streamedText && result.result) stream.markdown(result.result);
    if (result.status === 'cancelled') stream.markdown('\n\n_Stopped._');
    return { metadata: { sessionId: controller.openSessionId } };
  } finally {
    events.dispose();
    cancel.dispose();
  }
}
