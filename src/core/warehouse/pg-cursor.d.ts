// pg-cursor ships no types; this is the part of its API the PostgreSQL driver uses.
declare module 'pg-cursor' {
  import type { Connection, CustomTypesConfig, FieldDef, Submittable } from 'pg';

  export interface CursorConfig {
    rowMode?: 'array';
    types?: CustomTypesConfig;
  }

  export interface CursorResult {
    fields: FieldDef[];
  }

  export default class Cursor<Row = unknown[]> implements Submittable {
    constructor(text: string, values?: readonly unknown[] | null, config?: CursorConfig);
    submit(connection: Connection): void;
    read(rows: number, callback: (err: Error | undefined, rows: Row[], result: CursorResult) => void): void;
    close(): Promise<void>;
  }
}
