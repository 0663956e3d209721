// Whole numbers on MySQL and MariaDB without a recursive CTE (MariaDB stops one after
// max_recursive_iterations, 1,000 by default, and the read-only editor cannot raise it): digit tables
// crossed, as a subquery of one column `n`, from 1 to 10^places.
export function mysqlNumbers(places: number): string {
  const digits = `(SELECT 0 AS d ${Array.from({ length: 9 }, (_, i) => `UNION ALL SELECT ${i + 1}`).join(' ')})`;
  const aliases = Array.from({ length: places }, (_, i) => `p${i}`);
  const sum = aliases.map((alias, i) => (i === 0 ? `${alias}.d` : `${10 ** i} * ${alias}.d`)).join(' + ');
  return `SELECT 1 + ${sum} AS n FROM ${aliases.map((alias) => `${digits} AS ${alias}`).join(' CROSS JOIN ')}`;
}
