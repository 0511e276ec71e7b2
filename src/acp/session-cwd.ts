/**
 * The folder a session/new or session/load names: the protocol says an absolute path, and Delegate works in it
 * (its files, its settings, its transcripts' index), so anything else is -32602 before a session exists — a
 * relative path would be resolved against wherever the client happened to start the agent.
 */
import { stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { RequestError } from '@agentclientprotocol/sdk/unstable';

/** Throws -32602 unless `cwd` is an absolute path to a folder. */
export async function checkSessionCwd(cwd: string): Promise<void> {
  if (!isAbsolute(cwd)) throw RequestError.invalidParams({ cwd }, `cwd must be an absolute path (got "${cwd}")`);
  const info = await stat(cwd).catch(() => undefined);
  if (!info) throw RequestError.invalidParams({ cwd }, `cwd does not exist: ${cwd}`);
  if (!info.isDirectory()) throw RequestError.invalidParams({ cwd }, `cwd is not a folder: ${cwd}`);
}
