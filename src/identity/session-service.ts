// Console sign-in: passwords checked with argon2id, failures throttled per e-mail and per client
// address, sessions kept server-side with only a hash of the token, idle and absolute expiry.
import type { Clock } from '../clock.js';
import { ForbiddenError, RateLimitedError, UnauthenticatedError } from '../core/errors.js';
import type { SharedState } from '../shared-state/shared-state.js';
import { requestGenerations, withGenerations } from '../shared-state/request-generations.js';
import type { MembersRepo } from '../store/members-repo.js';
import type { ResolvedSessionRow, SessionsRepo } from '../store/sessions.js';
import { IDENTITY_GENERATION } from './generations.js';
import { KEY_CACHE_MAX_AGE_MS } from './key-resolver.js';
import { verifyPassword } from './passwords.js';
import { principalOf, type Principal } from './principal.js';
import { hashToken, randomUrlToken } from './tokens.js';

export interface SessionPolicy {
  idleMs: number;
  maxAgeMs: number;
}

// Fixed windows of 15 minutes: 5 failures per e-mail stop a guesser aiming at one account, 50 per
// client address stop one spraying many accounts, and neither locks a real user out for long.
const THROTTLE_WINDOW_MS = 15 * 60_000;
const MAX_FAILURES_PER_EMAIL = 5;
const MAX_FAILURES_PER_ADDRESS = 50;
// Writing last_seen_at at most this often keeps idle expiry exact to the minute without a write per request.
const TOUCH_EVERY_MS = 60_000;

export interface SignIn {
  token: string;
  expiresAt: Date;
  /** The session's whole lifetime in seconds: what the cookie says, relative to its arrival (Max-Age). */
  maxAgeSeconds: number;
  principal: Principal;
}

/** Signed-in sessions read from the store, kept as API keys are (see key-resolver.ts). */
const MAX_CACHED_SESSIONS = 10_000;
/** However current its generation, a session is read again at least this often (as keys are). */
export const SESSION_CACHE_MAX_AGE_MS = KEY_CACHE_MAX_AGE_MS;

export class SessionService {
  private readonly cache = new Map<string, { generation: number; row: ResolvedSessionRow; loadedAtMs: number }>();

  constructor(
    private readonly members: MembersRepo,
    private readonly sessions: SessionsRepo,
    private readonly shared: SharedState,
    private readonly clock: Clock,
    readonly policy: SessionPolicy,
  ) {}

  async login(input: { email: string; password: string; workspaceId?: string; clientAddress: string }): Promise<SignIn> {
    const email = input.email.trim().toLowerCase();
    const buckets = [
      { name: `login-fail:email:${email}`, max: MAX_FAILURES_PER_EMAIL },
      { name: `login-fail:addr:${input.clientAddress}`, max: MAX_FAILURES_PER_ADDRESS },
    ];
    for (const bucket of buckets) {
      const { count, resetAtMs } = await this.shared.peek(bucket.name, THROTTLE_WINDOW_MS);
      if (count >= bucket.max) {
        const retryAfter = Math.max(1, Math.ceil((resetAtMs - this.clock.now().getTime()) / 1000));
        throw new RateLimitedError(`Too many failed sign-in attempts; try again in ${Math.ceil(retryAfter / 60)} minute(s)`, retryAfter);
      }
    }

    const user = await this.members.findUserByEmail(email);
    const ok = await verifyPassword(user?.password_hash ?? null, input.password);
    if (!user || !ok) {
      await Promise.all(buckets.map((bucket) => this.shared.hit(bucket.name, THROTTLE_WINDOW_MS)));
      throw new UnauthenticatedError('Invalid email or password', 'invalid_credentials');
    }

    const memberships = await this.members.membershipsOf(user.id);
    const membership = input.workspaceId
      ? memberships.find((m) => m.workspace_id === input.workspaceId)
      : memberships[0];
    if (!membership) {
      throw new ForbiddenError(
        input.workspaceId ? 'You are not a member of that workspace' : 'This account is not a member of any workspace',
        'no_membership',
      );
    }

    const token = randomUrlToken(32);
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + this.policy.maxAgeMs);
    await this.sessions.insert({
      tokenHash: hashToken(token),
      workspaceId: membership.workspace_id,
      userId: user.id,
      now,
      expiresAt,
    });
    const principal = await this.resolve(token);
    if (!principal) throw new Error('A session just created could not be read back');
    return { token, expiresAt, maxAgeSeconds: Math.floor(this.policy.maxAgeMs / 1000), principal };
  }

  /** The principal of a live session, or undefined when the token is unknown or the session expired. */
  async resolve(token: string): Promise<Principal | undefined> {
    const hash = hashToken(token);
    // As for API keys (key-resolver.ts): the generation is read before the row, and a cached row is
    // trusted only under the generation it was read with, and for a few seconds at most. A session
    // seen before reads its workspace's other generations in the same round trip, which the principal
    // carries for the rest of the request (request-generations.ts).
    const workspaceId = this.cache.get(hash)?.row.workspace_id;
    const names = workspaceId ? requestGenerations(workspaceId) : [IDENTITY_GENERATION];
    const generations = await this.shared.generations(names);
    const generation = generations[0]!;
    const now = this.clock.now().getTime();
    let row = this.cachedRow(hash, generation, now);
    // A cached row that looks expired is read again before the session is ended: another instance may
    // have seen it in use since.
    if (row && this.expired(row, now)) row = undefined;
    row ??= await this.load(hash, generation, now);
    if (!row) return undefined;
    if (this.expired(row, now)) {
      this.cache.delete(hash);
      await this.sessions.delete(row.session_id);
      return undefined;
    }
    if (now - row.last_seen_at.getTime() >= TOUCH_EVERY_MS) {
      await this.sessions.touch(row.session_id, new Date(now));
      this.cache.set(hash, { generation, row: { ...row, last_seen_at: new Date(now) }, loadedAtMs: now });
    }
    const principal = principalOf(row, 'session', { sessionId: row.session_id });
    return workspaceId ? withGenerations(principal, workspaceId, generations) : principal;
  }

  /** Ends a session on every instance: the bump makes each drop the copy it keeps. */
  async logout(sessionId: string): Promise<void> {
    await this.sessions.delete(sessionId);
    for (const [hash, cached] of this.cache) if (cached.row?.session_id === sessionId) this.cache.delete(hash);
    await this.shared.bump(IDENTITY_GENERATION);
  }

  private cachedRow(hash: string, generation: number, now: number): ResolvedSessionRow | undefined {
    const cached = this.cache.get(hash);
    if (!cached || cached.generation !== generation || now - cached.loadedAtMs >= SESSION_CACHE_MAX_AGE_MS) return undefined;
    return cached.row;
  }

  private async load(hash: string, generation: number, now: number): Promise<ResolvedSessionRow | undefined> {
    const row = await this.sessions.findByHash(hash);
    if (this.cache.size >= MAX_CACHED_SESSIONS) this.cache.delete(this.cache.keys().next().value!);
    // Unknown tokens are not kept: they cost a lookup each, as for keys the address budget bounds them.
    if (row) this.cache.set(hash, { generation, row, loadedAtMs: now });
    return row;
  }

  private expired(row: ResolvedSessionRow, now: number): boolean {
    return row.expires_at.getTime() <= now || row.last_seen_at.getTime() + this.policy.idleMs <= now;
  }

  async sweepExpired(): Promise<void> {
    await this.sessions.deleteExpired(this.clock.now(), this.policy.idleMs);
  }
}
