// The consent page an application's authorization request leads to (/oauth/consent?…, from GET
// /oauth/authorize): which application asks, where it will receive the answer, and the scopes the
// member's role may grant, ticked as the application asked. Approve or deny goes to the server as the
// console's other writes do (same-origin JSON), which answers where the browser goes next.
import { useState } from 'preact/hooks';
import { get, post } from '../api';
import { ErrorBox, Loading } from '../components/feedback';
import { Checkbox } from '../components/field';
import { useAction, useLoad } from '../components/use-load';
import type { Me } from '../session';

interface Consent {
  client_name: string;
  redirect_host: string;
  resource: string;
  scopes: Array<{ name: string; proposed: boolean }>;
}

/** The authorization request as the authorization endpoint passed it on. */
function requestOfPage(): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(location.search));
}

export function OauthConsentPage({ me }: { me: Me }) {
  const request = requestOfPage();
  const consent = useLoad(() => get<Consent>(`/api/oauth/consent${location.search}`));
  const [chosen, setChosen] = useState<string[] | undefined>(undefined);
  const action = useAction();
  const data = consent.data;
  const scopes = chosen ?? data?.scopes.filter((s) => s.proposed).map((s) => s.name) ?? [];

  const answer = (approve: boolean) =>
    action.run(async () => {
      const { redirect_to } = await post<{ redirect_to: string }>('/api/oauth/consent', { request, approve, scopes: approve ? scopes : [] });
      location.assign(redirect_to);
    });

  return (
    <div class="consent">
      <h1>Authorize an application</h1>
      <ErrorBox error={consent.error} />
      {consent.loading && !data ? <Loading what="the request" /> : null}
      {data ? (
        <section class="panel" aria-label="Authorization request">
          <p>
            <strong class="client-name">{data.client_name}</strong> asks to act as you (<span>{me.user.email}</span>) in the
            workspace <strong>{me.workspace.name}</strong>, through {data.resource}.
          </p>
          <p>
            The answer goes to <code class="redirect-host">{data.redirect_host}</code>. Approve only if you started this from an
            application you trust.
          </p>
          <fieldset>
            <legend>What it may do (your role: {me.role})</legend>
            {data.scopes.map((scope) => (
              <Checkbox key={scope.name} label={scope.name} checked={scopes.includes(scope.name)}
                onChange={(on) => setChosen(on ? [...scopes, scope.name] : scopes.filter((s) => s !== scope.name))} />
            ))}
          </fieldset>
          <ErrorBox error={action.error} />
          <p>
            <button type="button" onClick={() => answer(true)} disabled={scopes.length === 0}>Approve</button>{' '}
            <button type="button" class="danger" onClick={() => answer(false)}>Deny</button>
          </p>
        </section>
      ) : null}
    </div>
  );
}
