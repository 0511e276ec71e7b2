/**
 * The file tools' FileOps through the ACP client, when it offers `fs/read_text_file` / `fs/write_text_file`: what
 * the agent reads is what the user's editor holds (unsaved buffers included), and its writes go through the editor.
 *
 *   read_file / edit / write ─▶ (paths confined by the tools, as ever) ─▶ this FileOps ─▶ fs/read_text_file
 *                                                                                     └▶ fs/write_text_file
 *   stat / exists (is it a regular file, its mode) ─▶ node:fs, as without a client
 *
 * The stale-write guard and the change journal see the bytes returned here, so they judge the client's content.
 * A side the client does not offer stays on node:fs. The client's refusal reaches the agent (and the user, in the
 * call's output) in its own words: a JSON-RPC error's `data.details` (what the SDK puts there from a handler's
 * thrown error) or `data.message`, not the bare "Internal error".
 */
import { RequestError } from '@agentclientprotocol/sdk/unstable';
import { createNodeFileOps, type FileOps } from '../core/session/ports';

export interface ClientFs {
  read?(path: string, signal?: AbortSignal): Promise<string>;
  write?(path: string, content: string): Promise<void>;
}

export function clientFileOps(client: ClientFs): FileOps {
  const local = createNodeFileOps();
  const read = client.read;
  const write = client.write;
  return {
    stat: (absPath) => local.stat(absPath),
    exists: (absPath) => local.exists(absPath),
    readFile: read
      ? async (absPath, signal) => {
          // The same refusal as on disk for what is not a regular file (a FIFO, a folder): nothing is asked.
          const info = await local.stat(absPath);
          if (info && info.type !== 'file') return local.readFile(absPath, signal);
          return Buffer.from(await read(absPath, signal).catch(rethrowSaid('read')), 'utf8');
        }
      : (absPath, signal) => local.readFile(absPath, signal),
    writeFileAtomic: write
      ? (absPath, content) => write(absPath, typeof content === 'string' ? content : Buffer.from(content).toString('utf8')).catch(rethrowSaid('write'))
      : (absPath, content) => local.writeFileAtomic(absPath, content),
  };
}

/** A client's error as one line in its own words: "the client could not read it: EACCES: …". */
function rethrowSaid(verb: 'read' | 'write') {
  return (err: unknown): never => {
    if (!(err instanceof RequestError)) throw err;
    const data = err.data as { details?: unknown; message?: unknown } | undefined;
    const said = [data?.details, data?.message].find((v): v is string => typeof v === 'string' && v.trim() !== '');
    const generic = err.message === 'Internal error';
    throw new Error(`the client could not ${verb} it: ${said ? (generic ? said : `${err.message}: ${said}`) : `${err.message} (error ${err.code})`}`);
  };
}
