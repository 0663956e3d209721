// Reading a role's privileges from what the engines report, offline: MySQL/MariaDB's SHOW GRANTS lines
// (their password hash never taken), and Snowflake's SHOW GRANTS rows against golden expectations
// (there is no Snowflake account to test against live).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mysqlPrivileges, parseGrantLine } from '../../src/core/warehouse/mysql-privileges.js';
import { snowflakeGrantsSql, snowflakePrivileges } from '../../src/core/warehouse/snowflake-privileges.js';
import type { WarehouseRow } from '../../src/core/warehouse/types.js';

describe('MySQL/MariaDB grant lines', () => {
  it('take privileges and objects, with column lists, and nothing else', () => {
    expect(parseGrantLine("GRANT USAGE ON *.* TO `u`@`%` IDENTIFIED BY PASSWORD '*2B602296A79E0A8784ACC5C88D92E46588CCA3C3'")).toEqual([
      { privilege: 'USAGE', object: '*.*' },
    ]);
    expect(parseGrantLine('GRANT SELECT, INSERT, UPDATE (`a`, `b`) ON `shop`.`orders` TO `u`@`%`')).toEqual([
      { privilege: 'SELECT', object: 'shop.orders' },
      { privilege: 'INSERT', object: 'shop.orders' },
      { privilege: 'UPDATE', object: 'shop.orders(a, b)' },
    ]);
    expect(parseGrantLine('GRANT EXECUTE ON PROCEDURE `shop`.`refresh` TO `u`@`%`')).toEqual([{ privilege: 'EXECUTE', object: 'shop.refresh' }]);
    expect(parseGrantLine('GRANT `writer` TO `u`@`%`')).toEqual([]);
    expect(parseGrantLine('SET DEFAULT ROLE `writer` FOR `u`@`%`')).toEqual([]);
  });

  it('read ALL PRIVILEGES at its level, and never show the password hash', () => {
    const hash = '*81F5E21E35407D884A6CD4A731AEBFB6AF209E1B';
    const root = mysqlPrivileges([], [`GRANT ALL PRIVILEGES ON *.* TO \`root\`@\`localhost\` IDENTIFIED BY PASSWORD '${hash}' WITH GRANT OPTION`]);
    expect(root).toMatchObject({ superuser: true, canWrite: true, readsCredentials: true, readsServerFiles: true });
    expect(JSON.stringify(root)).not.toContain(hash);
    const owner = mysqlPrivileges([], ['GRANT ALL PRIVILEGES ON `shop`.* TO `owner`@`%`']);
    expect(owner).toMatchObject({ superuser: false, canWrite: true, readsCredentials: false, readsServerFiles: false });
    const credentials = mysqlPrivileges([{ privilege: 'SELECT', object: 'mysql.global_priv' }], []);
    expect(credentials).toMatchObject({ readsCredentials: true, canWrite: false, evidence: { readsCredentials: ['SELECT on mysql.global_priv'] } });
  });
});

describe('Snowflake SHOW GRANTS', () => {
  const cases = JSON.parse(readFileSync(new URL('./golden/snowflake-grants.json', import.meta.url), 'utf8')) as Array<{
    case: string;
    role: string;
    grants: WarehouseRow[];
    expected: unknown;
  }>;

  it.each(cases.map((c) => [c.case, c] as const))('%s', (_, golden) => {
    expect(snowflakePrivileges(golden.role, golden.grants)).toEqual(golden.expected);
  });

  it('quotes the role as an identifier', () => {
    expect(snowflakeGrantsSql('ANALYTICS_RO')).toBe('SHOW GRANTS TO ROLE "ANALYTICS_RO"');
    expect(snowflakeGrantsSql('odd"role')).toBe('SHOW GRANTS TO ROLE "odd""role"');
  });
});
