// Where a webhook may be sent. A URL names a host; the host is resolved once, every address it resolves
// to is checked, and the connection is made to the checked address (never resolved again), so a DNS
// answer that changes between the check and the connection (rebinding) cannot reach an inner address.
// Operators name hosts that may be reached anyway (SVC_WEBHOOK_ALLOW_HOSTS), e.g. a receiver on the
// same machine; only those hosts may also use plain http.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { AppError } from '../core/errors.js';

// Only globally reachable unicast may be reached. The special-purpose blocks come from ipaddr.js's range
// tables (kept in step with the IANA IPv4 and IPv6 Special-Purpose Address Registries); an address is
// refused unless the library calls it plain `unicast`. That refuses every registry block, including the
// few the registry marks globally reachable (anycast services, AS112, AMT, ORCHIDv2): no webhook receiver
// lives there.
const IPV6_GLOBAL_UNICAST = ipaddr.IPv6.parse('2000::');
// The well-known NAT64 prefix (RFC 6052): a translator forwards to the IPv4 address in the last 32 bits.
const NAT64_WELL_KNOWN = ipaddr.IPv6.parse('64:ff9b::');

/**
 * True for an address a webhook must never reach. IPv4: anything but plain unicast (loopback, private,
 * shared, link-local, benchmarking, documentation, IETF protocol assignments, multicast, reserved…).
 * IPv6: two forms carry an IPv4 address that is where the connection really goes, and are judged by it:
 * IPv4-mapped (::ffff:a.b.c.d, which the kernel connects over IPv4) and the well-known NAT64 prefix
 * (64:ff9b::/96). Every other address must be plain unicast inside 2000::/3, the only space IANA hands out
 * for global unicast: this refuses the other forms that embed an IPv4 address (local-use NAT64
 * 64:ff9b:1::/48, 6to4 2002::/16, Teredo 2001::/32, IPv4-compatible ::/96), whose destination depends on
 * a relay or translator the service cannot see, as well as deprecated site-local and newer blocks a
 * library may not list yet. An address with a zone, or anything that is not an address, is refused.
 */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0 || address.includes('%')) return true;
  if (family === 4) return ipaddr.IPv4.parse(address).range() !== 'unicast';
  const v6 = ipaddr.IPv6.parse(address);
  if (v6.isIPv4MappedAddress() || v6.match(NAT64_WELL_KNOWN, 96)) return isForbiddenAddress(embeddedIpv4(v6));
  return !v6.match(IPV6_GLOBAL_UNICAST, 3) || v6.range() !== 'unicast';
}

/** The IPv4 address in an IPv6 address's last 32 bits. */
function embeddedIpv4(address: ipaddr.IPv6): string {
  const [hi, lo] = address.parts.slice(6) as [number, number];
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
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
    if (bad) throw new WebhookAddressError(`The webhook host ${host} resolves to ${bad.address}, which is not a public address (loopback, private, link-local or another special-purpose block)`);
  }
  const first = addresses[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
