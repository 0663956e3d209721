// The reading of catalog columns PostgreSQL 17 renamed (pg_database.daticulocale, now datlocale;
// pg_collation.colliculocale, now colllocale) under their new names, on the parse tree and tokens:
// what psql 15 and 16 send for \l and \dO, and what must be left alone (literals, comments, aliases,
// names the statement defines). Positions PostgreSQL gives in the rewritten text point into the
// client's. The text only: the mirror's answers to these are tested in catalog-mirror.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSqlParser } from '../../src/core/sqlapi/pg-ast.js';
import { CatalogFacts } from '../../src/sqlwire/catalog/catalog-facts.js';
import { analyzeStatement } from '../../src/sqlwire/catalog/statement-analysis.js';
import * as Q from './catalog-client-queries.js';

// No function or view is looked at here: only the text the statement is run as.
const facts = new CatalogFacts(JSON.stringify({ functions: {}, views: [] }));
const rewritten = (sql: string) => analyzeStatement(sql, facts).text;

beforeAll(() => loadSqlParser());

describe('psql 15 and 16', () => {
  it('\\l reads daticulocale as datlocale, and nothing else changes', () => {
    expect(rewritten(Q.PSQL15_L)).toBe(Q.PSQL15_L.replace('d.daticulocale as "ICU Locale"', 'd.datlocale as "ICU Locale"'));
    expect(rewritten(Q.PSQL16_L)).toBe(Q.PSQL16_L.replace('d.daticulocale as "ICU Locale"', 'd.datlocale as "ICU Locale"'));
  });

  it('\\dO reads colliculocale as colllocale', () => {
    expect(rewritten(Q.PSQL15_DO)).toBe(Q.PSQL15_DO.replace('c.colliculocale AS "ICU Locale"', 'c.colllocale AS "ICU Locale"'));
  });

  it('leaves the statements of psql 17 and 18, and the other clients\', as they are', () => {
    for (const sql of [Q.PSQL18_L, Q.PSQL_DT, Q.PSQL_DN, Q.PSQL_D_ORDERS_LOOKUP, ...Q.PSQL_D_TABLE, Q.JDBC_GET_TABLES]) expect(rewritten(sql)).toBe(sql);
  });
});

describe('column references only', () => {
  it('a result column that is the bare reference keeps the old name as its name', () => {
    expect(rewritten('SELECT daticulocale FROM pg_catalog.pg_database')).toBe('SELECT datlocale AS daticulocale FROM pg_catalog.pg_database');
    expect(rewritten('SELECT d."daticulocale", 1 FROM pg_catalog.pg_database d')).toBe('SELECT d.datlocale AS daticulocale, 1 FROM pg_catalog.pg_database d');
    expect(rewritten('SELECT pg_catalog.pg_database.daticulocale FROM pg_catalog.pg_database')).toBe('SELECT pg_catalog.pg_database.datlocale AS daticulocale FROM pg_catalog.pg_database');
  });

  it('a reference written across a comment is renamed too; other names are not', () => {
    expect(rewritten('SELECT d. /* the locale */ daticulocale AS l FROM pg_catalog.pg_database d')).toBe('SELECT d. /* the locale */ datlocale AS l FROM pg_catalog.pg_database d');
    expect(rewritten('SELECT constructor, toString FROM pg_catalog.pg_database')).toBe('SELECT constructor, toString FROM pg_catalog.pg_database');
  });

  it('references elsewhere (WHERE, ORDER BY, inside an expression) are renamed alone', () => {
    expect(rewritten("SELECT datname FROM pg_catalog.pg_database WHERE DATICULOCALE IS NULL ORDER BY coalesce(daticulocale, '')")).toBe(
      "SELECT datname FROM pg_catalog.pg_database WHERE datlocale IS NULL ORDER BY coalesce(datlocale, '')",
    );
  });

  it('leaves string literals, comments, aliases and differently spelt quoted names alone', () => {
    for (const sql of [
      "SELECT 'd.daticulocale', $$daticulocale$$ FROM pg_catalog.pg_database",
      'SELECT datname /* daticulocale */ -- daticulocale\nFROM pg_catalog.pg_database',
      'SELECT datlocale AS daticulocale FROM pg_catalog.pg_database',
      'SELECT "DatIcuLocale" FROM pg_catalog.pg_database',
    ]) {
      expect(rewritten(sql)).toBe(sql);
    }
  });

  it('leaves references to a column the statement itself names so', () => {
    for (const sql of [
      'SELECT s.daticulocale FROM (SELECT datlocale AS daticulocale FROM pg_catalog.pg_database) s',
      'SELECT daticulocale FROM (SELECT datlocale FROM pg_catalog.pg_database) s (daticulocale)',
      'WITH s (daticulocale) AS (SELECT datlocale FROM pg_catalog.pg_database) SELECT daticulocale FROM s',
    ]) {
      expect(rewritten(sql)).toBe(sql);
    }
  });
});

describe('positions', () => {
  it('a position after a rename, in characters, is moved back to the client\'s text', () => {
    const sql = "SELECT 'é', d.daticulocale, d.nosuch FROM pg_catalog.pg_database d";
    const analysis = analyzeStatement(sql, facts);
    // 'é' is one character (and one UTF-16 unit, so indexOf counts as PostgreSQL does) but two bytes.
    const inRewritten = analysis.text.indexOf('d.nosuch') + 1;
    expect(inRewritten).not.toBe(sql.indexOf('d.nosuch') + 1);
    expect(analysis.originalPosition(inRewritten)).toBe(sql.indexOf('d.nosuch') + 1);
    // Before the rename, unchanged; inside it, the start of the renamed name.
    expect(analysis.originalPosition(8)).toBe(8);
    const renamedAt = analysis.text.indexOf('datlocale') + 1;
    expect(analysis.originalPosition(renamedAt + 3)).toBe(sql.indexOf('daticulocale') + 1);
  });
});
