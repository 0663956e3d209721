// Where a webhook may be sent. A URL names a host; the host is resolved once, every address it resolves
// to is checked, and the connection is made to the checked address (never resolved again), so a DNS
// answer that changes between the check and the connection (rebinding) cannot reach an inner address.
// Operators name hosts that may be reached anyway (SVC_WEBHOOK_ALLOW_HOSTS), e.g. a receiver on the
// same machine; only those hosts may also use plain http.
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { AppError } from '../core/errors.js';

const blocked = new BlockList();
// IPv4: unspecified, "this network", loopback, private, carrier-grade NAT, link-local, multicast and reserved.
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 3],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
// IPv6: unspecified, loopback, unique local (fc00::/7), link-local (fe80::/10), multicast.
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

/** An IPv4 address hidden in an IPv6 form (::ffff:a.b.c.d, ::a.b.c.d, 64:ff9b::a.b.c.d) as IPv4, else undefined. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:(?:0:)?|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:(?:0:)?|::|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return undefined;
  const hi = parseInt(hex[1]!, 16);
  const lo = parseInt(hex[2]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** True for an address a webhook must never reach (loopback, private, link-local, unspecified…). */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  const v4 = embeddedIpv4(address);
  if (v4) return blocked.check(v4, 'ipv4');
  return blocked.check(address, 'ipv6');
}

export class WebhookAddressError extends AppError {
  constructor(message: string) {
    super(400, 'invalid_webhook_url', message);
  }
}

/** The hosts of SVC_WEBHOOK_ALLOW_HOSTS, lower case, brackets of IPv6 literals removed. */
export function parseAllowHosts(value: string | undefined): ReadonlySet<string> {
  return new Set((value ?? '').split(',').map((h) => h.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1')).filter(Boolean));
}

function hostOf(url: URL): string {
  return url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
}

/** Checks a URL's form: https (http only for allowed hosts), no credentials. Returns it parsed. */
export function checkWebhookUrl(raw: string, allowHosts: ReadonlySet<string>): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookAddressError('The webhook URL is not a valid URL');
  }
  const allowed = allowHosts.has(hostOf(url));
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowed))
    throw new WebhookAddressError('The webhook URL must use https (http only for hosts in SVC_WEBHOOK_ALLOW_HOSTS)');
  if (url.username || url.password) throw new WebhookAddressError('The webhook URL must not carry credentials');
  return url;
}

export type Resolver = (host: string) => Promise<Array<{ address: string; family: number }>>;
export const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

/**
 * Resolves the URL's host once and checks every address. Returns the address to connect to. An
 * allowed host skips the address check (the operator named it), but is still pinned.
 */
export async function resolveWebhookTarget(url: URL, allowHosts: ReadonlySet<string>, resolve: Resolver = systemResolver): Promise<{ address: string; family: 4 | 6 }> {
  const host = hostOf(url);
  let addresses: Array<{ address: string; family: number }>;
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      throw new WebhookAddressError(`The webhook host ${host} does not resolve`);
    }
  }
  if (!addresses.length) throw new WebhookAddressError(`The webhook host ${host} does not resolve`);
  if (!allowHosts.has(host)) {
    const bad = addresses.find((a) => isForbiddenAddress(a.address));
    if (bad) throw new WebhookAddressError(`The webhook host ${host} resolves to ${bad.address}, a loopback, private or link-local address`);
  }
  const first = addresses[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
