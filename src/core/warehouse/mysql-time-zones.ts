// Named time zones on MySQL and MariaDB need the server's time zone tables: without them CONVERT_TZ
// into 'Europe/Paris' (or even 'UTC') returns NULL, and a query grouped by a converted time would put
// every row under one NULL bucket, or a filter on it would drop them all, silently. Before the first
// statement that converts into a zone, the driver asks the server to convert a constant; NULL means
// the tables are missing and the run is refused with the fix. A zone that converts is remembered for
// the pool's lifetime; one that does not is asked again next time, so loading the tables takes effect
// at once.
import { WarehouseError } from './errors.js';

/** What an operator runs once on the server to load the tables. */
export const MYSQL_TIME_ZONE_FIX =
  'mariadb-tzinfo-to-sql /usr/share/zoneinfo | mariadb -u root mysql (on MySQL: mysql_tzinfo_to_sql /usr/share/zoneinfo | mysql -u root mysql)';

/** One row, one column: the constant converted into the zone bound as the only parameter (NULL when unknown). */
export const CONVERT_TZ_PROBE_SQL = "SELECT CONVERT_TZ('2000-01-01 00:00:00', '+00:00', ?) AS converted";

/** A conversion into UTC is no conversion: the compiler emits none, so nothing needs checking. */
export function needsTimeZoneCheck(zone: string | undefined): zone is string {
  return zone !== undefined && zone !== 'UTC';
}

export function timeZoneUnsupported(engine: string, zone: string): WarehouseError {
  return new WarehouseError(
    'warehouse_time_zone_unsupported',
    `${engine}: the warehouse cannot convert times into the time zone "${zone}": its time zone tables are not loaded, ` +
      `so every converted time would be NULL. Load them once on the server: ${MYSQL_TIME_ZONE_FIX}. Queries in UTC work meanwhile.`,
    { timezone: zone },
  );
}
