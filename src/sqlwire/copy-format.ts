// One line of COPY … TO STDOUT output from a row's text values: PostgreSQL's text format (tab-separated,
// `\N` for NULL, backslash escapes) or CSV (comma-separated, quoted when needed, empty for NULL).

const TEXT_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

function textField(value: Buffer | null): string {
  if (value === null) return '\\N';
  return value.toString('utf8').replace(/[\\\t\n\r]/g, (c) => TEXT_ESCAPES[c]!);
}

function csvField(value: Buffer | null): string {
  if (value === null) return '';
  const text = value.toString('utf8');
  // Quoted when it holds the delimiter, a quote, a line break, or is empty (so it differs from NULL).
  return text === '' || /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function copyLine(values: ReadonlyArray<Buffer | null>, format: 'text' | 'csv'): Buffer {
  const line = format === 'csv' ? values.map(csvField).join(',') : values.map(textField).join('\t');
  return Buffer.from(`${line}\n`, 'utf8');
}
