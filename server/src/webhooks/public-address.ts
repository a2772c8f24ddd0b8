/**
 * Where a webhook may go in production: an address on the internet, never one of the lab's own
 * networks. A clinic's Super Admin types the URL, so without this check the worker would POST to
 * whatever they name: the lab's database, Redis, a cloud metadata service (server-side request
 * forgery). The host is resolved before each attempt and every address it resolves to must be
 * public. (The name is resolved again by the request itself; a name that changes its answer in
 * between is not caught here: the network's egress rules are the second line.)
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) PRIVATE.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) PRIVATE.addSubnet(net, prefix, 'ipv6');

/** Whether one IP address is outside every private, loopback, link-local and reserved range (an IPv4-mapped IPv6 address as its IPv4). */
export function isPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPublicAddress(mapped[1]);
  const family = isIP(address);
  if (family === 0) return false;
  return !PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Why a URL may not be called (its host resolves to a private address, or not at all), or null when it may. */
export async function privateDestination(url: string): Promise<string | null> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    return `The webhook's host ${host} does not resolve`;
  }
  const refused = addresses.find((a) => !isPublicAddress(a));
  return refused ? `The webhook's host ${host} is a private address (${refused}): not called` : null;
}
