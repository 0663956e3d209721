// A connection's settings, for the one statement it sends to a shared mirror. Clients SET search_path,
// DateStyle, extra_float_digits… on their connection (the session layer keeps them); a catalog query
// reads them (pg_table_is_visible follows search_path, dates print in DateStyle, floats with
// extra_float_digits), so they are set for the statement's transaction alone (SET LOCAL), as the
// mirror's role: PostgreSQL refuses what that role may not set, as it would for the client.
import { CatalogError } from './catalog-error.js';
import { quoteIdentifier } from './mirror-schema.js';

/**
 * Settings whose value is a list of identifiers (GUC_LIST_QUOTE): SET takes their elements one by one,
 * where one string would be one element. Their values are read as PostgreSQL reads them
 * (SplitIdentifierString): separated by commas, quoted or folded to lower case.
 */
const IDENTIFIER_LISTS = new Set(['search_path', 'temp_tablespaces', 'local_preload_libraries', 'session_preload_libraries']);

/**
 * Not set here: the answer's bytes are read as UTF-8 whatever the client's encoding (converting them is
 * the connection's business), and the session's identity is the mirror's own: the mirror's role may
 * take back the superuser identity its session was opened with (mirror-setup.ts), which would then hold
 * for the client's statement.
 */
const CLIENT_ENCODING = 'client_encoding';
const IDENTITY_SETTINGS = new Set(['session_authorization', 'role', 'is_superuser']);

/** An E'' literal: the same string whatever standard_conforming_strings an earlier setting chose. */
function escapedLiteral(text: string): string {
  return `E'${text.replaceAll('\0', '').replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}

function foldUnquoted(name: string): string {
  return name.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/** The elements of an identifier list as current_setting() shows one (`"$user", public`). */
function identifierList(value: string): string[] {
  const elements: string[] = [];
  let rest = value.trim();
  if (!rest) return elements;
  for (;;) {
    const quoted = /^"((?:[^"]|"")*)"/.exec(rest);
    const unquoted = quoted ? undefined : /^[^,"]*/.exec(rest)![0];
    if (quoted) elements.push(quoted[1]!.replaceAll('""', '"'));
    else elements.push(foldUnquoted(unquoted!.trim()));
    rest = rest.slice(quoted ? quoted[0].length : unquoted!.length).trimStart();
    if (!rest) return elements;
    if (!rest.startsWith(',')) throw new CatalogError('22023', `invalid list syntax: ${value}`);
    rest = rest.slice(1).trimStart();
  }
}

/** `SET LOCAL` statements for the settings (name → value as SHOW shows it), `;`-separated. */
export function settingsSql(settings: Readonly<Record<string, string>>): string {
  const statements: string[] = [];
  for (const [name, value] of Object.entries(settings)) {
    const key = name.toLowerCase();
    if (key === CLIENT_ENCODING) continue;
    if (IDENTITY_SETTINGS.has(key)) throw new CatalogError('42501', `permission denied to set parameter "${name}"`);
    const to = IDENTIFIER_LISTS.has(key) ? identifierList(value).map(quoteIdentifier).join(', ') || "''" : escapedLiteral(value);
    statements.push(`SET LOCAL ${quoteIdentifier(key)} TO ${to}`);
  }
  return statements.join('; ');
}
