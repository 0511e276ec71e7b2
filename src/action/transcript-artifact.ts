/**
 * The run's transcript as a workflow artifact, through the maintained client (@actions/artifact): the session's
 * `<id>.jsonl` (the main agent, each subagent's start and finish) and everything in its `<id>/` folder
 * (`subagents/agent-<id>.jsonl`, long tool outputs), zipped with paths relative to the sessions folder.
 *
 *   sessions/
 *     <id>.jsonl            ─┐
 *     <id>/subagents/…      ─┴─► artifact "delegate-transcript-<id>" (unique per run: matrix jobs do not collide)
 */
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface TranscriptFiles {
  /** The folder the paths in the zip are relative to. */
  root: string;
  files: string[];
}

/** The files of the session whose main transcript is `sessionFile`. */
export function transcriptFiles(sessionFile: string): TranscriptFiles {
  const folder = sessionFile.replace(/\.jsonl$/, '');
  const files = [sessionFile];
  let inside: string[] = [];
  try {
    inside = readdirSync(folder, { recursive: true, encoding: 'utf8' }).map((name) => join(folder, name));
  } catch {
    // A run with no subagent and no saved output has no folder.
  }
  for (const file of inside.sort()) if (statSync(file).isFile()) files.push(file);
  return { root: dirname(sessionFile), files };
}

export const defaultArtifactName = (sessionId: string): string => `delegate-transcript-${sessionId}`;

export async function uploadTranscript(name: string, transcript: TranscriptFiles): Promise<{ id?: number; size?: number }> {
  // artifact-client.ts, a bundle apart (dist/action/artifact.js) in the build, loaded on first upload.
  const { DefaultArtifactClient } = await import('./artifact-client');
  return new DefaultArtifactClient().uploadArtifact(name, transcript.files, transcript.root);
}
