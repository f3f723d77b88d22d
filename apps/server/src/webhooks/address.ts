import { BlockList, isIP } from 'node:net';
import { lookup } from 'node:dns/promises';
import { err, ok, type Result } from '../result.ts';

/** Addresses no delivery may reach unless the operator allows the host: private, link-local and the like. */
const internal = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24],
  ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) internal.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [['::', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['2002::', 16]] as const) internal.addSubnet(net, bits, 'ipv6');

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

type Family = 'ipv4' | 'ipv6';

/** An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is judged as the IPv4 address it carries. */
function unmapped(address: string): { address: string; family: Family } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1]!, family: 'ipv4' };
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

export function isLoopbackAddress(address: string): boolean {
  const a = unmapped(address);
  return loopback.check(a.address, a.family);
}

/** The host part of a URL without IPv6 brackets, lower-cased. */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
}

/** localhost, or a loopback address literal: the only hosts besides allowed ones that may use http. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || (isIP(host) !== 0 && isLoopbackAddress(host));
}

/**
 * Whether a delivery to `host` may connect to `address`: an allowed host anywhere; a loopback host
 * to loopback only; any other host to a public address only (not loopback: a public name that
 * resolves to 127.0.0.1 is an attack on this machine).
 */
export function addressAllowed(host: string, address: string, allowHosts: readonly string[]): boolean {
  if (allowHosts.includes(host)) return true;
  if (isLoopbackHost(host)) return isLoopbackAddress(address);
  const a = unmapped(address);
  return !internal.check(a.address, a.family) && !loopback.check(a.address, a.family);
}

export type UrlCheck = Result<URL, string>;

/** The rules a webhook URL must follow when it is stored (addresses are checked again at each attempt). */
export function checkWebhookUrl(raw: string, allowHosts: readonly string[]): UrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return err('the url is not an absolute URL');
  }
  const host = bareHost(url);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return err('the url must be https');
  if (url.protocol === 'http:' && !isLoopbackHost(host) && !allowHosts.includes(host)) {
    return err('the url must be https (http only for loopback and operator-allowed hosts)');
  }
  if (url.username || url.password) return err('the url must not carry credentials');
  if (isIP(host) !== 0 && !addressAllowed(host, host, allowHosts)) {
    return err(`${host} is a private, link-local or otherwise internal address`);
  }
  return ok(url);
}

export type Resolver = (host: string) => Promise<Array<{ address: string; family: number }>>;

export const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

export class AddressRefused extends Error {}

/**
 * The address an attempt connects to: resolved now (names can change between attempts), every
 * address checked, the first one kept so the connection goes where the check looked (no second
 * lookup for DNS rebinding to exploit).
 */
export async function resolveDeliveryAddress(url: URL, allowHosts: readonly string[], resolve: Resolver = systemResolver): Promise<{ address: string; family: number }> {
  const host = bareHost(url);
  const family = isIP(host);
  const addresses = family !== 0 ? [{ address: host, family }] : await resolve(host);
  if (addresses.length === 0) throw new AddressRefused(`${host} has no address`);
  const refused = addresses.find((a) => !addressAllowed(host, a.address, allowHosts));
  if (refused) throw new AddressRefused(`${host} resolves to ${refused.address}, an internal address`);
  return addresses[0]!;
}
