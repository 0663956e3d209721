// The MCP endpoint's defence against DNS rebinding: a web page on evil.example whose name an attacker
// points at 127.0.0.1 can make a browser post to a local server, with Host (and Origin) naming
// evil.example. Requests are admitted only when Host, and Origin when a browser sends one, name this
// service: a loopback name, or a host the operator lists in SVC_MCP_ALLOWED_HOSTS.
import { ForbiddenError } from '../core/errors.js';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** `host` or `host:port` → the host name, lower case (an IPv6 literal keeps its brackets). */
function hostName(hostWithPort: string): string {
  const lower = hostWithPort.trim().toLowerCase();
  if (lower.startsWith('[')) return lower.slice(0, lower.indexOf(']') + 1);
  return lower.split(':', 1)[0]!;
}

export class HostCheck {
  private readonly allowed: ReadonlySet<string>;

  constructor(allowedHosts: readonly string[]) {
    this.allowed = new Set(allowedHosts.map((h) => h.trim().toLowerCase()));
  }

  private admits(hostWithPort: string): boolean {
    const name = hostName(hostWithPort);
    return LOOPBACK.has(name) || this.allowed.has(name) || this.allowed.has(hostWithPort.trim().toLowerCase());
  }

  /** Throws a 403 unless `host` and `origin` (when sent) name this service. */
  check(host: string | undefined, origin: string | undefined): void {
    if (!host || !this.admits(host)) {
      throw new ForbiddenError(`Host "${host ?? ''}" is not one this MCP server answers under: list it in SVC_MCP_ALLOWED_HOSTS`, 'host_not_allowed');
    }
    if (origin === undefined) return;
    let originHost: string | undefined;
    try {
      originHost = new URL(origin).host;
    } catch {
      originHost = undefined;
    }
    if (!originHost || !this.admits(originHost)) {
      throw new ForbiddenError(`Origin "${origin}" may not call this MCP server`, 'origin_not_allowed');
    }
  }
}
