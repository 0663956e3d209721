// Webhook endpoints for the console (luminaries only): GET/POST /api/webhooks, GET/PATCH/DELETE
// /api/webhooks/:id, POST /api/webhooks/:id/rotate-secret, POST /api/webhooks/:id/test, the delivery log:
// GET /api/webhooks/:id/deliveries, POST /api/webhooks/:id/deliveries/:delivery_id/redeliver, and
// POST /api/webhooks/:id/recover (a time range's undelivered deliveries, sent again).
// A signing secret appears only in the answers of creation and rotation. Editors, who send scheduled
// deliveries to these endpoints, list them to pick one at GET /api/delivery-endpoints: id, description,
// format and the URL's host only (a chat endpoint's URL path is its credential).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { RECOVER_LIMIT } from '../../events/webhook-recovery.js';
import { SUBSCRIBABLE_EVENTS } from '../../events/webhook-service.js';
import { SURFACE_POLICY } from '../../http/route-policy.js';
import { DELIVERY_STATUSES, ENDPOINT_FORMATS } from '../../store/schema.js';

const FORMAT = '`standard`: the event as JSON, signed (Standard Webhooks); `chat`: `{"text": …}` for a Slack- or Teams-style incoming webhook';
import type { Services } from '../../services.js';

const POLICY = { ...SURFACE_POLICY.console, role: 'luminary' } as const;
const EDITOR_POLICY = { ...SURFACE_POLICY.console, role: 'editor' } as const;

const endpointChoiceSchema = z.object({
  id: z.string(),
  description: z.string(),
  host: z.string().describe("the host of the endpoint's URL; its path is left out, being a chat endpoint's credential"),
  format: z.enum(ENDPOINT_FORMATS).describe(FORMAT),
  enabled: z.boolean().describe('false: deliveries to it are logged as skipped until a luminary enables it again'),
});

const endpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  format: z.enum(ENDPOINT_FORMATS).describe(FORMAT),
  events: z.array(z.string()),
  enabled: z.boolean(),
  disabled_reason: z.string().nullable().describe('`gone`: the receiver answered 410; `failing`: no successful delivery for 3 days'),
  description: z.string(),
  previous_secret_expires_at: z.string().nullable().describe('Until then, deliveries also carry a signature by the previous secret'),
  created_at: z.string(),
  updated_at: z.string(),
});

