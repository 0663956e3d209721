// Where a refused query's error is shown: beside the control it is about (the comparison, the percent
// of total, the filters), read from the server's code or the body path its message names, else under
// the query as a whole.
import { ApiError } from '../api';

export type ErrorPlace = 'compare' | 'shares' | 'filters' | 'query';

export function placeOf(error: unknown): ErrorPlace {
  if (!(error instanceof ApiError)) return 'query';
  const { code, message } = error;
  if (code === 'invalid_compare' || /\bbody\.compare\b/.test(message)) return 'compare';
  if (code === 'invalid_share' || /\bbody\.(shares|per)\b/.test(message)) return 'shares';
  if (code === 'invalid_filter' || code === 'invalid_filter_value' || /\bbody\.filters\b/.test(message)) return 'filters';
  return 'query';
}

/** The error if it belongs at `place`, for an ErrorBox there. */
export function errorAt(error: unknown, place: ErrorPlace): unknown {
  return error !== undefined && placeOf(error) === place ? error : undefined;
}
