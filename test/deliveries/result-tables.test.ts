// The tables a scheduled delivery carries: CSV per RFC 4180 (quoted commas, quotes and line breaks,
// CRLF), the plain-text table of a chat message (bounded, with the rows left counted), and the chat body
// of any other event.
import { describe, expect, it } from 'vitest';
import { chatBody } from '../../src/events/chat-text.js';
import { MAX_DELIVERY_ROWS, tableOf, textTable, toCsv } from '../../src/deliveries/result-tables.js';

describe('delivery tables', () => {
  it('writes CSV with quoted fields where a comma, quote or line break needs it, and empty nulls', () => {
    const csv = toCsv(['name', 'note', 'n'], [{ name: 'Acme, Inc.', note: 'says "hi"\nthen leaves', n: 3 }, { name: 'Plain', note: null, n: 0.5 }]);
    expect(csv).toBe('name,note,n\r\n"Acme, Inc.","says ""hi""\nthen leaves",3\r\nPlain,,0.5\r\n');
  });

  it('bounds the rows a delivery carries and says it was cut', () => {
    const rows = Array.from({ length: MAX_DELIVERY_ROWS + 5 }, (_, i) => ({ i }));
    const table = tableOf('Many', null, ['i'], rows, false);
    expect(table.rows).toHaveLength(MAX_DELIVERY_ROWS);
    expect(table.truncated).toBe(true);
  });

  it('renders a padded text table, at most 20 rows, then counts the rest', () => {
    const rows = Array.from({ length: 23 }, (_, i) => ({ region: i === 0 ? 'EMEA' : `R${i}`, orders: i }));
    const lines = textTable(['region', 'orders'], rows).split('\n');
    expect(lines[0]).toBe('region | orders');
    expect(lines[1]).toBe('-------+-------');
    expect(lines[2]).toBe('EMEA   | 0');
    expect(lines).toHaveLength(2 + 20 + 1);
    expect(lines.at(-1)).toBe('… 3 more rows');
  });

  it('gives a chat endpoint any other event as one line of text', () => {
    const body = JSON.parse(chatBody({ event: 'model.deployed', changed_nodes: ['orders'], event_id: 'e1' }));
    expect(body).toEqual({ text: 'model.deployed: {"changed_nodes":["orders"],"event_id":"e1"}' });
  });
});
