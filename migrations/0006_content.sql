-- Content of surface C: vaults (folders with members), scenes (saved structured queries) and mosaics
-- (dashboards of scene, text and heading tiles). Runs unchanged on PostgreSQL and on embedded PGlite.

create table vaults (
  id               uuid primary key default gen_random_uuid(),
  workspace_id     uuid not null references workspaces (id) on delete cascade,
  name             text not null check (length(name) between 1 and 200),
  description      text not null default '',
  -- Set on a user's personal vault, created the first time it is needed; null on shared vaults.
  personal_user_id uuid references users (id) on delete cascade,
  created_by       uuid references users (id) on delete set null,
  created_at       timestamptz not null default now(),
  updated_at       timestamptz not null default now()
);
create index vaults_workspace_idx on vaults (workspace_id, created_at, id);
create unique index vaults_personal_key on vaults (workspace_id, personal_user_id) where personal_user_id is not null;

create table vault_members (
  vault_id    uuid not null references vaults (id) on delete cascade,
  user_id     uuid not null references users (id) on delete cascade,
  access      text not null check (access in ('view', 'edit', 'manage')),
  created_at  timestamptz not null default now(),
  primary key (vault_id, user_id)
);
create index vault_members_user_idx on vault_members (user_id);

create table scenes (
  id             uuid primary key default gen_random_uuid(),
  workspace_id   uuid not null references workspaces (id) on delete cascade,
  vault_id       uuid not null references vaults (id) on delete cascade,
  name           text not null check (length(name) between 1 and 200),
  description    text not null default '',
  node           text not null,
  -- dimensions, measures, filters, sorts and limit, as POST /v1/query takes them (without the node).
  query          jsonb not null check (jsonb_typeof(query) = 'object'),
  visualization  jsonb not null check (jsonb_typeof(visualization) = 'object'),
  status         text not null default 'ok' check (status in ('ok', 'broken')),
  broken_reason  text,
  version        integer not null default 1,
  created_by     uuid references users (id) on delete set null,
  updated_by     uuid references users (id) on delete set null,
  created_at     timestamptz not null default now(),
  updated_at     timestamptz not null default now()
);
-- Lists page by (created_at, id): a scene saved while someone pages lands after every page read.
create index scenes_workspace_idx on scenes (workspace_id, created_at, id);
create index scenes_vault_idx on scenes (vault_id);

create table mosaics (
  id             uuid primary key default gen_random_uuid(),
  workspace_id   uuid not null references workspaces (id) on delete cascade,
  vault_id       uuid not null references vaults (id) on delete cascade,
  name           text not null check (length(name) between 1 and 200),
  description    text not null default '',
  tiles          jsonb not null check (jsonb_typeof(tiles) = 'array'),
  filters        jsonb not null check (jsonb_typeof(filters) = 'array'),
  version        integer not null default 1,
  created_by     uuid references users (id) on delete set null,
  updated_by     uuid references users (id) on delete set null,
  created_at     timestamptz not null default now(),
  updated_at     timestamptz not null default now()
);
create index mosaics_workspace_idx on mosaics (workspace_id, created_at, id);
create index mosaics_vault_idx on mosaics (vault_id);
