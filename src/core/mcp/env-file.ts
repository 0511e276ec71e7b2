/**
 * VS Code's `envFile` for a stdio server: a dotenv file (`KEY=value`, `export KEY=value`, `#` comments,
 * single or double quotes; `\n` inside double quotes is a newline). The server's own `env` entries win over it.
 */
export function parseEnvFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/.exec(line);
    if (!m) continue;
    let value = (m[2] as string).trim();
    const quote = value[0];
    if ((quote === '"' || quote === "'") && value.length >= 2 && value.endsWith(quote)) {
      value = value.slice(1, -1);
      if (quote === '"') value = value.replace(/\\n/g, '\n').replace(/\\"/g, '"');
    } else {
      // An unquoted value ends at a ` #` comment.
      value = value.replace(/\s+#.*$/, '');
    }
    env[m[1] as string] = value;
  }
  return env;
}
