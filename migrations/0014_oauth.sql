-- OAuth 2.1 for remote agents: registered clients, grants (one per consent) and the tokens issued under
-- them. As for keys and sessions, only SHA-256 hashes of codes and tokens are kept.

-- Clients register themselves (RFC 7591): all public (no secret), known by a random client_id.
create table oauth_clients (
  id             text primary key,
  client_name    text not null check (length(client_name) between 1 and 200),
  redirect_uris  jsonb not null check (jsonb_typeof(redirect_uris) = 'array'),
  created_at     timestamptz not null default now()
);

-- One consent of a member to a client: the code it starts with, then the tokens that follow it. A grant
-- belongs to a membership, so a member who leaves the workspace takes every grant (and token) along.
create table oauth_grants (
  id                uuid primary key default gen_random_uuid(),
  client_id         text not null references oauth_clients (id) on delete cascade,
  workspace_id      uuid not null,
  user_id           uuid not null,
  scopes            jsonb not null check (jsonb_typeof(scopes) = 'array'),
  resource          text not null,             -- the audience the tokens are bound to (RFC 8707)
  redirect_uri      text not null,
  code_hash         text not null unique,
  code_challenge    text not null,             -- PKCE, S256 only
  code_expires_at   timestamptz not null,
  code_used_at      timestamptz,
  created_at        timestamptz not null default now(),
  last_used_at      timestamptz,
  revoked_at        timestamptz,
  foreign key (workspace_id, user_id) references memberships (workspace_id, user_id) on delete cascade
);
create index oauth_grants_workspace_idx on oauth_grants (workspace_id, created_at);
-- Retention removes consents whose code was never exchanged.
create index oauth_grants_unused_code_idx on oauth_grants (code_expires_at) where code_used_at is null;

-- Access and refresh tokens. A refresh token is used once (rotation): used_at marks it spent, and a
-- spent one presented again revokes its whole grant.
create table oauth_tokens (
  id          uuid primary key default gen_random_uuid(),
  grant_id    uuid not null references oauth_grants (id) on delete cascade,
  kind        text not null check (kind in ('access', 'refresh')),
  token_hash  text not null unique,
  created_at  timestamptz not null default now(),
  expires_at  timestamptz not null,
  used_at     timestamptz
);
create index oauth_tokens_grant_idx on oauth_tokens (grant_id);
-- Retention removes tokens a day past their expiry.
create index oauth_tokens_expires_idx on oauth_tokens (expires_at);
