/**
 * Durable JSONL transcripts, built from the event stream and awaited per event:
 *
 *   <root>/<session>.jsonl                          root agent's events + every subagent's start/finish
 *   <root>/<session>/subagents/agent-<id>.jsonl     everything one subagent did
 *   <root>/<session>/tool-outputs/<tool_use_id>.txt full text of outputs cut for the model
 *
 * Each line is appended with one write before the run goes on (files stay open in append mode;
 * a synchronous write of one line costs microseconds, an open-append-close hundreds of them), so
 * a run killed mid-way leaves valid lines up to its last event. `text_delta` events are not
 * stored: the `message` event that follows holds the whole text; nor is `tool_output` (a call's end holds it); nor is `prompt` (the hosts' echo): the
 * `agent_started` that follows holds it, and a prompt a UserPromptSubmit hook blocked stays off the disk.
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { mkdir, writeFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { DelegateEvent, EventListener } from '../events';

export interface TranscriptStore {
  readonly sessionId: string;
  readonly sessionFile: string;
  readonly sessionDir: string;
  agentFile(agentId: string): string;
  /** The bus listener that writes each event where it belongs. */
  readonly listener: EventListener;
  /** Saves a full tool output; returns its path. */
  saveToolOutput(toolUseId: string, content: string): Promise<string>;
  /** Where a tool's full output goes (a tool streaming a huge output writes there itself). */
  toolOutputPath(toolUseId: string): string;
  /** Closes the open transcript files (a later event reopens them). */
  close(): void;
}

export async function createTranscriptStore(root: string, sessionId: string, rootAgentId: string): Promise<TranscriptStore> {
  const sessionFile = join(root, `${sessionId}.jsonl`);
  const sessionDir = join(root, sessionId);
  const subagentDir = join(sessionDir, 'subagents');
  const outputDir = join(sessionDir, 'tool-outputs');
  await mkdir(root, { recursive: true });
  let outputDirReady: Promise<unknown> | undefined;
  let subagentDirMade = false;
  const fds = new Map<string, number>();

  const append = (file: string, line: string): void => {
    let fd = fds.get(file);
    if (fd === undefined) {
      fd = openSync(file, 'a');
      fds.set(file, fd);
    }
    writeSync(fd, line);
  };

  const agentFile = (agentId: string): string => join(subagentDir, `agent-${agentId}.jsonl`);

  const listener: EventListener = (event: DelegateEvent) => {
    if (event.type === 'text_delta' || event.type === 'tool_output' || event.type === 'prompt') return;
    const line = JSON.stringify(event) + '\n';
    const isRoot = event.agentId === rootAgentId;
    if (isRoot || event.type === 'agent_started' || event.type === 'agent_finished') append(sessionFile, line);
    if (!isRoot) {
      if (!subagentDirMade) mkdirSync(subagentDir, { recursive: true });
      subagentDirMade = true;
      append(agentFile(event.agentId), line);
    }
  };

  const close = (): void => {
    for (const fd of fds.values()) closeSync(fd);
    fds.clear();
  };

  const toolOutputPath = (toolUseId: string): string => join(outputDir, `${toolUseId.replace(/[^\w.-]/g, '_')}.txt`);

  const saveToolOutput = async (toolUseId: string, content: string): Promise<string> => {
    outputDirReady ??= mkdir(outputDir, { recursive: true });
    await outputDirReady;
    const file = toolOutputPath(toolUseId);
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, content, 'utf8');
    await rename(tmp, file);
    return file;
  };

  return { sessionId, sessionFile, sessionDir, agentFile, listener, saveToolOutput, toolOutputPath, close };
}

/** Where the CLI keeps transcripts: $XDG_DATA_HOME/delegate, default ~/.local/share/delegate. */
export function defaultTranscriptRoot(env: NodeJS.ProcessEnv, home: string): string {
  const dataHome = env.XDG_DATA_HOME && env.XDG_DATA_HOME.trim() ? env.XDG_DATA_HOME : join(home, '.local', 'share');
  return join(dataHome, 'delegate', 'sessions');
}
