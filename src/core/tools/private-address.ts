/**
 * Which addresses are "this machine or a private network" for web_fetch: a fetch there needs its own permission
 * naming the host, in every mode (see web-fetch.ts). The ranges come from ipaddr.js's named special ranges:
 *
 *   this machine      loopback 127/8 and ::1; unspecified 0.0.0.0/8 and :: (Linux connects them to the host)
 *   a link-local      169.254/16 (cloud metadata: 169.254.169.254), fe80::/10
 *   a private network RFC 1918 10/8, 172.16/12, 192.168/16; unique-local fc00::/7; CGNAT 100.64/10 (Tailscale
 *                     and carrier NATs put private machines there)
 *
 * IPv6 forms that carry an IPv4 address are judged by that address: IPv4-mapped (::ffff:127.0.0.1), NAT64
 * (64:ff9b::/96) and 6to4 (2002::/16). Multicast, broadcast and documentation ranges are not private (a TCP
 * connection cannot reach anything there), so they are left to fail as they would.
 */
import ipaddr from 'ipaddr.js';

export type PrivateRange = 'loopback' | 'unspecified' | 'link-local' | 'private' | 'unique-local' | 'cgnat';

const IPV4: Partial<Record<string, PrivateRange>> = {
  loopback: 'loopback',
  unspecified: 'unspecified',
  linkLocal: 'link-local',
  private: 'private',
  carrierGradeNat: 'cgnat',
};
const IPV6: Partial<Record<string, PrivateRange>> = {
  loopback: 'loopback',
  unspecified: 'unspecified',
  linkLocal: 'link-local',
  uniqueLocal: 'unique-local',
};

/** The private range an IP address is in, or undefined (public, or not an IP address at all). */
export function privateRange(address: string): PrivateRange | undefined {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (!ipaddr.isValid(bare)) return undefined;
  // process() turns an IPv4-mapped IPv6 address into its IPv4 address.
  const ip = ipaddr.process(bare);
  if (ip.kind() === 'ipv4') return IPV4[ip.range()];
  const v6 = ip as ipaddr.IPv6;
  const range = v6.range();
  const embedded = range === 'rfc6052' ? v6.parts.slice(6, 8) : range === '6to4' ? v6.parts.slice(1, 3) : undefined;
  if (embedded) return IPV4[fromParts(embedded).range()];
  return IPV6[range];
}

function fromParts([high = 0, low = 0]: number[]): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/** "this machine" or "the local network": how a prompt names where a private fetch goes. */
export function privatePlace(range: PrivateRange): string {
  return range === 'loopback' || range === 'unspecified' ? 'this machine' : 'the local network';
}

/** A hostname that is private without asking DNS: an IP literal in a private range, or localhost (RFC 6761). */
export function literalPrivateRange(hostname: string): PrivateRange | undefined {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  return privateRange(host);
}
