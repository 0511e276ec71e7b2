/**
 * Placeholders in MCP server configs, the two dialects:
 *
 *   .mcp.json (Claude Code)      ${VAR}  ${VAR:-default}           from the environment; `$VAR` stays as written
 *   .vscode/mcp.json (VS Code)   ${env:VAR}  ${workspaceFolder}  ${userHome}  ${input:id} (asked for by the host)
 *
 * An unset `${VAR}` without a default makes the server unusable (Claude Code's documented rule) rather than
 * sending the literal text to a server, where it fails later in a way that is harder to read. A default is
 * taken literally up to the closing brace: no nesting.
 */

export interface ExpandContext {
  env: Record<string, string | undefined>;
  /** Set in the host's environment but withheld from commands and servers (a credential): said so when missing. */
  withheld?: (name: string) => boolean;
  workspaceFolder: string;
  userHome: string;
  /** Values of `${input:id}`, when the host has them (VS Code files only). */
  inputs?: ReadonlyMap<string, string>;
  dialect: 'claude' | 'vscode';
}

export type Expanded = { ok: true; value: string } | { ok: false; missing: string };

const CLAUDE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;
const VSCODE = /\$\{(env:[A-Za-z_][A-Za-z0-9_]*|input:[^}]+|workspaceFolder|userHome|workspaceFolderBasename)\}/g;

export function expandPlaceholders(text: string, ctx: ExpandContext): Expanded {
  let missing: string | undefined;
  const value =
    ctx.dialect === 'claude'
      ? text.replace(CLAUDE, (whole, name: string, fallback: string | undefined) => {
          const set = ctx.env[name];
          // As in the shell: `:-` takes the default for an empty value too; a plain ${VAR} keeps the empty one.
          if (set !== undefined && (set !== '' || fallback === undefined)) return set;
          if (fallback !== undefined) return fallback;
          missing ??= ctx.withheld?.(name)
            ? `the environment variable ${name} holds a credential, which MCP servers and commands do not get unless it is named in the tool environment (--tool-env ${name}, delegate.toolEnv)`
            : `the environment variable ${name} is not set (write \${${name}:-default} to give a default)`;
          return whole;
        })
      : text.replace(VSCODE, (whole, key: string) => {
          if (key === 'workspaceFolder') return ctx.workspaceFolder;
          if (key === 'workspaceFolderBasename') return ctx.workspaceFolder.split(/[\\/]/).filter(Boolean).pop() ?? '';
          if (key === 'userHome') return ctx.userHome;
          if (key.startsWith('env:')) return ctx.env[key.slice(4)] ?? '';
          const id = key.slice('input:'.length);
          const given = ctx.inputs?.get(id);
          if (given !== undefined) return given;
          missing ??= `the input "${id}" has no value`;
          return whole;
        });
  return missing === undefined ? { ok: true, value } : { ok: false, missing };
}

/** The `${input:id}` ids a VS Code config value refers to, in order of first use. */
export function inputIdsIn(text: string): string[] {
  return [...text.matchAll(/\$\{input:([^}]+)\}/g)].map((m) => m[1] as string);
}
