// What the MySQL guard assumes about the session that will read the statement, as settings the driver
// applies before every statement (src/core/warehouse/mysql.ts, startReadOnly):
// - sql_mode keeps only flags that change what a statement means (dates, grouping, division,
//   precedence…), never how its text splits into tokens. Dropped, with whatever the server's default
//   holds: NO_BACKSLASH_ESCAPES (`'it\'s'` would end at the backslash), ANSI_QUOTES ("…" would be a
//   name) and the combination modes that imply ANSI_QUOTES or change the grammar (ANSI, ORACLE,
//   MSSQL, DB2, POSTGRESQL, MAXDB…); flags a later version adds are dropped too until listed here.
// - character_set_client is utf8mb4, what the client sends: in GBK, SJIS or BIG5 a multibyte
//   character can swallow the backslash that follows it, and the string would end elsewhere.
// A statement cannot change either before it is parsed: SET, SET STATEMENT and /*+ SET_VAR */ are
// refused by the guard (and act, at most, after parsing), and the driver applies these settings again
// before the next statement.

/** sql_mode flags that do not affect how a statement is tokenized; any other flag is dropped. */
export const MEANING_ONLY_SQL_MODES = [
  'ALLOW_INVALID_DATES',
  'EMPTY_STRING_IS_NULL',
  'ERROR_FOR_DIVISION_BY_ZERO',
  'HIGH_NOT_PRECEDENCE',
  'IGNORE_BAD_TABLE_OPTIONS',
  'IGNORE_SPACE',
  'NO_AUTO_CREATE_USER',
  'NO_AUTO_VALUE_ON_ZERO',
  'NO_DIR_IN_CREATE',
  'NO_ENGINE_SUBSTITUTION',
  'NO_FIELD_OPTIONS',
  'NO_KEY_OPTIONS',
  'NO_TABLE_OPTIONS',
  'NO_UNSIGNED_SUBTRACTION',
  'NO_ZERO_DATE',
  'NO_ZERO_IN_DATE',
  'ONLY_FULL_GROUP_BY',
  'PAD_CHAR_TO_FULL_LENGTH',
  'PIPES_AS_CONCAT',
  'REAL_AS_FLOAT',
  'SIMULTANEOUS_ASSIGNMENT',
  'STRICT_ALL_TABLES',
  'STRICT_TRANS_TABLES',
  'TIME_ROUND_FRACTIONAL',
  'TIME_TRUNCATE_FRACTIONAL',
] as const;

// The session's current flags (the server's default after a connection reset), filtered to the
// list above, in one expression: no extra round trip, and the server's own choices are kept. Plain
// CASE rather than IF(): it must parse under whatever mode the session starts in (ORACLE included).
const FILTERED_SQL_MODE = `CONCAT_WS(',', ${MEANING_ONLY_SQL_MODES.map(
  (mode) => `CASE WHEN FIND_IN_SET('${mode}', @@SESSION.sql_mode) > 0 THEN '${mode}' END`,
).join(', ')})`;

/** Assignments for a `SET` statement that make the session read text as the guard does. */
export const MYSQL_LEXICAL_SESSION = `SESSION sql_mode = ${FILTERED_SQL_MODE}, SESSION character_set_client = utf8mb4`;
