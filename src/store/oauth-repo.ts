// The store side of OAuth: registered clients, grants (a member's consent to a client, with its one
// authorization code) and the access and refresh tokens issued under them. Codes and tokens are found
// by the SHA-256 of their value, never kept themselves.
import type { Kysely } from 'kysely';
import { readPage, type Page, type PageRequest } from './keyset-page.js';
import { writeLastUsed } from './last-used-writes.js';
import { MEMBER_COLUMNS, type MemberRow } from './members.js';
import type { Database, OauthTokenKind } from './schema.js';

export interface OauthClientRow {
  id: string;
  client_name: string;
  redirect_uris: string[];
  created_at: Date;
}

export interface OauthGrantRow {
  id: string;
  client_id: string;
  workspace_id: string;
  user_id: string;
  scopes: string[];
  resource: string;
  redirect_uri: string;
  code_challenge: string;
  code_expires_at: Date;
  code_used_at: Date | null;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

/**
 * A grant as the console lists it: with its client's name, and until when a token of it can still be
 * used (its latest unspent refresh token's or access token's expiry; null when none is left).
 */
export type ListedGrantRow = OauthGrantRow & { client_name: string; usable_until: Date | null };

/** A token with its grant and the member the grant acts for, as one lookup by hash returns it. */
export type ResolvedTokenRow = MemberRow & {
  token_id: string;
  kind: OauthTokenKind;
  expires_at: Date;
  used_at: Date | null;
  grant_id: string;
  client_id: string;
  scopes: string[];
  resource: string;
  revoked_at: Date | null;
};

const GRANT_COLUMNS = [
  'g.id',
  'g.client_id',
  'g.workspace_id',
  'g.user_id',
  'g.scopes',
  'g.resource',
  'g.redirect_uri',
  'g.code_challenge',
  'g.code_expires_at',
  'g.code_used_at',
  'g.created_at',
  'g.last_used_at',
  'g.revoked_at',
] as const;

export function oauthRepo(db: Kysely<Database>) {
  const listed = () =>
    db
      .selectFrom('oauth_grants as g')
      .innerJoin('oauth_clients as c', 'c.id', 'g.client_id')
      .select(GRANT_COLUMNS)
      .select('c.client_name')
      .select((eb) =>
        eb
          .selectFrom('oauth_tokens as t')
          .select((t) => t.fn.max('t.expires_at').as('until'))
          .whereRef('t.grant_id', '=', 'g.id')
          .where('t.used_at', 'is', null)
          .as('usable_until'),
      );
  const grantsOf = (workspaceId: string, userId: string | undefined) => {
    // Only grants whose code was exchanged: a consent never completed holds no token to list.
    const query = listed().where('g.workspace_id', '=', workspaceId).where('g.code_used_at', 'is not', null);
    return userId ? query.where('g.user_id', '=', userId) : query;
  };

  return {
    async insertClient(values: { id: string; name: string; redirectUris: string[]; now: Date }): Promise<OauthClientRow> {
      await db
        .insertInto('oauth_clients')
        .values({ id: values.id, client_name: values.name, redirect_uris: JSON.stringify(values.redirectUris), created_at: values.now })
        .execute();
      return (await this.client(values.id))!;
    },

    async client(id: string): Promise<OauthClientRow | undefined> {
      return db.selectFrom('oauth_clients').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async insertGrant(values: {
      clientId: string;
      workspaceId: string;
      userId: string;
      scopes: string[];
      resource: string;
      redirectUri: string;
      codeHash: string;
      codeChallenge: string;
      codeExpiresAt: Date;
      now: Date;
    }): Promise<string> {
      const { id } = await db
        .insertInto('oauth_grants')
        .values({
          client_id: values.clientId,
          workspace_id: values.workspaceId,
          user_id: values.userId,
          scopes: JSON.stringify(values.scopes),
          resource: values.resource,
          redirect_uri: values.redirectUri,
          code_hash: values.codeHash,
          code_challenge: values.codeChallenge,
          code_expires_at: values.codeExpiresAt,
          created_at: values.now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return id;
    },

    /** The grant of a code, whether or not the code was used already. */
    async grantByCode(codeHash: string): Promise<OauthGrantRow | undefined> {
      return db.selectFrom('oauth_grants as g').select(GRANT_COLUMNS).where('g.code_hash', '=', codeHash).executeTakeFirst();
    },

    /** Marks a code used; false when it was used already (one use, even between racing requests). */
    async claimCode(grantId: string, at: Date): Promise<boolean> {
      const claimed = await db
        .updateTable('oauth_grants')
        .set({ code_used_at: at })
        .where('id', '=', grantId)
        .where('code_used_at', 'is', null)
        .returning('id')
        .executeTakeFirst();
      return claimed !== undefined;
    },

    async insertToken(values: { grantId: string; kind: OauthTokenKind; tokenHash: string; now: Date; expiresAt: Date }): Promise<void> {
      await db
        .insertInto('oauth_tokens')
        .values({ grant_id: values.grantId, kind: values.kind, token_hash: values.tokenHash, created_at: values.now, expires_at: values.expiresAt })
        .execute();
    },

    /** A token with its grant and member; undefined when no token has the hash (or its member left). */
    async findToken(tokenHash: string): Promise<ResolvedTokenRow | undefined> {
      return db
        .selectFrom('oauth_tokens as t')
        .innerJoin('oauth_grants as g', 'g.id', 't.grant_id')
        .innerJoin('memberships as m', (j) => j.onRef('m.workspace_id', '=', 'g.workspace_id').onRef('m.user_id', '=', 'g.user_id'))
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
        .select(MEMBER_COLUMNS)
        .select(['t.id as token_id', 't.kind', 't.expires_at', 't.used_at', 'g.id as grant_id', 'g.client_id', 'g.scopes', 'g.resource', 'g.revoked_at'])
        .where('t.token_hash', '=', tokenHash)
        .executeTakeFirst();
    },

    /** Marks a refresh token spent; false when it was spent already (rotation: one use). */
    async claimToken(tokenId: string, at: Date): Promise<boolean> {
      const claimed = await db
        .updateTable('oauth_tokens')
        .set({ used_at: at })
        .where('id', '=', tokenId)
        .where('used_at', 'is', null)
        .returning('id')
        .executeTakeFirst();
      return claimed !== undefined;
    },

    async revokeGrant(grantId: string, at: Date): Promise<void> {
      await db.updateTable('oauth_grants').set({ revoked_at: at }).where('id', '=', grantId).where('revoked_at', 'is', null).execute();
    },

    /** A grant of this workspace, listed or not; one of another workspace is as absent as an unknown one. */
    async grant(workspaceId: string, id: string): Promise<ListedGrantRow | undefined> {
      return listed().where('g.workspace_id', '=', workspaceId).where('g.id', '=', id).executeTakeFirst();
    },

    /** Grants with tokens issued, newest first; only one member's when `userId` is given. */
    async page(workspaceId: string, userId: string | undefined, page: PageRequest): Promise<Page<ListedGrantRow>> {
      return readPage(grantsOf(workspaceId, userId), { time: 'g.created_at', id: 'g.id', direction: 'desc' }, page);
    },

    /** Writes last-used times of grants gathered in memory (last-used.ts); never moves a time backwards. */
    recordLastUsed: (entries: ReadonlyMap<string, Date>) => writeLastUsed(db, 'oauth_grants', entries),
  };
}

export type OauthRepo = ReturnType<typeof oauthRepo>;
