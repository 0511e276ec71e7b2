/**
 * Where one web_fetch hop goes, decided once: the host is resolved here, its addresses are checked, and the
 * request then connects to exactly those addresses (a `lookup` that answers with them), so a DNS answer that
 * changes between the check and the connection (a rebind) cannot slip a private address past the check.
 *
 *   URL ─▶ IP literal? ──yes──▶ that address
 *            └─no──▶ lookup(host, all) ─▶ every address classified ─▶ any private → the hop is private
 *                                                                     (its own permission, see web-fetch.ts)
 */
import type { LookupAddress } from 'node:dns';
import type { RequestOptions } from 'node:http';
import { isIP } from 'node:net';
import { literalPrivateRange, privateRange, type PrivateRange } from './private-address';

/** Resolves a host name to every address it has (DNS by default; tests inject one). */
export type HostLookup = (hostname: string) => Promise<LookupAddress[]>;

// node:dns is loaded on the first lookup: loading it builds the default resolver (reads /etc/resolv.conf) at start.
export const systemLookup: HostLookup = async (hostname) => (await import('node:dns/promises')).lookup(hostname, { all: true });

export interface FetchDestination {
  /** The URL's host without IPv6 brackets. */
  host: string;
  port: string;
  addresses: LookupAddress[];
  /** Set when an address is on this machine or a private network: that address and its range. */
  private?: { address: string; range: PrivateRange };
}

export async function resolveDestination(url: URL, lookup: HostLookup, classify: (address: string) => PrivateRange | undefined = privateRange): Promise<FetchDestination> {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const family = isIP(host);
  const addresses = family !== 0 ? [{ address: host, family }] : await lookup(host);
  if (addresses.length === 0) throw new Error(`${host} has no address`);
  // localhost is this machine whatever a resolver says (RFC 6761), as the permission check before the call assumed.
  const named = family === 0 ? literalPrivateRange(host) : undefined;
  if (named && addresses[0]) return { host, port, addresses, private: { address: addresses[0].address, range: named } };
  for (const { address } of addresses) {
    const range = classify(address);
    if (range) return { host, port, addresses, private: { address, range } };
  }
  return { host, port, addresses };
}

/**
 * A hop whose host this machine cannot resolve but a proxy will (behind a corporate proxy, often only the proxy
 * has DNS for the outside): the host as written is still checked (localhost and its kind), and no address is pinned.
 */
export function unresolvedDestination(url: URL): FetchDestination {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const named = literalPrivateRange(host);
  return { host, port, addresses: [], ...(named ? { private: { address: host, range: named } } : {}) };
}

/** A `lookup` for the request that answers with the checked addresses only (never asks DNS again). */
export function pinnedLookup(addresses: LookupAddress[]): NonNullable<RequestOptions['lookup']> {
  return (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
    const first = wanted[0];
    if (!first) {
      callback(Object.assign(new Error(`no IPv${String(options.family)} address was checked for this host`), { code: 'ENOTFOUND' }), '', 0);
      return;
    }
    if (options.all) (callback as (err: null, addresses: LookupAddress[]) => void)(null, wanted);
    else callback(null, first.address, first.family);
  };
}
