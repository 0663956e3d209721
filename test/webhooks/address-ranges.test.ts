// Where a webhook may be sent, block by block of the IANA IPv4 and IPv6 Special-Purpose Address
// Registries (both as last updated 2025-10-09), written here as data. The rule under test: only
// globally reachable unicast passes, so every registry block is refused, even the few the registry marks
// globally reachable (anycast services, AS112, AMT, ORCHIDv2, drone tags: no webhook receiver lives
// there). Two IPv6 forms carry an IPv4 address the connection really goes to, and are judged by it:
// IPv4-mapped (::ffff:0:0/96, the kernel connects over IPv4) and the well-known NAT64 prefix
// (64:ff9b::/96, the translator forwards to the address in its last 32 bits). Every other form that
// embeds an IPv4 address (local-use NAT64, 6to4, Teredo, IPv4-compatible) is refused whole: where it
// leads depends on a relay or translator the service cannot see.
//
// The expectations come from an oracle written over these tables with BigInt arithmetic, not from the
// library the service uses, and the neighbours just outside each block are checked too, so a rule that
// refuses too much fails as well as one that refuses too little.
import { describe, expect, it } from 'vitest';
import { isForbiddenAddress, parseAllowHosts, resolveWebhookTarget } from '../../src/events/webhook-address.js';

type Reachable = boolean | null; // the registry's "Globally Reachable": True, False, or N/A / no value

/** IANA IPv4 Special-Purpose Address Registry, in registry order. */
const IPV4_REGISTRY: Array<[string, string, Reachable]> = [
  ['0.0.0.0/8', '"This network"', false],
  ['0.0.0.0/32', '"This host on this network"', false],
  ['10.0.0.0/8', 'Private-Use', false],
  ['100.64.0.0/10', 'Shared Address Space', false],
  ['127.0.0.0/8', 'Loopback', false],
  ['169.254.0.0/16', 'Link Local', false],
  ['172.16.0.0/12', 'Private-Use', false],
  ['192.0.0.0/24', 'IETF Protocol Assignments', false],
  ['192.0.0.0/29', 'IPv4 Service Continuity Prefix', false],
  ['192.0.0.8/32', 'IPv4 dummy address', false],
  ['192.0.0.9/32', 'Port Control Protocol Anycast', true],
  ['192.0.0.10/32', 'Traversal Using Relays around NAT Anycast', true],
  ['192.0.0.170/32', 'NAT64/DNS64 Discovery', false],
  ['192.0.0.171/32', 'NAT64/DNS64 Discovery', false],
  ['192.0.2.0/24', 'Documentation (TEST-NET-1)', false],
  ['192.31.196.0/24', 'AS112-v4', true],
  ['192.52.193.0/24', 'AMT', true],
  ['192.88.99.0/24', 'Deprecated (6to4 Relay Anycast)', null],
  ['192.88.99.2/32', '6a44-relay anycast address', false],
  ['192.168.0.0/16', 'Private-Use', false],
  ['192.175.48.0/24', 'Direct Delegation AS112 Service', true],
  ['198.18.0.0/15', 'Benchmarking', false],
  ['198.51.100.0/24', 'Documentation (TEST-NET-2)', false],
  ['203.0.113.0/24', 'Documentation (TEST-NET-3)', false],
  ['240.0.0.0/4', 'Reserved', false],
  ['255.255.255.255/32', 'Limited Broadcast', false],
];

