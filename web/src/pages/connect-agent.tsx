// Connect an agent: pick what the agent may do (the MCP tools follow from the key's scopes), create the
// structured key, and copy a configuration that works as shown: one for desktop clients that start
// `svc mcp` (stdio), one for clients that speak HTTP to /mcp. The key is shown once and kept nowhere.
import { useState } from 'preact/hooks';
import { post } from '../api';
import { ErrorBox } from '../components/feedback';
import { Checkbox, Section, TextField } from '../components/field';
import { atLeast, type Me } from '../session';

/** The scopes an agent uses, each with the tools it opens. */
const AGENT_SCOPES = [
  { scope: 'models:read', tools: 'read the catalog: reveals, metrics, nodes, fields, values' },
  { scope: 'query', tools: 'query nodes and explain queries' },
  { scope: 'content:read', tools: 'list and run saved scenes' },
  { scope: 'ask', tools: 'ask questions in plain language (100 per hour)' },
  { scope: 'sql', tools: 'run read-only SQL, not filtered by data keys (tracer and above)' },
] as const;

export function agentConfigs(origin: string, key: string): { stdio: string; http: string } {
  const url = `${origin}/mcp`;
  const stdio = { mcpServers: { analytics: { command: 'npx', args: ['svc', 'mcp'], env: { SVC_MCP_URL: url, SVC_API_KEY: key } } } };
  const http = { mcpServers: { analytics: { type: 'http', url, headers: { Authorization: `Bearer ${key}` } } } };
  return { stdio: JSON.stringify(stdio, null, 2), http: JSON.stringify(http, null, 2) };
}

function CopyBlock({ label, text }: { label: string; text: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div>
      <pre aria-label={label}><code>{text}</code></pre>
      <button type="button" onClick={() => navigator.clipboard.writeText(text).then(() => setCopied(true), () => setCopied(false))}>
        {copied ? 'Copied' : `Copy ${label.toLowerCase()}`}
      </button>
    </div>
  );
}

export function ConnectAgentPage({ me }: { me: Me }) {
  const offered = AGENT_SCOPES.filter((s) => s.scope !== 'sql' || atLeast(me, 'tracer'));
  const [name, setName] = useState('Agent');
  const [scopes, setScopes] = useState<string[]>(['models:read', 'query', 'content:read']);
  const [key, setKey] = useState<string>();
  const [error, setError] = useState<unknown>();

  const create = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    try {
      const answer = await post<{ value: string }>('/api/keys', { name, surface: 'structured', scopes });
      setKey(answer.value);
    } catch (e) {
      setError(e);
    }
  };

  const configuration = (shown: string) => {
    const configs = agentConfigs(location.origin, shown);
    return (
      <section class="panel created" aria-label="Agent configuration">
        <h2>Your agent's configuration</h2>
        <p>It holds the new key, shown only this once: copy it now. The key acts as you, with your data keys.</p>
        <h3>Desktop clients (stdio)</h3>
        <CopyBlock label="Stdio configuration" text={configs.stdio} />
        <h3>HTTP clients</h3>
        <CopyBlock label="HTTP configuration" text={configs.http} />
        <button type="button" onClick={() => setKey(undefined)}>Done, hide the key</button>
      </section>
    );
  };

  return (
    <div>
      <h1>Connect an agent</h1>
      {key ? (
        configuration(key)
      ) : (
        <Section title="A key for the agent">
          <p>An agent (Claude Desktop, an IDE, your own) reaches this workspace through the MCP server at <code>/mcp</code> with a key of its own. Choose what it may do.</p>
          <form onSubmit={create}>
            <TextField label="Key name" value={name} onInput={setName} required />
            <fieldset>
              <legend>What the agent may do</legend>
              {offered.map(({ scope, tools }) => (
                <Checkbox key={scope} label={`${scope}: ${tools}`} checked={scopes.includes(scope)}
                  onChange={(on) => setScopes(on ? [...scopes, scope] : scopes.filter((s) => s !== scope))} />
              ))}
            </fieldset>
            <div><button type="submit">Create key and configuration</button></div>
          </form>
          <ErrorBox error={error} />
        </Section>
      )}
    </div>
  );
}
