-- The semantic model: each project's deployed CML files, and the history of deployments.

create table cml_files (
  project_id  uuid not null references projects (id) on delete cascade,
  path        text not null check (length(path) between 1 and 500),
  content     text not null,
  updated_at  timestamptz not null default now(),
  primary key (project_id, path)
);

create table deployments (
  id                 uuid primary key default gen_random_uuid(),
  workspace_id       uuid not null references workspaces (id) on delete cascade,
  project_id         uuid not null references projects (id) on delete cascade,
  deployed_at        timestamptz not null default now(),
  deployed_by        uuid references users (id) on delete set null,
  deployed_by_email  text not null,               -- kept even if the user is removed later
  message            text,
  pr_url             text,
  changed_nodes      jsonb not null default '[]'::jsonb check (jsonb_typeof(changed_nodes) = 'array')
);
create index deployments_workspace_idx on deployments (workspace_id, deployed_at desc);