/** IANA IPv6 Special-Purpose Address Registry, in registry order. */
const IPV6_REGISTRY: Array<[string, string, Reachable]> = [
  ['::1/128', 'Loopback Address', false],
  ['::/128', 'Unspecified Address', false],
  ['::ffff:0:0/96', 'IPv4-mapped Address', false],
  ['64:ff9b::/96', 'IPv4-IPv6 Translat.', true],
  ['64:ff9b:1::/48', 'IPv4-IPv6 Translat.', false],
  ['100::/64', 'Discard-Only Address Block', false],
  ['100:0:0:1::/64', 'Dummy IPv6 Prefix', false],
  ['2001::/23', 'IETF Protocol Assignments', false],
  ['2001::/32', 'TEREDO', null],
  ['2001:1::1/128', 'Port Control Protocol Anycast', true],
  ['2001:1::2/128', 'Traversal Using Relays around NAT Anycast', true],
  ['2001:1::3/128', 'DNS-SD Service Registration Protocol Anycast', true],
  ['2001:2::/48', 'Benchmarking', false],
  ['2001:3::/32', 'AMT', true],
  ['2001:4:112::/48', 'AS112-v6', true],
  ['2001:10::/28', 'Deprecated (previously ORCHID)', null],
  ['2001:20::/28', 'ORCHIDv2', true],
  ['2001:30::/28', 'Drone Remote ID Protocol Entity Tags (DETs) Prefix', true],
  ['2001:db8::/32', 'Documentation', false],
  ['2002::/16', '6to4', null],
  ['2620:4f:8000::/48', 'Direct Delegation AS112 Service', true],
  ['3fff::/20', 'Documentation', false],
  ['5f00::/16', 'Segment Routing (SRv6) SIDs', false],
  ['fc00::/7', 'Unique-Local', false],
  ['fe80::/10', 'Link-Local Unicast', false],
];

/** Refused although not in the special-purpose registries: multicast, and IPv6 outside global unicast. */
const IPV4_ALSO_REFUSED = ['224.0.0.0/4'];
const IPV6_ALSO_REFUSED = ['::/96' /* IPv4-compatible, deprecated */, 'fec0::/10' /* site-local, deprecated */, 'ff00::/8' /* multicast */];
/** IANA hands out IPv6 global unicast from 2000::/3 only; the rest is reserved or special. */
const IPV6_GLOBAL_UNICAST = '2000::/3';
/** Judged by the IPv4 address in their last 32 bits. */
const IPV6_JUDGED_BY_IPV4 = ['::ffff:0:0/96', '64:ff9b::/96'];

// ---- addresses as BigInt ----

function v4ToBig(address: string): bigint {
  return address.split('.').reduce((n, octet) => (n << 8n) | BigInt(Number(octet)), 0n);
}

function bigToV4(n: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((n >> shift) & 255n)).join('.');
}

