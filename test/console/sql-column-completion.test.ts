// Completion of bare column names in the SQL editor: the tables a statement names, and their columns.
import { describe, expect, it } from 'vitest';
import { columnOptions, tablesNamed } from '../../web/src/pages/sql-column-completion.js';

const tables = [
  { schema: 'shop', name: 'orders', columns: [{ name: 'id', type: 'INTEGER' }, { name: 'status', type: 'VARCHAR' }, { name: 'customer_id', type: 'INTEGER' }] },
  { schema: 'shop', name: 'customers', columns: [{ name: 'id', type: 'INTEGER' }, { name: 'region', type: 'VARCHAR' }] },
  { schema: 'other', name: 'events', columns: [{ name: 'kind', type: 'VARCHAR' }] },
];

describe('tablesNamed', () => {
  it('reads FROM and JOIN, FROM lists, aliases with and without AS, quoted names', () => {
    expect(tablesNamed('SELECT  FROM shop.orders o JOIN shop.customers AS c ON c.id = o.customer_id')).toEqual(['shop.orders', 'shop.customers']);
    expect(tablesNamed('select * from orders, "customers" c, other.events where 1=1')).toEqual(['orders', 'customers', 'other.events']);
    expect(tablesNamed('SELECT s FROM orders WHERE x IN (SELECT 1 FROM customers)')).toEqual(['orders', 'customers']);
    expect(tablesNamed('SELECT 1')).toEqual([]);
    expect(tablesNamed('SELECT * FROM orders LEFT JOIN customers USING (id)')).toEqual(['orders', 'customers']);
  });
});

describe('columnOptions', () => {
  it('offers the columns of the tables named, once each, saying whose they are', () => {
    const options = columnOptions('SELECT  FROM shop.orders o JOIN customers c ON true', tables);
    expect(options.map((o) => o.label)).toEqual(['id', 'status', 'customer_id', 'region']);
    expect(options[0]!.detail).toBe('integer · orders, customers');
    expect(columnOptions('SELECT  FROM SHOP.Orders', tables).map((o) => o.label)).toEqual(['id', 'status', 'customer_id']);
    expect(columnOptions('SELECT  FROM other.orders', tables)).toEqual([]);
    expect(columnOptions('SELECT 1', tables)).toEqual([]);
  });
});
