// Vaults in the console (session): GET/POST /api/vaults, PATCH/DELETE /api/vaults/:vault_id, and
// members at /api/vaults/:vault_id/members[/:user_id], and /api/vaults/:vault_id/member-choices: the
// workspace's members a manager may add (id, name and e-mail only). A vault the user may not see answers 404.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { VisibleVault } from '../../content/vault-service.js';
import { BadRequestError } from '../../core/errors.js';
import { SURFACE_POLICY } from '../../http/route-policy.js';
import type { Services } from '../../services.js';
import { VAULT_ACCESS } from '../../store/schema.js';
import type { VaultMemberRow } from '../../store/vaults-repo.js';

const tags = ['console'];
const config = SURFACE_POLICY.console;
const editorConfig = { ...SURFACE_POLICY.console, role: 'editor' } as const;
const NOT_FOUND = 'No such vault, or not one you may see (`unknown_vault`)';
const NEEDS_MANAGE = 'You see the vault but lack `manage` access to it (`vault_access_required`)';

export const vaultSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  personal: z.boolean().describe("true for a user's personal vault"),
  access: z.enum(VAULT_ACCESS).describe('what you may do in it'),
  created_at: z.string(),
  updated_at: z.string(),
});
const vaultMemberSchema = z.object({ user_id: z.string(), email: z.string(), name: z.string(), access: z.enum(VAULT_ACCESS) });
const memberChoiceSchema = z.object({ id: z.string(), name: z.string(), email: z.string() });
const vaultParams = z.object({ vault_id: z.uuid() });
const memberParams = vaultParams.extend({ user_id: z.uuid() });

export function presentVault(v: VisibleVault): z.infer<typeof vaultSchema> {
  return {
    id: v.id,
    name: v.name,
    description: v.description,
    personal: v.personal_user_id !== null,
    access: v.access,
    created_at: v.created_at.toISOString(),
    updated_at: v.updated_at.toISOString(),
  };
}

function presentMember(m: VaultMemberRow): z.infer<typeof vaultMemberSchema> {
  return { user_id: m.user_id, email: m.email, name: m.name, access: m.access };
}

export const vaultRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.get(
    '/vaults',
    {
      config,
      schema: {
        tags,
        operationId: 'listVaults',
        summary: 'The vaults you may see (luminaries: all of the workspace), your personal vault among them',
        response: { 200: z.object({ vaults: z.array(vaultSchema) }) },
      },
    },
    async (request) => ({ vaults: (await services.vaults.visible(request.principal!)).map(presentVault) }),
  );

  app.post(
    '/vaults',
    {
      config: editorConfig,
      schema: {
        tags,
        operationId: 'createVault',
        summary: 'Creates a shared vault (editor or above); you manage it',
        body: z.object({ name: z.string().trim().min(1).max(200), description: z.string().max(5000).optional() }).strict(),
        response: { 201: z.object({ vault: vaultSchema }) },
      },
    },
    async (request, reply) => reply.code(201).send({ vault: presentVault(await services.vaults.create(request.principal!, request.body)) }),
  );

  app.patch(
    '/vaults/:vault_id',
    {
      config,
      schema: {
        tags,
        operationId: 'updateVault',
        summary: 'Renames a vault or changes its description (manage access)',
        params: vaultParams,
        body: z.object({ name: z.string().trim().min(1).max(200).optional(), description: z.string().max(5000).optional() }).strict(),
        errors: { 403: NEEDS_MANAGE, 404: NOT_FOUND },
        response: { 200: z.object({ vault: vaultSchema }) },
      },
    },
    async (request) => ({ vault: presentVault(await services.vaults.update(request.principal!, request.params.vault_id, request.body)) }),
  );

  app.delete(
    '/vaults/:vault_id',
    {
      config,
      schema: {
        tags,
        operationId: 'deleteVault',
        summary: 'Deletes a vault (manage access); refused while it holds scenes or mosaics unless force=true, which deletes them too',
        params: vaultParams,
        querystring: z.object({ force: z.enum(['true', 'false']).optional() }).strict(),
        errors: {
          403: NEEDS_MANAGE,
          404: NOT_FOUND,
          409: 'The vault holds scenes, mosaics or signals (`vault_not_empty`), or is a personal vault (`personal_vault`)',
        },
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await services.vaults.remove(request.principal!, request.params.vault_id, request.query.force === 'true');
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/vaults/:vault_id/members',
    {
      config,
      schema: {
        tags,
        operationId: 'listVaultMembers',
        summary: "A vault's members and their access",
        params: vaultParams,
        errors: { 404: NOT_FOUND },
        response: { 200: z.object({ members: z.array(vaultMemberSchema) }) },
      },
    },
    async (request) => ({ members: (await services.vaults.listMembers(request.principal!, request.params.vault_id)).map(presentMember) }),
  );

  app.get(
    '/vaults/:vault_id/member-choices',
    {
      config,
      schema: {
        tags,
        operationId: 'listVaultMemberChoices',
        summary: "The workspace's members, by name and e-mail, for a manager of the vault to pick one to add (manage access)",
        params: vaultParams,
        errors: { 400: 'A personal vault has no members (`personal_vault`)', 403: NEEDS_MANAGE, 404: NOT_FOUND },
        response: { 200: z.object({ members: z.array(memberChoiceSchema) }) },
      },
    },
    async (request) => {
      const principal = request.principal!;
      const vault = await services.vaults.require(principal, request.params.vault_id, 'manage');
      if (vault.personal_user_id) throw new BadRequestError('A personal vault has no members', 'personal_vault');
      const members = await services.tenancy.listMembers(principal.workspace.id);
      return { members: members.map((m) => ({ id: m.id, name: m.name, email: m.email })) };
    },
  );

  app.put(
    '/vaults/:vault_id/members/:user_id',
    {
      config,
      schema: {
        tags,
        operationId: 'setVaultMember',
        summary: 'Adds a workspace member to a vault or changes their access: view, edit or manage (manage access)',
        params: memberParams,
        body: z.object({ access: z.enum(VAULT_ACCESS) }).strict(),
        errors: { 400: 'Also: a personal vault has no members (`personal_vault`)', 403: NEEDS_MANAGE, 404: `${NOT_FOUND}; or no such user in your workspace (\`unknown_user\`)` },
        response: { 200: z.object({ members: z.array(vaultMemberSchema) }) },
      },
    },
    async (request) => ({
      members: (await services.vaults.setMember(request.principal!, request.params.vault_id, request.params.user_id, request.body.access)).map(presentMember),
    }),
  );

  app.delete(
    '/vaults/:vault_id/members/:user_id',
    {
      config,
      schema: {
        tags,
        operationId: 'removeVaultMember',
        summary: 'Removes a member from a vault (manage access)',
        params: memberParams,
        errors: { 403: NEEDS_MANAGE, 404: `${NOT_FOUND}; or the user is not a member of it (\`unknown_user\`)` },
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await services.vaults.removeMember(request.principal!, request.params.vault_id, request.params.user_id);
      return reply.code(204).send(null);
    },
  );
};
