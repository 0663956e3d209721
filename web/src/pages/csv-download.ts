// The SQL editor's "Download CSV": the statement is sent to POST /api/studio/query/csv (a POST, so the
// SQL stays out of URLs and logs) and the answer saved as the file the server names. The server says in
// headers whether its row cap cut the result, which the page then shows.
import { ApiError } from '../api';

export interface CsvDownload {
  fileName: string;
  rows: number;
  truncated: boolean;
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
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has started the download from the object URL by now; a later revoke frees the blob.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return { fileName, rows: Number(response.headers.get('x-row-count') ?? 0), truncated: response.headers.get('x-result-truncated') === 'true' };
}
