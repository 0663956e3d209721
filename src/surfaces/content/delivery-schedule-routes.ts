// Delivery schedules: GET /delivery-schedules (cursor pages), GET/PATCH/DELETE
// /delivery-schedules/:schedule_id, POST /delivery-schedules, POST .../pause and .../resume, POST
// .../send (now, outside the cron), GET .../runs (newest first, with each run's delivery state).
// Mounted on C at /v1 and in the console at /api (content-policy.ts); reads need content:read, changes
// content:write and the editor role.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ScheduleRow, ScheduleRunView } from '../../deliveries/schedules-repo.js';
import { DELIVERY_STATUSES } from '../../store/schema.js';
import { operationId, PAGE_LIMIT, type ContentPlace } from './content-policy.js';

const params = z.object({ schedule_id: z.string().max(100).describe("the schedule's id") });
const page = z
  .object({ limit: z.coerce.number().int().min(1).max(PAGE_LIMIT.max).default(PAGE_LIMIT.default), cursor: z.string().max(500).optional() })
  .strict();
const target = z.object({ kind: z.enum(['scene', 'mosaic']), id: z.string().max(100) }).strict().describe('The scene or mosaic to send; you must be able to read it');
const name = z.string().trim().min(1).max(200);
const cron = z.string().min(1).max(200).describe('Five fields (minute hour day month weekday), or six with seconds first; at most once a minute');
const timezone = z.string().min(1).max(64).describe("An IANA time zone the cron is read in; the workspace's when absent");
const endpoint = z.string().max(100).describe('A webhook endpoint of the workspace (format `standard` or `chat`)');

const scheduleSchema = z.object({
  id: z.string(),
  name: z.string(),
  owner_id: z.string().describe('Whose data keys the runs read with'),
  target: z.object({ kind: z.enum(['scene', 'mosaic']), id: z.string() }),
  endpoint_id: z.string(),
  cron: z.string(),
  timezone: z.string(),
  enabled: z.boolean(),
  next_run_at: z.string().nullable(),
  last_run_at: z.string().nullable(),
  last_error: z.string().nullable().describe('Why the last run sent nothing (its owner may no longer read the target, the query failed)'),
  failed_runs: z.number().int().describe('Runs in a row that sent nothing; at 5 the schedule stops'),
  stopped_reason: z
    .string()
    .nullable()
    .describe('Why the schedule stopped by itself (`enabled` false): after 5 failed runs in a row. Editing or resuming it runs it again and clears this'),
  created_at: z.string(),
  updated_at: z.string(),
});

const runSchema = z.object({
  id: z.string(),
  ran_at: z.string(),
  trigger: z.enum(['schedule', 'send_now']),
  status: z.enum(['queued', 'error']).describe('`queued`: in the outbox (see delivery for how it went); `error`: nothing was sent'),
  error: z.string().nullable(),
  event_id: z.string().nullable().describe('Also the `webhook-id` header of its delivery'),
  delivery: z
    .object({ id: z.string(), status: z.enum(DELIVERY_STATUSES), attempts: z.number().int(), last_error: z.string().nullable() })
    .nullable()
    .describe("The delivery as the endpoint's delivery log has it now"),
});

