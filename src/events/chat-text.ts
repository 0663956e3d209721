// The body a chat webhook (Slack's or Teams' incoming webhooks, or anything that takes {"text": …})
// receives: the event as plain text. A scheduled delivery becomes its tables in monospace blocks and a
// link back to the console; any other event a line naming it and its fields.
import { textTable, type DeliveredTable } from '../deliveries/result-tables.js';

function deliveryText(payload: Record<string, unknown>): string {
  const target = payload.target as { kind: string; name: string; console_url: string };
  const tables = (payload.results as DeliveredTable[]) ?? [];
  const parts = [`${String(payload.schedule_name)}: ${target.kind} "${target.name}"`];
  for (const table of tables) {
    if (tables.length > 1 || target.kind === 'mosaic') parts.push(table.title);
    parts.push(table.error ? `(not delivered: ${table.error})` : `\`\`\`\n${textTable(table.columns, table.rows)}\n\`\`\``);
  }
  parts.push(`Open in the console: ${target.console_url}`);
  return parts.join('\n');
}

export function chatBody(payload: Record<string, unknown>): string {
  if (payload.event === 'delivery.scheduled') return JSON.stringify({ text: deliveryText(payload) });
  const { event, ...fields } = payload;
  return JSON.stringify({ text: `${String(event)}: ${JSON.stringify(fields)}` });
}
