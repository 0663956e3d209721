export interface PoolOptions {
  /** Connections kept per warehouse (default 5). One makes every run reuse the same session. */
  readonly maxConnections?: number;
}

export const DEFAULT_MAX_CONNECTIONS = 5;
