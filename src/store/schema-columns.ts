// Column types shared by the row types of the metadata store (schema.ts, schema-events.ts).
import type { ColumnType } from 'kysely';

/** Set by the database on insert, never updated. */
export type CreatedAt = ColumnType<Date, Date | undefined, never>;
/** Set on insert and on every update. */
export type UpdatedAt = ColumnType<Date, Date | undefined, Date>;
/** JSON stored as text: read as `T`, written as a string. */
export type Json<T> = ColumnType<T, string, string>;
