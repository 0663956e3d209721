// Statements that write or define, named as PostgreSQL's command tags name them, for the refusal a
// read-only transaction gives: `cannot execute INSERT in a read-only transaction` (25006).
import type { Node, ObjectType } from 'libpg-query';
import { kindOf, nodeAs, type NodeKind } from './pg-ast.js';
import { READ_ONLY_HINT, READ_ONLY_SQL_TRANSACTION, SqlStateError } from './sql-state-error.js';

/** `OBJECT_MATVIEW` → `MATERIALIZED VIEW`, `OBJECT_FOREIGN_TABLE` → `FOREIGN TABLE`. */
function objectName(type: ObjectType | undefined): string {
  if (type === undefined) return 'TABLE';
  if (type === 'OBJECT_MATVIEW') return 'MATERIALIZED VIEW';
  return type.replace(/^OBJECT_/, '').replaceAll('_', ' ');
}

type Tag = string | ((stmt: Node) => string);

const WRITE_TAGS: Partial<Record<NodeKind, Tag>> = {
  InsertStmt: 'INSERT',
  UpdateStmt: 'UPDATE',
  DeleteStmt: 'DELETE',
  MergeStmt: 'MERGE',
  CreateStmt: 'CREATE TABLE',
  CreateTableAsStmt: (s) => {
    const create = nodeAs(s, 'CreateTableAsStmt')!;
    if (create.objtype === 'OBJECT_MATVIEW') return 'CREATE MATERIALIZED VIEW';
    return create.is_select_into ? 'SELECT INTO' : 'CREATE TABLE AS';
  },
  ViewStmt: 'CREATE VIEW',
  IndexStmt: 'CREATE INDEX',
  CreateSchemaStmt: 'CREATE SCHEMA',
  CreateSeqStmt: 'CREATE SEQUENCE',
  AlterSeqStmt: 'ALTER SEQUENCE',
  CreateFunctionStmt: (s) => (nodeAs(s, 'CreateFunctionStmt')!.is_procedure ? 'CREATE PROCEDURE' : 'CREATE FUNCTION'),
  AlterFunctionStmt: 'ALTER FUNCTION',
  AlterTableStmt: (s) => `ALTER ${objectName(nodeAs(s, 'AlterTableStmt')!.objtype)}`,
  RenameStmt: (s) => `ALTER ${objectName(nodeAs(s, 'RenameStmt')!.renameType)}`,
  AlterObjectSchemaStmt: (s) => `ALTER ${objectName(nodeAs(s, 'AlterObjectSchemaStmt')!.objectType)}`,
  AlterOwnerStmt: (s) => `ALTER ${objectName(nodeAs(s, 'AlterOwnerStmt')!.objectType)}`,
  DropStmt: (s) => `DROP ${objectName(nodeAs(s, 'DropStmt')!.removeType)}`,
  TruncateStmt: 'TRUNCATE TABLE',
  GrantStmt: (s) => (nodeAs(s, 'GrantStmt')!.is_grant ? 'GRANT' : 'REVOKE'),
  GrantRoleStmt: (s) => (nodeAs(s, 'GrantRoleStmt')!.is_grant ? 'GRANT ROLE' : 'REVOKE ROLE'),
  AlterDefaultPrivilegesStmt: 'ALTER DEFAULT PRIVILEGES',
  CreateRoleStmt: 'CREATE ROLE',
  AlterRoleStmt: 'ALTER ROLE',
  AlterRoleSetStmt: 'ALTER ROLE',
  DropRoleStmt: 'DROP ROLE',
  ReassignOwnedStmt: 'REASSIGN OWNED',
  DropOwnedStmt: 'DROP OWNED',
  CreatedbStmt: 'CREATE DATABASE',
  AlterDatabaseStmt: 'ALTER DATABASE',
  AlterDatabaseSetStmt: 'ALTER DATABASE',
  DropdbStmt: 'DROP DATABASE',
  CreateExtensionStmt: 'CREATE EXTENSION',
  AlterExtensionStmt: 'ALTER EXTENSION',
  CommentStmt: 'COMMENT',
  SecLabelStmt: 'SECURITY LABEL',
  CreateTrigStmt: 'CREATE TRIGGER',
  CreateEventTrigStmt: 'CREATE EVENT TRIGGER',
  RuleStmt: 'CREATE RULE',
  CreatePolicyStmt: 'CREATE POLICY',
  AlterPolicyStmt: 'ALTER POLICY',
  CompositeTypeStmt: 'CREATE TYPE',
  CreateEnumStmt: 'CREATE TYPE',
  CreateRangeStmt: 'CREATE TYPE',
  AlterEnumStmt: 'ALTER TYPE',
  CreateDomainStmt: 'CREATE DOMAIN',
  AlterDomainStmt: 'ALTER DOMAIN',
  DefineStmt: (s) => `CREATE ${objectName(nodeAs(s, 'DefineStmt')!.kind)}`,
  CreateCastStmt: 'CREATE CAST',
  CreateConversionStmt: 'CREATE CONVERSION',
  CreateStatsStmt: 'CREATE STATISTICS',
  CreateTableSpaceStmt: 'CREATE TABLESPACE',
  DropTableSpaceStmt: 'DROP TABLESPACE',
  CreateForeignTableStmt: 'CREATE FOREIGN TABLE',
  CreateForeignServerStmt: 'CREATE SERVER',
  CreateFdwStmt: 'CREATE FOREIGN DATA WRAPPER',
  CreateUserMappingStmt: 'CREATE USER MAPPING',
  ImportForeignSchemaStmt: 'IMPORT FOREIGN SCHEMA',
  CreatePublicationStmt: 'CREATE PUBLICATION',
  CreateSubscriptionStmt: 'CREATE SUBSCRIPTION',
  AlterSystemStmt: 'ALTER SYSTEM',
  CallStmt: 'CALL',
  DoStmt: 'DO',
  VacuumStmt: (s) => (nodeAs(s, 'VacuumStmt')!.is_vacuumcmd ? 'VACUUM' : 'ANALYZE'),
  RefreshMatViewStmt: 'REFRESH MATERIALIZED VIEW',
  ClusterStmt: 'CLUSTER',
  ReindexStmt: 'REINDEX',
  CopyStmt: 'COPY FROM',
};

/** The command tag of a statement that writes or defines, or undefined for any other statement. */
export function writeCommandOf(stmt: Node): string | undefined {
  const tag = WRITE_TAGS[kindOf(stmt)];
  return typeof tag === 'function' ? tag(stmt) : tag;
}

export function refuseWrite(command: string): never {
  throw new SqlStateError(READ_ONLY_SQL_TRANSACTION, `cannot execute ${command} in a read-only transaction`, READ_ONLY_HINT);
}
