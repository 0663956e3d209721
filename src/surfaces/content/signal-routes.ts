// Signals: GET /signals (cursor pages), GET /signals/:signal_id, POST /signals, PATCH and DELETE
// /signals/:signal_id, POST /signals/:signal_id/evaluate (?send=true to record and fire), GET
// /signals/:signal_id/evaluations. Mounted on C at /v1 and in the console at /api (content-policy.ts).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ForbiddenError } from '../../core/errors.js';
import type { Principal } from '../../identity/principal.js';
import { roleAtLeast } from '../../identity/roles.js';
import { signalInputSchema, signalPatchSchema } from '../../signals/signal-definition.js';
import { operationId, PAGE_LIMIT, type ContentPlace } from './content-policy.js';
import { evaluateAnswerSchema, evaluationSchema, presentEvaluate, presentEvaluation, presentSignal, signalSchema } from './signal-schema.js';

const params = z.object({ signal_id: z.uuid().describe("the signal's id") });
const page = z
  .object({ limit: z.coerce.number().int().min(1).max(PAGE_LIMIT.max).default(PAGE_LIMIT.default), cursor: z.string().max(500).optional() })
  .strict();
const NOT_FOUND = 'No such signal, or one in a vault you may not see (`unknown_signal`)';
const NO_EDIT = "You see the signal's vault but lack `edit` access to it (`vault_access_required`)";
const INVALID = 'Also: an unknown scene, node, measure or field, a bad period token, or a cron expression or time zone that does not parse (`invalid_signal`, `invalid_schedule`; the message names it)';

/**
 * A dry evaluation only reads (the read policy admits it); recording and firing one changes the signal,
 * so `send=true` needs what a write needs: the role and, with a key, the scope of the write policy.
 */
function assertMaySend(place: ContentPlace, principal: Principal): void {
  const { role, scope } = place.write;
  if (role && !roleAtLeast(principal.role, role)) throw new ForbiddenError(`send=true needs the ${role} role or above; yours is ${principal.role}`, 'role_required');
  if (scope && !principal.key?.scopes.includes(scope)) throw new ForbiddenError(`send=true needs a key with the ${scope} scope`, 'scope_required');
}

export const signalRoutes: FastifyPluginAsyncZod<ContentPlace> = async (app, place) => {
  const { services, tags } = place;
  const id = (name: string) => operationId(place, name);

  app.get(
    '/signals',
    {
      config: place.read,
      schema: {
        tags,
        operationId: id('listSignals'),
        summary: 'Signals in the vaults you may see, oldest first; pass next_cursor back as cursor',
        querystring: page,
        errors: { 400: 'Also: a cursor that is not a next_cursor of a previous page (`invalid_cursor`)' },
        response: { 200: z.object({ signals: z.array(signalSchema), next_cursor: z.string().nullable() }) },
      },
    },
    async (request) => {
      const { signals, nextCursor } = await services.signals.list(request.principal!, request.query);
      return { signals: signals.map(presentSignal), next_cursor: nextCursor };
    },
  );

  app.get(
    '/signals/:signal_id',
    {
      config: place.read,
      schema: { tags, operationId: id('getSignal'), summary: 'One signal with its state, last value and next run', params, errors: { 404: NOT_FOUND }, response: { 200: z.object({ signal: signalSchema }) } },
    },
    async (request) => ({ signal: presentSignal(await services.signals.view(request.principal!, request.params.signal_id)) }),
  );

  app.post(
    '/signals',
    {
      config: place.write,
      schema: {
        tags,
        operationId: id('createSignal'),
        summary: 'Creates a signal (editor or above, `edit` on the vault); you are its owner: evaluations use your data keys',
        body: signalInputSchema,
        errors: { 400: INVALID, 403: NO_EDIT, 404: 'A vault you may not see (`unknown_vault`)' },
        response: { 201: z.object({ signal: signalSchema }) },
      },
    },
    // The creator is the owner: the values are theirs to see.
    async (request, reply) => reply.code(201).send({ signal: presentSignal({ row: await services.signals.create(request.principal!, request.body), valuesHidden: false }) }),
  );

  app.patch(
    '/signals/:signal_id',
    {
      config: place.write,
      schema: {
        tags,
        operationId: id('updateSignal'),
        summary:
          'Changes the fields given; a new schedule (or enabling again) counts the next run from now. Whoever else changes what it watches (or sends take_ownership) becomes its owner; a new watch, owner or condition starts its state again',
        params,
        body: signalPatchSchema,
        errors: { 400: INVALID, 403: NO_EDIT, 404: NOT_FOUND },
        response: { 200: z.object({ signal: signalSchema }) },
      },
    },
    async (request) => ({ signal: presentSignal(await services.signals.update(request.principal!, request.params.signal_id, request.body)) }),
  );

  app.delete(
    '/signals/:signal_id',
    {
      config: place.write,
      schema: { tags, operationId: id('deleteSignal'), summary: 'Deletes a signal and its evaluation history', params, errors: { 403: NO_EDIT, 404: NOT_FOUND }, response: { 204: z.null() } },
    },
    async (request, reply) => {
      await services.signals.remove(request.principal!, request.params.signal_id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/signals/:signal_id/evaluate',
    {
      config: place.read,
      schema: {
        tags,
        operationId: id('evaluateSignal'),
        summary:
          "Evaluates now: a dry run (the default) reads with your data keys and changes nothing; send=true records the signal's own evaluation, read with its owner's keys, and fires on a crossing",
        params,
        querystring: z.object({ send: z.enum(['true', 'false']).default('false') }).strict(),
        errors: { 403: `With send=true: a role below editor, a key without content:write, or: ${NO_EDIT}`, 404: NOT_FOUND },
        response: { 200: evaluateAnswerSchema },
      },
    },
    async (request) => {
      const send = request.query.send === 'true';
      if (send) assertMaySend(place, request.principal!);
      return presentEvaluate(await services.signals.evaluateFor(request.principal!, request.params.signal_id, send));
    },
  );

  app.get(
    '/signals/:signal_id/evaluations',
    {
      config: place.read,
      schema: {
        tags,
        operationId: id('listSignalEvaluations'),
        summary: 'Evaluations of a signal, newest first; pass next_cursor back as cursor',
        params,
        querystring: page,
        errors: { 400: 'Also: a bad cursor (`invalid_cursor`)', 404: NOT_FOUND },
        response: { 200: z.object({ evaluations: z.array(evaluationSchema), next_cursor: z.string().nullable() }) },
      },
    },
    async (request) => {
      const { evaluations, nextCursor } = await services.signals.evaluations(request.principal!, request.params.signal_id, request.query);
      return { evaluations: evaluations.map(presentEvaluation), next_cursor: nextCursor };
    },
  );
};