const deliverySchema = z.object({
  id: z.string(),
  event_id: z.string().describe('Also the `webhook-id` header: the same on every attempt'),
  event: z.string(),
  status: z.enum(DELIVERY_STATUSES).describe('`skipped`: the event happened while the endpoint was disabled (nothing was sent; recover sends it)'),
  attempts: z.number().int(),
  next_attempt_at: z.string().nullable(),
  last_status_code: z.number().int().nullable(),
  last_duration_ms: z.number().int().nullable(),
  last_response: z.string().nullable().describe('The first 1 KB of the last answer'),
  last_error: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

// Checked again by the service (a URL's host is resolved there); zod only bounds the shapes.
const url = z.string().min(1).max(2000).describe('https, or http for hosts in SVC_WEBHOOK_ALLOW_HOSTS; must resolve to ordinary global unicast addresses only (not loopback, private, link-local or another special-purpose block)');
const events = z.array(z.string().max(100)).min(1).max(10).describe(`Any of ${SUBSCRIBABLE_EVENTS.join(', ')}`);
const description = z.string().max(500);
const idParams = z.object({ id: z.string() });
const NOT_FOUND = 'No such webhook in your workspace (`not_found`)';
const BAD_INPUT = 'A URL that is not https, does not resolve or resolves to a refused address (`invalid_webhook_url`), or unknown events (`invalid_webhook_events`)';

export const webhookRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const hooks = services.webhooks;
  const tags = ['console'];

  app.get(
    '/webhooks',
    { config: POLICY, schema: { tags, operationId: 'listWebhooks', summary: 'Webhook endpoints of the workspace (luminary)', response: { 200: z.object({ webhooks: z.array(endpointSchema) }) } } },
    async (request) => ({ webhooks: await hooks.list(request.principal!.workspace.id) }),
  );

  app.get(
    '/delivery-endpoints',
    {
      config: EDITOR_POLICY,
      schema: {
        tags,
        operationId: 'listDeliveryEndpoints',
        summary: "The workspace's webhook endpoints, to pick one a scheduled delivery sends to (editor): description, format and host only",
        response: { 200: z.object({ endpoints: z.array(endpointChoiceSchema) }) },
      },
    },
    async (request) => ({
      endpoints: (await hooks.list(request.principal!.workspace.id)).map((e) => ({
        id: e.id,
        description: e.description,
        host: URL.canParse(e.url) ? new URL(e.url).host : '',
        format: e.format,
        enabled: e.enabled,
      })),
    }),
  );

  app.post(
    '/webhooks',
    {
      config: POLICY,
      schema: {
        tags,
        operationId: 'createWebhook',
        summary: 'Adds a webhook endpoint; its signing secret (whsec_…) is shown only in this answer',
        body: z.object({ url, format: z.enum(ENDPOINT_FORMATS).optional().describe(FORMAT), events, enabled: z.boolean().optional(), description: description.optional() }),
        response: { 201: z.object({ webhook: endpointSchema, secret: z.string() }) },
        errors: { 400: BAD_INPUT },
      },
    },
    async (request, reply) => {
      const created = await hooks.create(request.principal!.workspace.id, request.body);
      return reply.code(201).send({ webhook: created.endpoint, secret: created.secret });
    },
  );

  app.get(
    '/webhooks/:id',
    { config: POLICY, schema: { tags, operationId: 'getWebhook', summary: 'One webhook endpoint (luminary)', params: idParams, response: { 200: z.object({ webhook: endpointSchema }) }, errors: { 404: NOT_FOUND } } },
    async (request) => ({ webhook: await hooks.get(request.principal!.workspace.id, request.params.id) }),
  );

  app.patch(
    '/webhooks/:id',
    {
      config: POLICY,
      schema: {
        tags,
        operationId: 'updateWebhook',
        summary: 'Changes a webhook endpoint; enabling it again clears why the service disabled it',
        params: idParams,
        body: z.object({ url: url.optional(), format: z.enum(ENDPOINT_FORMATS).optional().describe(FORMAT), events: events.optional(), enabled: z.boolean().optional(), description: description.optional() }),
        response: { 200: z.object({ webhook: endpointSchema }) },
        errors: { 400: BAD_INPUT, 404: NOT_FOUND },
      },
    },
    async (request) => ({ webhook: await hooks.update(request.principal!.workspace.id, request.params.id, request.body) }),
  );

  app.delete(
    '/webhooks/:id',
    { config: POLICY, schema: { tags, operationId: 'deleteWebhook', summary: 'Deletes a webhook endpoint and its delivery log', params: idParams, response: { 204: z.null() }, errors: { 404: NOT_FOUND } } },
    async (request, reply) => {
      await hooks.remove(request.principal!.workspace.id, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/webhooks/:id/rotate-secret',
    {
      config: POLICY,
      schema: {
        tags,
        operationId: 'rotateWebhookSecret',
        summary: 'A new signing secret, shown only in this answer; the previous one keeps signing (a second signature) for 24 h',
        params: idParams,
        response: { 200: z.object({ webhook: endpointSchema, secret: z.string() }) },
        errors: { 404: NOT_FOUND },
      },
    },
    async (request) => {
      const rotated = await hooks.rotate(request.principal!.workspace.id, request.params.id);
      return { webhook: rotated.endpoint, secret: rotated.secret };
    },
  );

  app.post(
    '/webhooks/:id/test',
    {
      config: POLICY,
      schema: {
        tags,
        operationId: 'testWebhook',
        summary: 'Sends a `webhook.test` event to this endpoint (asynchronously: follow it in the delivery log)',
        params: idParams,
        response: { 202: z.object({ delivery: deliverySchema }) },
        errors: { 404: NOT_FOUND },
      },
    },
    async (request, reply) => reply.code(202).send({ delivery: await hooks.sendTest(request.principal!.workspace.id, request.params.id) }),
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      config: POLICY,
      schema: {
        tags,
        operationId: 'listWebhookDeliveries',
        summary: "The endpoint's deliveries, newest first; pass next_cursor back as cursor",
        params: idParams,
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(200).default(50), cursor: z.string().max(200).optional() }),
        response: { 200: z.object({ deliveries: z.array(deliverySchema), next_cursor: z.string().nullable() }) },
        errors: { 404: NOT_FOUND },
      },
    },
    async (request) => hooks.deliveries(request.principal!.workspace.id, request.params.id, request.query),
  );

  app.post(
    '/webhooks/:id/recover',
    {
      config: POLICY,
      schema: {
        tags,
        operationId: 'recoverWebhook',
        summary: "Sends again the endpoint's deliveries of a time range that were not delivered: failed, gone, or skipped while it was disabled",
        params: idParams,
        body: z.object({
          since: z.iso.datetime({ offset: true }).describe('Deliveries created (events fanned out to the endpoint) at or after this time'),
          until: z.iso.datetime({ offset: true }).optional().describe('…and before this time; now when not given'),
        }),
        response: {
          202: z.object({
            requeued: z.number().int().describe('Deliveries queued again, from the start of the retry schedule, oldest first'),
            has_more: z.boolean().describe(`At most ${RECOVER_LIMIT} a call: true means call again with the same range`),
            since: z.string(),
            until: z.string(),
          }),
        },
        errors: {
          400: 'A date that is not ISO 8601, or a range that does not end after it starts (`invalid_range`)',
          404: NOT_FOUND,
          409: 'The webhook is disabled: enable it first (`webhook_disabled`)',
        },
      },
    },
    async (request, reply) => {
      const { since, until } = request.body;
      return reply.code(202).send(await services.webhookRecovery.recover(request.principal!.workspace.id, request.params.id, { since: new Date(since), until: until ? new Date(until) : undefined }));
    },
  );

  app.post(
    '/webhooks/:id/deliveries/:delivery_id/redeliver',
    {
      config: POLICY,
      schema: {
        tags,
        operationId: 'redeliverWebhook',
        summary: 'Sends a delivery again, from the start of the retry schedule',
        params: z.object({ id: z.string(), delivery_id: z.string() }),
        response: { 202: z.object({ delivery: deliverySchema }) },
        errors: { 404: 'No such webhook in your workspace, or no such delivery of it (`not_found`)' },
      },
    },
    async (request, reply) => reply.code(202).send({ delivery: await hooks.redeliver(request.principal!.workspace.id, request.params.id, request.params.delivery_id) }),
  );
};