function v6ToBig(address: string): bigint {
  const [head, tail] = address.includes('::') ? address.split('::') : [address, undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  return groups.reduce((n, group) => (n << 16n) | BigInt(parseInt(group, 16)), 0n);
}

function bigToV6(n: bigint): string {
  return Array.from({ length: 8 }, (_, i) => ((n >> BigInt((7 - i) * 16)) & 0xffffn).toString(16)).join(':');
}

interface Block {
  cidr: string;
  first: bigint;
  last: bigint;
}

function block(cidr: string, bits: 32 | 128): Block {
  const [base, length] = cidr.split('/') as [string, string];
  const first = bits === 32 ? v4ToBig(base) : v6ToBig(base);
  const size = 1n << BigInt(bits - Number(length));
  return { cidr, first, last: first + size - 1n };
}

const inside = (n: bigint, b: Block) => n >= b.first && n <= b.last;

// ---- the oracle ----

const v4Refused = [...IPV4_REGISTRY.map(([cidr]) => cidr), ...IPV4_ALSO_REFUSED].map((cidr) => block(cidr, 32));
const v6JudgedByV4 = IPV6_JUDGED_BY_IPV4.map((cidr) => block(cidr, 128));
const v6Refused = [...IPV6_REGISTRY.map(([cidr]) => cidr).filter((cidr) => !IPV6_JUDGED_BY_IPV4.includes(cidr)), ...IPV6_ALSO_REFUSED].map((cidr) => block(cidr, 128));
const v6Global = block(IPV6_GLOBAL_UNICAST, 128);

function v4ShouldBeRefused(n: bigint): boolean {
  return v4Refused.some((b) => inside(n, b));
}

function v6ShouldBeRefused(n: bigint): boolean {
  if (v6JudgedByV4.some((b) => inside(n, b))) return v4ShouldBeRefused(n & 0xffffffffn);
  return !inside(n, v6Global) || v6Refused.some((b) => inside(n, b));
}

/** The block's first, middle and last addresses, and its neighbours just outside. */
function probes(b: Block, max: bigint): Array<{ n: bigint; where: string }> {
  const list = [
    { n: b.first, where: 'first' },
    { n: (b.first + b.last) / 2n, where: 'middle' },
    { n: b.last, where: 'last' },
  ];
  if (b.first > 0n) list.push({ n: b.first - 1n, where: 'just before' });
  if (b.last < max) list.push({ n: b.last + 1n, where: 'just after' });
  return list;
}

describe('webhook address checks against the IANA special-purpose registries', () => {
  it('refuses every IPv4 registry block, and nothing just outside one that is ordinary unicast', () => {
    for (const [cidr, name] of IPV4_REGISTRY) {
      for (const { n, where } of probes(block(cidr, 32), 0xffffffffn)) {
        const address = bigToV4(n);
        const expected = v4ShouldBeRefused(n);
        if (where === 'first' || where === 'middle' || where === 'last') expect(expected, `${address}: the oracle itself`).toBe(true);
        expect(isForbiddenAddress(address), `${address} (${where} of ${cidr}, ${name})`).toBe(expected);
      }
    }
  });

  it('refuses every IPv6 registry block, judges IPv4-mapped and 64:ff9b::/96 by the IPv4 address they carry', () => {
    const max = (1n << 128n) - 1n;
    for (const [cidr, name] of IPV6_REGISTRY) {
      for (const { n, where } of probes(block(cidr, 128), max)) {
        const address = bigToV6(n);
        expect(isForbiddenAddress(address), `${address} (${where} of ${cidr}, ${name})`).toBe(v6ShouldBeRefused(n));
      }
    }
    for (const cidr of [...IPV6_ALSO_REFUSED, '4000::/3', '1000::/4']) {
      for (const { n, where } of probes(block(cidr, 128), max)) {
        const address = bigToV6(n);
        expect(isForbiddenAddress(address), `${address} (${where} of ${cidr})`).toBe(v6ShouldBeRefused(n));
      }
    }
  });

  it('the addresses that passed before: benchmarking, NAT64 discovery, 6to4, local NAT64, site-local', () => {
    for (const address of ['198.18.0.1', '198.19.255.254', '192.0.0.170', '192.0.0.9', '192.88.99.1', '2002:a00:1::1', '2002:808:808::1', '64:ff9b:1::a00:1', '64:ff9b:1::808:808', 'fec0::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '::a00:1', '::808:808', '100:0:0:1::1', '5f00::1', '3fff::1'])
      expect(isForbiddenAddress(address), address).toBe(true);
  });

  it('lets ordinary global unicast through, in every form that reaches it', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '1.1.1.1', '172.15.255.255', '172.32.0.0', '192.0.1.1', '198.20.0.1', '2606:4700:4700::1111', '2a00:1450:4001:830::200e', '::ffff:8.8.8.8', '::ffff:808:808', '64:ff9b::808:808', '64:ff9b::8.8.8.8'])
      expect(isForbiddenAddress(address), address).toBe(false);
    for (const address of ['::ffff:10.0.0.1', '::ffff:a00:1', '64:ff9b::10.0.0.1', '64:ff9b::a9fe:a9fe', '64:ff9b::c000:aa'])
      expect(isForbiddenAddress(address), address).toBe(true);
  });

  it('anything that is not an address, or carries a zone, is refused', () => {
    for (const address of ['', 'localhost', '999.1.1.1', '1.2.3', 'fe80::1%eth0', '2606:4700::1111%1', '::ffff:8.8.8.8.8']) expect(isForbiddenAddress(address), address).toBe(true);
  });

  it('a host in SVC_WEBHOOK_ALLOW_HOSTS may resolve to any of them, and is still pinned to that address', async () => {
    const url = new URL('https://bench.internal/hook');
    const resolve = async () => [{ address: '198.18.0.1', family: 4 }];
    await expect(resolveWebhookTarget(url, parseAllowHosts(''), resolve)).rejects.toMatchObject({ code: 'invalid_webhook_url', message: expect.stringMatching(/198\.18\.0\.1/) });
    await expect(resolveWebhookTarget(url, parseAllowHosts('bench.internal'), resolve)).resolves.toEqual({ address: '198.18.0.1', family: 4 });
    // One refused address among several refuses the host: a DNS answer cannot slip one in.
    const mixed = async () => [{ address: '93.184.216.34', family: 4 }, { address: '2002:a00:1::1', family: 6 }];
    await expect(resolveWebhookTarget(url, parseAllowHosts(''), mixed)).rejects.toMatchObject({ code: 'invalid_webhook_url' });
  });
});
