// Delivery schedules: a scene or a mosaic sent on a cron, in a time zone, to one webhook endpoint of the
// workspace (signed JSON with the rows and a CSV of them, or {text} for a chat webhook). A schedule acts
// as its owner: each run reads with the owner's data keys, so it never sends more than the owner may
// see; one whose owner may no longer read the target records a failed run (and a failed delivery in the
// endpoint's log) instead of sending. Schedules are seen and changed by their owner and by luminaries.
// A run writes the event, its one delivery and the run row in one transaction (the outbox): the
// delivery worker sends it, with the retries and log of every webhook delivery.
import type { Clock } from '../clock.js';
import { AppError, BadRequestError, NotFoundError } from '../core/errors.js';
import type { MosaicService } from '../content/mosaic-service.js';
import type { SceneService } from '../content/scene-service.js';
import { recordEvent } from '../events/event-record.js';
import { FAILED_RUNS_TO_STOP, failedRunsReason, stoppedFields } from '../jobs/run-stops.js';
import { SKIPPED } from '../events/webhook-service.js';
import { principalOf, type Principal } from '../identity/principal.js';
import { memberRowOf } from '../store/members.js';
import type { PageRequest } from '../store/keyset-page.js';
import { readDeliveryContent, type DeliveryContent, type DeliveryTarget } from './delivery-content.js';
import { assertCron, nextRunAfter } from './schedule-timing.js';
import type { ClaimedSchedule, ScheduleRow, ScheduleRunView, SchedulesRepo, ScheduleValues } from './schedules-repo.js';

export interface ScheduleInput {
  name: string;
  target: DeliveryTarget;
  endpoint_id: string;
  cron: string;
  /** An IANA zone; the workspace's when absent. */
  timezone?: string | undefined;
  enabled?: boolean | undefined;
}

export type SchedulePatch = Partial<ScheduleInput>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function scheduleNotFound(id: string): NotFoundError {
  return new NotFoundError(`No delivery schedule "${id}" of yours in this workspace`, 'unknown_schedule');
}

/** Where a reader opens the target in the console. */
export function consoleLink(consoleUrl: string | undefined, target: DeliveryTarget): string {
  return `${consoleUrl ?? ''}/content?${target.kind}=${target.id}`;
}

export class DeliveryScheduleService {
  constructor(
    private readonly repo: SchedulesRepo,
    private readonly content: { scenes: SceneService; mosaics: MosaicService },
    private readonly clock: Clock,
    private readonly consoleUrl: string | undefined,
  ) {}

  /** Luminaries see every schedule of the workspace; anyone else their own. */
  async list(principal: Principal, page: PageRequest) {
    return this.repo.page(principal.workspace.id, { ...page, ownerId: principal.role === 'luminary' ? undefined : principal.user.id });
  }

  async get(principal: Principal, id: string): Promise<ScheduleRow> {
    const row = UUID.test(id) ? await this.repo.get(principal.workspace.id, id) : undefined;
    if (!row || (row.owner_id !== principal.user.id && principal.role !== 'luminary')) throw scheduleNotFound(id);
    return row;
  }

  async create(principal: Principal, input: ScheduleInput): Promise<ScheduleRow> {
    const timezone = input.timezone ?? principal.workspace.timezone;
    assertCron(input.cron, timezone);
    await this.assertReadable(principal, input.target);
    await this.assertEndpoint(principal.workspace.id, input.endpoint_id);
    const now = this.clock.now();
    const enabled = input.enabled ?? true;
    const values: ScheduleValues = {
      name: input.name,
      target_kind: input.target.kind,
      target_id: input.target.id,
      endpoint_id: input.endpoint_id,
      cron: input.cron,
      timezone,
      enabled,
      next_run_at: enabled ? nextRunAfter({ cron: input.cron, timezone }, now) : null,
    };
    return this.repo.insert(principal.workspace.id, principal.user.id, values, now);
  }

