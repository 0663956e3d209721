-- Delivery claims hold a lease on the store's clock: claimed_until is set from now() by the claiming
-- statement and compared with now() by the next, so a worker whose clock runs ahead cannot take over a
-- delivery another is still attempting. next_attempt_at is only ever when the next attempt is due.
alter table webhook_deliveries add column claimed_until timestamptz;

-- 'skipped': the event happened while the endpoint was disabled; recorded so that it can be recovered.
alter table webhook_deliveries drop constraint webhook_deliveries_status_check;
alter table webhook_deliveries add constraint webhook_deliveries_status_check
  check (status in ('pending', 'delivered', 'failed', 'gone', 'skipped'));

-- Claims go endpoint by endpoint (each has its own bound on attempts in flight): the oldest due delivery
-- of an endpoint, and the attempts it has in flight, are each an index range.
create index webhook_deliveries_endpoint_due_idx on webhook_deliveries (endpoint_id, next_attempt_at) where status = 'pending';
create index webhook_deliveries_in_flight_idx on webhook_deliveries (endpoint_id, claimed_until) where status = 'pending' and claimed_until is not null;
