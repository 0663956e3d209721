// The one error the guard throws: a 400 whose message never varies, with a short human reason in
// `details.reason` (never the user's SQL echoed back beyond a function or keyword name). The reasons
// themselves are listed in reasons.ts.
import { BadRequestError } from '../../errors.js';

export const READ_ONLY_MESSAGE = 'Only SELECT, WITH and EXPLAIN statements are allowed';

export class ReadOnlyViolation extends BadRequestError {
  declare readonly details: { reason: string };

  constructor(reason: string) {
    // Reasons may quote a name from the statement: keep them short.
    super(READ_ONLY_MESSAGE, 'read_only_violation', { reason: reason.length > 120 ? `${reason.slice(0, 117)}...` : reason });
  }

  get reason(): string {
    return this.details.reason;
  }
}