  /**
   * Changes the fields given. A new target must be readable by whoever sets it, who then becomes the
   * owner (the runs read with their keys). A new cron or zone, or resuming, counts the next run from now.
   * A schedule that stopped after its failed runs resumes when it is edited (unless the edit disables
   * it) or enabled: whoever did it has seen why it stopped, and its count of failed runs starts again.
   */
  async update(principal: Principal, id: string, patch: SchedulePatch): Promise<ScheduleRow> {
    const current = await this.get(principal, id);
    const cron = patch.cron ?? current.cron;
    const timezone = patch.timezone ?? current.timezone;
    if (patch.cron !== undefined || patch.timezone !== undefined) assertCron(cron, timezone);
    const retargeted = patch.target !== undefined && (patch.target.kind !== current.target_kind || patch.target.id !== current.target_id);
    if (retargeted) await this.assertReadable(principal, patch.target!);
    if (patch.endpoint_id !== undefined) await this.assertEndpoint(principal.workspace.id, patch.endpoint_id);
    const resumes = (current.stopped_reason !== null && patch.enabled !== false) || patch.enabled === true;
    const enabled = resumes ? true : (patch.enabled ?? current.enabled);
    const rescheduled = patch.cron !== undefined || patch.timezone !== undefined || enabled !== current.enabled;
    const now = this.clock.now();
    const row = await this.repo.update(
      principal.workspace.id,
      id,
      {
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(retargeted ? { target_kind: patch.target!.kind, target_id: patch.target!.id, owner_id: principal.user.id } : {}),
        ...(patch.endpoint_id !== undefined ? { endpoint_id: patch.endpoint_id } : {}),
        ...(patch.cron !== undefined ? { cron } : {}),
        ...(patch.timezone !== undefined ? { timezone } : {}),
        enabled,
        ...(resumes ? { stopped_reason: null, failed_runs: 0 } : {}),
        ...(rescheduled ? { next_run_at: enabled ? nextRunAfter({ cron, timezone }, now) : null } : {}),
      },
      now,
    );
    if (!row) throw scheduleNotFound(id);
    return row;
  }

  async remove(principal: Principal, id: string): Promise<void> {
    await this.get(principal, id);
    await this.repo.remove(principal.workspace.id, id);
  }

  async runs(principal: Principal, id: string, page: PageRequest) {
    await this.get(principal, id);
    return this.repo.runs(id, page);
  }

  /** Runs the schedule now, outside its cron (its next run stays as it was). */
  async sendNow(principal: Principal, id: string): Promise<ScheduleRunView> {
    const schedule = await this.get(principal, id);
    return (await this.execute(schedule, 'send_now'))!;
  }

  /** A run the scheduler claimed; null when the claim was lost meanwhile (another instance holds the run). */
  runClaimed(schedule: ClaimedSchedule): Promise<ScheduleRunView | null> {
    return this.execute(schedule, 'schedule', schedule.claim);
  }