function presentSchedule(row: ScheduleRow): z.infer<typeof scheduleSchema> {
  return {
    id: row.id,
    name: row.name,
    owner_id: row.owner_id,
    target: { kind: row.target_kind, id: row.target_id },
    endpoint_id: row.endpoint_id,
    cron: row.cron,
    timezone: row.timezone,
    enabled: row.enabled,
    next_run_at: row.next_run_at?.toISOString() ?? null,
    last_run_at: row.last_run_at?.toISOString() ?? null,
    last_error: row.last_error,
    failed_runs: row.failed_runs,
    stopped_reason: row.stopped_reason,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

function presentRun(row: ScheduleRunView): z.infer<typeof runSchema> {
  return {
    id: row.id,
    ran_at: row.ran_at.toISOString(),
    trigger: row.trigger,
    status: row.status,
    error: row.error,
    event_id: row.event_id,
    delivery: row.delivery_id && row.delivery_status ? { id: row.delivery_id, status: row.delivery_status, attempts: row.delivery_attempts ?? 0, last_error: row.delivery_last_error } : null,
  };
}

const NOT_FOUND = 'No such schedule, or one of another member (only its owner and luminaries see it) (`unknown_schedule`)';
const INVALID =
  'A cron expression that does not parse or runs more than once a minute (`invalid_cron`), an unknown time zone (`invalid_timezone`), a scene or mosaic that does not exist or you may not read (`unknown_target`), or an endpoint not in the workspace (`unknown_endpoint`)';

export const deliveryScheduleRoutes: FastifyPluginAsyncZod<ContentPlace> = async (app, place) => {
  const { services, tags } = place;
  const schedules = services.deliverySchedules;
  const id = (operation: string) => operationId(place, operation);
  const one = z.object({ schedule: scheduleSchema });

  app.get(
    '/delivery-schedules',
    {
      config: place.read,
      schema: {
        tags,
        operationId: id('listDeliverySchedules'),
        summary: 'Your delivery schedules (a luminary: every one of the workspace), oldest first',
        querystring: page,
        errors: { 400: 'Also: a bad cursor (`invalid_cursor`)' },
        response: { 200: z.object({ schedules: z.array(scheduleSchema), next_cursor: z.string().nullable() }) },
      },
    },
    async (request) => {
      const { rows, nextCursor } = await schedules.list(request.principal!, request.query);
      return { schedules: rows.map(presentSchedule), next_cursor: nextCursor };
    },
  );

  app.get(
    '/delivery-schedules/:schedule_id',
    { config: place.read, schema: { tags, operationId: id('getDeliverySchedule'), summary: 'One delivery schedule', params, errors: { 404: NOT_FOUND }, response: { 200: one } } },
    async (request) => ({ schedule: presentSchedule(await schedules.get(request.principal!, request.params.schedule_id)) }),
  );

  app.post(
    '/delivery-schedules',
    {
      config: place.write,
      schema: {
        tags,
        operationId: id('createDeliverySchedule'),
        summary: 'Sends a scene or mosaic on a cron to a webhook endpoint; you are its owner: runs read with your data keys',
        body: z.object({ name, target, endpoint_id: endpoint, cron, timezone: timezone.optional(), enabled: z.boolean().optional() }).strict(),
        errors: { 400: INVALID },
        response: { 201: one },
      },
    },
    async (request, reply) => reply.code(201).send({ schedule: presentSchedule(await schedules.create(request.principal!, request.body)) }),
  );

  app.patch(
    '/delivery-schedules/:schedule_id',
    {
      config: place.write,
      schema: {
        tags,
        operationId: id('updateDeliverySchedule'),
        summary: 'Changes the fields given; a new target makes you its owner; a new cron or zone (or resuming) counts the next run from now',
        params,
        body: z.object({ name: name.optional(), target: target.optional(), endpoint_id: endpoint.optional(), cron: cron.optional(), timezone: timezone.optional(), enabled: z.boolean().optional() }).strict(),
        errors: { 400: INVALID, 404: NOT_FOUND },
        response: { 200: one },
      },
    },
    async (request) => ({ schedule: presentSchedule(await schedules.update(request.principal!, request.params.schedule_id, request.body)) }),
  );

  for (const [action, enabled] of [['pause', false], ['resume', true]] as const) {
    app.post(
      `/delivery-schedules/:schedule_id/${action}`,
      {
        config: place.write,
        schema: {
          tags,
          operationId: id(`${action}DeliverySchedule`),
          summary: enabled ? 'Resumes a paused schedule: the next run counts from now' : 'Pauses a schedule: no run until it is resumed',
          params,
          errors: { 404: NOT_FOUND },
          response: { 200: one },
        },
      },
      async (request) => ({ schedule: presentSchedule(await schedules.update(request.principal!, request.params.schedule_id, { enabled })) }),
    );
  }

  app.delete(
    '/delivery-schedules/:schedule_id',
    {
      config: place.write,
      schema: { tags, operationId: id('deleteDeliverySchedule'), summary: 'Deletes a schedule and its runs (the delivery log keeps its deliveries)', params, errors: { 404: NOT_FOUND }, response: { 204: z.null() } },
    },
    async (request, reply) => {
      await schedules.remove(request.principal!, request.params.schedule_id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/delivery-schedules/:schedule_id/send',
    {
      config: place.write,
      schema: {
        tags,
        operationId: id('sendDeliverySchedule'),
        summary: 'Runs the schedule now, as its owner, and queues the delivery (its cron is unchanged); a run that could not read its target is answered with status error',
        params,
        errors: { 404: NOT_FOUND },
        response: { 202: z.object({ run: runSchema }) },
      },
    },
    async (request, reply) => reply.code(202).send({ run: presentRun(await schedules.sendNow(request.principal!, request.params.schedule_id)) }),
  );

  app.get(
    '/delivery-schedules/:schedule_id/runs',
    {
      config: place.read,
      schema: {
        tags,
        operationId: id('listDeliveryScheduleRuns'),
        summary: "A schedule's runs, newest first, each with its delivery's state",
        params,
        querystring: page,
        errors: { 400: 'Also: a bad cursor (`invalid_cursor`)', 404: NOT_FOUND },
        response: { 200: z.object({ runs: z.array(runSchema), next_cursor: z.string().nullable() }) },
      },
    },
    async (request) => {
      const { rows, nextCursor } = await schedules.runs(request.principal!, request.params.schedule_id, request.query);
      return { runs: rows.map(presentRun), next_cursor: nextCursor };
    },
  );
};
