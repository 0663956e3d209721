// Reading the guard's refusals in tests: the reason it gives, and whether a reason text is one of the
// listed reasons (whose `{name}` stands for any name).
import { assertReadOnly, type Reason, ReadOnlyViolation } from '../../src/core/sql/guard/index.js';
import type { WarehouseEngine } from '../../src/core/warehouse/types.js';

/** The guard's reason for refusing `sql`, or undefined when it allows it. */
export function refusalReason(engine: WarehouseEngine, sql: unknown): Promise<string | undefined> {
  return assertReadOnly(engine, sql as string).then(
    () => undefined,
    (error: unknown) => {
      if (!(error instanceof ReadOnlyViolation)) throw error;
      return error.reason;
    },
  );
}

/** True when `given` is the text of one of `reasons`. */
export function isReason(given: string | undefined, ...reasons: Reason[]): boolean {
  return given !== undefined && reasons.some((r) => reasonPattern(r).test(given));
}

function reasonPattern(reason: Reason): RegExp {
  const escaped = reason.text.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace('\\{name\\}', '.+').replace('{name}', '.+');
  return new RegExp(`^${escaped}$`);
}