  /**
   * Reads the target as the owner and records the run: the event, its delivery and the run row in one
   * transaction. A failure the owner's access or the content explains is recorded as a failed run and a
   * failed delivery (nothing sent); anything else (the store) throws, and a claimed run is retried.
   */
  private async execute(schedule: ScheduleRow, trigger: 'schedule' | 'send_now', claim?: string): Promise<ScheduleRunView | null> {
    const target: DeliveryTarget = { kind: schedule.target_kind, id: schedule.target_id };
    let content: DeliveryContent | undefined;
    let error: string | null = null;
    const owner = await memberRowOf(this.repo.db, schedule.workspace_id, schedule.owner_id);
    if (!owner) error = 'Not sent: the schedule\'s owner is no longer a member of the workspace';
    else {
      try {
        content = await readDeliveryContent(this.content, principalOf(owner, 'session'), target, schedule.timezone, `${target.kind}:${target.id}`);
      } catch (caught) {
        if (caught instanceof NotFoundError) error = `Not sent: the schedule's owner may no longer read ${target.kind} ${target.id} (it was deleted, or moved where they may not see it)`;
        else if (caught instanceof AppError) error = `Not sent: ${caught.message}`;
        else throw caught;
      }
    }
    const ranAt = this.clock.now();
    return this.repo.db.transaction().execute(async (trx) => {
      if (claim !== undefined && !(await this.repo.release(trx, schedule.id, claim))) return null;
      const endpoint = await trx.selectFrom('webhook_endpoints').select(['id', 'enabled']).where('id', '=', schedule.endpoint_id).executeTakeFirstOrThrow();
      const event = await recordEvent(trx, {
        workspaceId: schedule.workspace_id,
        type: 'delivery.scheduled',
        fields: {
          schedule_id: schedule.id,
          schedule_name: schedule.name,
          ran_at: ranAt.toISOString(),
          timezone: schedule.timezone,
          target: { kind: target.kind, id: target.id, name: content?.name ?? null, console_url: consoleLink(this.consoleUrl, target) },
          results: content?.tables ?? [],
          error,
        },
      });
      await trx.updateTable('events').set({ fanned_out_at: ranAt }).where('id', '=', event.id).execute();
      // A run that could not read its target is logged as a failed delivery: nothing is sent, but the
      // endpoint's delivery log shows it beside the schedule's own runs.
      const state = error !== null ? { status: 'failed' as const, next_attempt_at: null, last_error: error } : endpoint.enabled ? { next_attempt_at: ranAt } : SKIPPED;
      const delivery = await trx
        .insertInto('webhook_deliveries')
        .values({ event_id: event.id, endpoint_id: endpoint.id, workspace_id: schedule.workspace_id, ...state })
        .returning(['id', 'status', 'attempts', 'last_error'])
        .executeTakeFirstOrThrow();
      const run = await trx
        .insertInto('delivery_schedule_runs')
        .values({ schedule_id: schedule.id, ran_at: ranAt, trigger, status: error === null ? 'queued' : 'error', error, event_id: event.id, delivery_id: delivery.id })
        .returningAll()
        .executeTakeFirstOrThrow();
      // Failed runs in a row, counted in the run's transaction; at the limit the schedule stops.
      const counted = await trx
        .updateTable('delivery_schedules')
        .set((eb) => ({ last_run_at: ranAt, last_error: error, failed_runs: error === null ? 0 : eb('failed_runs', '+', 1) }))
        .where('id', '=', schedule.id)
        .returning(['failed_runs', 'enabled'])
        .executeTakeFirstOrThrow();
      if (error !== null && counted.enabled && counted.failed_runs >= FAILED_RUNS_TO_STOP) {
        await trx.updateTable('delivery_schedules').set(stoppedFields(failedRunsReason(counted.failed_runs, error))).where('id', '=', schedule.id).execute();
      }
      return { ...run, delivery_status: delivery.status, delivery_attempts: delivery.attempts, delivery_last_error: delivery.last_error };
    });
  }

  /** 400 for a scene or mosaic the caller may not read, or that does not exist (the same answer: no leak). */
  private async assertReadable(principal: Principal, target: DeliveryTarget): Promise<void> {
    if (!UUID.test(target.id)) throw new BadRequestError(`target.id "${target.id}" is not a ${target.kind} id`, 'unknown_target');
    try {
      if (target.kind === 'scene') await this.content.scenes.get(principal, target.id);
      else await this.content.mosaics.get(principal, target.id);
    } catch (error) {
      if (error instanceof NotFoundError) throw new BadRequestError(`Unknown ${target.kind} "${target.id}" (or one in a vault you may not see)`, 'unknown_target');
      throw error;
    }
  }

  private async assertEndpoint(workspaceId: string, endpointId: string): Promise<void> {
    const row = UUID.test(endpointId)
      ? await this.repo.db.selectFrom('webhook_endpoints').select('id').where('id', '=', endpointId).where('workspace_id', '=', workspaceId).executeTakeFirst()
      : undefined;
    if (!row) throw new BadRequestError(`Unknown webhook endpoint "${endpointId}" in this workspace`, 'unknown_endpoint');
  }
}
