// The SQL editor's "Download CSV": the statement is sent to POST /api/studio/query/csv (a POST, so the
// SQL stays out of URLs and logs) and the answer saved as the file the server names. The server streams
// the rows and says their count and whether its cap cut them in HTTP trailers, which fetch cannot read:
// the page counts the file's records itself, and a file holding as many rows as the cap (X-Row-Limit)
// may have been cut. A transfer the server cut (the run failed on the way) fails blob() and saves nothing.
import { ApiError } from '../api';

export interface CsvDownload {
  fileName: string;
  rows: number;
  /** The export's row cap; `rows` reaching it means the result may hold more. */
  limit: number;
  truncated: boolean;
}

/** Records after the header line: CRLFs outside quoted fields (a quoted field may hold line breaks). */
export function csvRecords(text: string): number {
  let lines = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) quoted = !quoted;
    else if (c === 10 && !quoted && text.charCodeAt(i - 1) === 13) lines++;
  }
  return Math.max(0, lines - 1);
}

export async function downloadCsv(body: { connection: string; sql: string }): Promise<CsvDownload> {
  let response: Response;
  try {
    response = await fetch('/api/studio/query/csv', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { accept: 'text/csv, application/json', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, { error: 'The server does not answer: check that it is running', code: 'network' });
  }
  if (!response.ok) {
    const parsed = (await response.json().catch(() => undefined)) as ApiError['body'] | undefined;
    if (response.status === 401) window.dispatchEvent(new CustomEvent('session-ended'));
    throw new ApiError(response.status, parsed && typeof parsed.error === 'string' ? parsed : { error: `${response.status} ${response.statusText}` });
  }
  const fileName = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'result.csv';
  let blob: Blob;
  try {
    blob = await response.blob();
  } catch {
    throw new ApiError(0, { error: 'The export stopped before the file was whole (the query failed or the connection broke): nothing was saved', code: 'network' });
  }
  const rows = csvRecords(await blob.text());
  const limit = Number(response.headers.get('x-row-limit') ?? 0);
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has started the download from the object URL by now; a later revoke frees the blob.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return { fileName, rows, limit, truncated: limit > 0 && rows >= limit };
}
