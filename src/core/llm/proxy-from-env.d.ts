// proxy-from-env 2.x ships no types (its 1.x types live in @types/proxy-from-env); its one export:
declare module 'proxy-from-env' {
  /** The proxy URL for `url` from *_PROXY / ALL_PROXY and NO_PROXY (lower case first), or '' for none. */
  export function getProxyForUrl(url: string | URL): string;
}
