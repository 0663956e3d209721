// Exact text forms for the loaders. Money travels as integer cents and is only turned into a decimal
// string at the edge, so no float ever rounds a sum; timestamps are UTC wall-clock time without a zone.

/** 123456 → "1234.56", -5 → "-0.05". */
export function formatCents(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`cents must be a safe integer, got ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const fraction = abs % 100;
  return `${sign}${(abs - fraction) / 100}.${fraction < 10 ? '0' : ''}${fraction}`;
}

/** Epoch milliseconds → "YYYY-MM-DD HH:mm:ss.SSS" in UTC, the form every engine reads as a zone-less timestamp. */
export function formatUtcTimestamp(epochMs: number): string {
  const iso = new Date(epochMs).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}`;
}
