// The editor's row cap, shared by its run and its CSV export (kept apart so both files import it).

/** Rows the editor receives at most per run (and a CSV export holds); the rest is reported as truncated. */
export const STUDIO_MAX_ROWS = 10_000;
