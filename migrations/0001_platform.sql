-- Tenancy, identity, sessions and API keys; connections and projects for the surfaces to come.
-- Runs unchanged on PostgreSQL and on embedded PGlite.

create table workspaces (
  id          uuid primary key default gen_random_uuid(),
  name        text not null check (length(name) between 1 and 200),
  plan        text not null check (plan in ('free', 'team', 'enterprise')),
  timezone    text not null default 'UTC',
  created_at  timestamptz not null default now()
);

create table users (
  id             uuid primary key default gen_random_uuid(),
  email          text not null check (email = lower(email) and position('@' in email) > 1),
  name           text not null,
  password_hash  text,                    -- argon2id PHC string; null for users who cannot sign in with a password
  created_at     timestamptz not null default now()
);
create unique index users_email_key on users (email);

create table memberships (
  workspace_id  uuid not null references workspaces (id) on delete cascade,
  user_id       uuid not null references users (id) on delete cascade,
  role          text not null check (role in ('viewer', 'tracer', 'editor', 'luminary')),
  attributes    jsonb not null default '{}'::jsonb check (jsonb_typeof(attributes) = 'object'),
  created_at    timestamptz not null default now(),
  primary key (workspace_id, user_id)
);
create index memberships_user_idx on memberships (user_id);

-- Only a hash of the session token is kept: a copy of this table signs nobody in.
create table sessions (
  id            uuid primary key default gen_random_uuid(),
  token_hash    text not null unique,
  workspace_id  uuid not null,
  user_id       uuid not null,
  created_at    timestamptz not null default now(),
  last_seen_at  timestamptz not null default now(),
  expires_at    timestamptz not null,      -- absolute expiry; idle expiry is last_seen_at + idle timeout
  foreign key (workspace_id, user_id) references memberships (workspace_id, user_id) on delete cascade
);
create index sessions_expires_idx on sessions (expires_at);

-- Only a hash of the key's secret is kept; `prefix` is what the console shows to tell keys apart.
create table api_keys (
  id            uuid primary key default gen_random_uuid(),
  workspace_id  uuid not null,
  user_id       uuid not null,
  name          text not null check (length(name) between 1 and 200),
  surface       text not null check (surface in ('question', 'workspace', 'structured')),
  prefix        text not null,
  secret_hash   text not null unique,
  scopes        jsonb not null default '[]'::jsonb check (jsonb_typeof(scopes) = 'array'),
  rate_limit    integer check (rate_limit is null or rate_limit > 0),   -- per-key override of the surface budget
  created_at    timestamptz not null default now(),
  last_used_at  timestamptz,
  expires_at    timestamptz,
  revoked_at    timestamptz,
  foreign key (workspace_id, user_id) references memberships (workspace_id, user_id) on delete cascade
);
create index api_keys_workspace_idx on api_keys (workspace_id, created_at);

create table connections (
  id                 uuid primary key default gen_random_uuid(),
  workspace_id       uuid not null references workspaces (id) on delete cascade,
  name               text not null check (length(name) between 1 and 100),
  engine             text not null check (engine in ('postgres', 'mysql', 'snowflake', 'duckdb')),
  config             jsonb not null default '{}'::jsonb,   -- non-secret settings only
  secret_ciphertext  text,                                 -- AES-256-GCM under SVC_SECRET_KEY
  created_at         timestamptz not null default now(),
  updated_at         timestamptz not null default now(),
  unique (workspace_id, name)
);

create table projects (
  id            uuid primary key default gen_random_uuid(),
  workspace_id  uuid not null references workspaces (id) on delete cascade,
  name          text not null,
  slug          text not null check (slug ~ '^[a-z0-9][a-z0-9-]*$'),
  created_at    timestamptz not null default now(),
  unique (workspace_id, slug)
);
