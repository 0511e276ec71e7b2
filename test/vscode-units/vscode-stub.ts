/**
 * A stand-in for the `vscode` module, for units of src/vscode/ that call a few window and command functions:
 * `require('vscode')` resolves to it once installVscodeStub() ran (load the unit with require after that).
 * Messages and commands are recorded; tests set the answers.
 */
import Module from 'node:module';

export interface VscodeStub {
  messages: { level: 'info' | 'warning' | 'error'; text: string }[];
  commands: { command: string; args: unknown[] }[];
  /** What the next showWarningMessage resolves to (a modal's button). */
  warningAnswer: string | undefined;
  workspaceFolder: string | undefined;
}

interface StubUri {
  scheme: string;
  path: string;
  query: string;
  fsPath: string;
  toString(): string;
}

const uri = (scheme: string, path: string, query = ''): StubUri => ({ scheme, path, query, fsPath: path, toString: () => `${scheme}:${path}${query ? `?${query}` : ''}` });

/** vscode.EventEmitter as the units use it: `event(listener)` gives a disposable, `fire` calls the listeners. */
class StubEventEmitter<T> {
  private listeners: ((value: T) => void)[] = [];
  readonly event = (listener: (value: T) => void): { dispose(): void } => {
    this.listeners.push(listener);
    return { dispose: () => void (this.listeners = this.listeners.filter((l) => l !== listener)) };
  };
  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }
  dispose(): void {
    this.listeners = [];
  }
}

export function installVscodeStub(): VscodeStub {
  const state: VscodeStub = { messages: [], commands: [], warningAnswer: undefined, workspaceFolder: undefined };
  const api = {
    window: {
      showInformationMessage: async (text: string) => void state.messages.push({ level: 'info', text }),
      showWarningMessage: async (text: string) => {
        state.messages.push({ level: 'warning', text });
        return state.warningAnswer;
      },
      showErrorMessage: async (text: string) => void state.messages.push({ level: 'error', text }),
    },
    commands: {
      executeCommand: async (command: string, ...args: unknown[]) => void state.commands.push({ command, args }),
    },
    workspace: {
      get workspaceFolders() {
        return state.workspaceFolder ? [{ uri: uri('file', state.workspaceFolder) }] : undefined;
      },
    },
    EventEmitter: StubEventEmitter,
    Uri: {
      from: (parts: { scheme: string; path: string; query?: string }) => uri(parts.scheme, parts.path, parts.query),
      joinPath: (base: StubUri, ...segments: string[]) => uri(base.scheme, [base.path, ...segments].join('/')),
    },
  };
  const loader = Module as unknown as { _resolveFilename(request: string, ...rest: unknown[]): string };
  const resolve = loader._resolveFilename;
  loader._resolveFilename = function (request: string, ...rest: unknown[]): string {
    return request === 'vscode' ? 'vscode' : resolve.call(this, request, ...rest);
  };
  require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: api } as unknown as NodeJS.Module;
  return state;
}
