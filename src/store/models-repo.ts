// Projects, their deployed CML files and the deployment history: the model aggregate.
import type { Kysely } from 'kysely';
import { readPage, type Page, type PageRequest } from './keyset-page.js';
import type { Database } from './schema.js';

export interface ProjectRow {
  id: string;
  workspace_id: string;
  name: string;
  slug: string;
  created_at: Date;
}

export interface ProjectFileRow {
  project_id: string;
  slug: string;
  path: string;
  content: string;
  updated_at: Date;
}

export interface DeploymentRow {
  id: string;
  workspace_id: string;
  project_id: string;
  deployed_at: Date;
  deployed_by_email: string;
  message: string | null;
  pr_url: string | null;
  changed_nodes: string[];
}

/** A deployment as the deployment history lists it, with its project's slug. */
export interface ListedDeploymentRow extends DeploymentRow {
  project: string;
}

export function modelsRepo(db: Kysely<Database>) {
  return {
    async listProjects(workspaceId: string): Promise<ProjectRow[]> {
      return db.selectFrom('projects').selectAll().where('workspace_id', '=', workspaceId).orderBy('created_at').orderBy('slug').execute();
    },

    async findProject(workspaceId: string, slug: string): Promise<ProjectRow | undefined> {
      return db.selectFrom('projects').selectAll().where('workspace_id', '=', workspaceId).where('slug', '=', slug).executeTakeFirst();
    },

    async createProject(workspaceId: string, slug: string, name: string): Promise<ProjectRow> {
      return db.insertInto('projects').values({ workspace_id: workspaceId, slug, name }).returningAll().executeTakeFirstOrThrow();
    },

    /**
     * Holds the workspace's row until the transaction ends: deploys to one workspace take this first,
     * so each reads the files the one before it committed (on every instance sharing the store).
     */
    async lockWorkspace(workspaceId: string): Promise<void> {
      await db.selectFrom('workspaces').select('id').where('id', '=', workspaceId).forUpdate().execute();
    },

    /** The deployed files of every project of the workspace. */
    async workspaceFiles(workspaceId: string): Promise<ProjectFileRow[]> {
      return db
        .selectFrom('cml_files as f')
        .innerJoin('projects as p', 'p.id', 'f.project_id')
        .select(['f.project_id', 'p.slug', 'f.path', 'f.content', 'f.updated_at'])
        .where('p.workspace_id', '=', workspaceId)
        .orderBy('p.slug')
        .orderBy('f.path')
        .execute();
    },

    async replaceProjectFiles(projectId: string, files: ReadonlyArray<{ path: string; content: string }>, at: Date): Promise<void> {
      await db.deleteFrom('cml_files').where('project_id', '=', projectId).execute();
      if (files.length) {
        await db
          .insertInto('cml_files')
          .values(files.map((f) => ({ project_id: projectId, path: f.path, content: f.content, updated_at: at })))
          .execute();
      }
    },

    /** A page of the workspace's deployments, newest first; the cursor of a previous page continues it. */
    async listDeployments(workspaceId: string, page: PageRequest): Promise<Page<ListedDeploymentRow>> {
      const query = db
        .selectFrom('deployments as d')
        .innerJoin('projects as p', 'p.id', 'd.project_id')
        .select(['d.id', 'd.workspace_id', 'd.project_id', 'p.slug as project', 'd.deployed_at', 'd.deployed_by_email', 'd.message', 'd.pr_url', 'd.changed_nodes'])
        .where('d.workspace_id', '=', workspaceId);
      return readPage(query, { time: 'd.deployed_at', id: 'd.id', direction: 'desc' }, page);
    },

    async insertDeployment(values: {
      workspaceId: string;
      projectId: string;
      deployedAt: Date;
      deployedBy: string | null;
      deployedByEmail: string;
      message: string | null;
      prUrl: string | null;
      changedNodes: string[];
    }): Promise<DeploymentRow> {
      return db
        .insertInto('deployments')
        .values({
          workspace_id: values.workspaceId,
          project_id: values.projectId,
          deployed_at: values.deployedAt,
          deployed_by: values.deployedBy,
          deployed_by_email: values.deployedByEmail,
          message: values.message,
          pr_url: values.prUrl,
          changed_nodes: JSON.stringify(values.changedNodes),
        })
        .returning(['id', 'workspace_id', 'project_id', 'deployed_at', 'deployed_by_email', 'message', 'pr_url', 'changed_nodes'])
        .executeTakeFirstOrThrow();
    },
  };
}

export type ModelsRepo = ReturnType<typeof modelsRepo>;
