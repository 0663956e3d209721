// The form for one warehouse connection: settings per engine, and a password that is write-only: the
// field always starts empty (the server never returns one), blank on edit keeps the saved one.
import { useState } from 'preact/hooks';
import { Checkbox, SelectField, TextField } from '../components/field';

export type Engine = 'duckdb' | 'postgres' | 'mysql' | 'snowflake';
export interface Connection {
  id: string;
  name: string;
  engine: Engine;
  settings: Record<string, unknown>;
  has_password: boolean;
}

// rollup_schema: a schema of this warehouse that stores its nodes' rollups instead of the service's file.
// The label shares no word with the other fields' (tests and screen readers find fields by label).
const ROLLUP_SCHEMA_LABEL = 'Store rollups in (optional)';

const FIELDS: Record<Engine, Array<{ key: string; label: string; required?: boolean; number?: boolean }>> = {
  duckdb: [{ key: 'path', label: "File path (relative to the workspace's directory)", required: true }],
  postgres: [
    { key: 'host', label: 'Host', required: true },
    { key: 'port', label: 'Port', number: true },
    { key: 'database', label: 'Database', required: true },
    { key: 'user', label: 'User', required: true },
    { key: 'rollup_schema', label: ROLLUP_SCHEMA_LABEL },
  ],
  mysql: [
    { key: 'host', label: 'Host', required: true },
    { key: 'port', label: 'Port', number: true },
    { key: 'database', label: 'Database', required: true },
    { key: 'user', label: 'User', required: true },
  ],
  snowflake: [
    { key: 'account', label: 'Account (e.g. myorg-myaccount)', required: true },
    { key: 'username', label: 'Username', required: true },
    { key: 'warehouse', label: 'Warehouse' },
    { key: 'database', label: 'Database' },
    { key: 'schema', label: 'Schema' },
    { key: 'role', label: 'Role' },
    { key: 'rollup_schema', label: ROLLUP_SCHEMA_LABEL },
  ],
};

export interface ConnectionDraft {
  name: string;
  engine: Engine;
  settings: Record<string, unknown>;
  /** undefined keeps the saved password, null removes it. */
  password: string | null | undefined;
}

export function ConnectionForm({ editing, onSubmit, onCancel }: { editing?: Connection; onSubmit: (draft: ConnectionDraft) => void; onCancel?: () => void }) {
  const [name, setName] = useState(editing?.name ?? '');
  const [engine, setEngine] = useState<Engine>(editing?.engine ?? 'duckdb');
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(Object.entries(editing?.settings ?? {}).filter(([k]) => k !== 'ssl').map(([k, v]) => [k, String(v)])),
  );
  const [ssl, setSsl] = useState(editing?.settings.ssl === true);
  const [password, setPassword] = useState('');
  const [removePassword, setRemovePassword] = useState(false);

  const submit = (event: Event) => {
    event.preventDefault();
    const settings: Record<string, unknown> = {};
    for (const field of FIELDS[engine]) {
      const value = values[field.key]?.trim();
      if (value) settings[field.key] = field.number ? Number(value) : value;
    }
    if ((engine === 'postgres' || engine === 'mysql') && ssl) settings.ssl = true;
    onSubmit({ name, engine, settings, password: removePassword ? null : password ? password : undefined });
  };

  return (
    <form onSubmit={submit} class="form-grid" aria-label={editing ? `Edit ${editing.name}` : 'New connection'}>
      <TextField label="Connection name" value={name} onInput={setName} required />
      {editing ? (
        <p>Engine: <strong>{engine}</strong></p>
      ) : (
        <SelectField label="Engine" value={engine} options={['duckdb', 'postgres', 'mysql', 'snowflake']} onChange={(v) => setEngine(v as Engine)} />
      )}
      {FIELDS[engine].map((field) => (
        <TextField key={`${engine}.${field.key}`} label={field.label} type={field.number ? 'number' : 'text'} value={values[field.key] ?? ''}
          required={field.required} onInput={(v) => setValues({ ...values, [field.key]: v })} />
      ))}
      {engine === 'postgres' || engine === 'mysql' ? <Checkbox label="Use TLS (ssl)" checked={ssl} onChange={setSsl} /> : null}
      {engine !== 'duckdb' ? (
        <TextField label="Password" type="password" value={password} onInput={setPassword} autoComplete="new-password"
          hint={editing?.has_password ? 'A password is saved; leave blank to keep it. It is never shown.' : 'Stored sealed; never shown again.'} />
      ) : null}
      {editing?.has_password ? <Checkbox label="Remove the saved password" checked={removePassword} onChange={setRemovePassword} /> : null}
      <div class="row">
        <button type="submit">{editing ? 'Save connection' : 'Create connection'}</button>
        {onCancel ? <button type="button" onClick={onCancel}>Cancel</button> : null}
      </div>
    </form>
  );
}
