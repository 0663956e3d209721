// Applications authorized through OAuth (agents holding tokens that act for a member), beside the API
// keys: client, scopes, created, last used, and revoke with a confirmation.
import { useState } from 'preact/hooks';
import { post } from '../api';
import { ConfirmRevoke } from '../components/confirm-revoke';
import { ErrorBox, Loading, Notice } from '../components/feedback';
import { Section } from '../components/field';
import { LoadMore, usePaged } from '../components/use-paged';

interface Grant {
  id: string;
  client_name: string;
  scopes: string[];
  created_at: string;
  last_used_at: string | null;
  status: 'active' | 'revoked' | 'expired';
}

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

export function OauthGrants() {
  const grants = usePaged<Grant>('/api/oauth/grants?limit=50', 'grants');
  const [confirming, setConfirming] = useState<Grant>();
  const [notice, setNotice] = useState('');
  const [error, setError] = useState<unknown>();

  const revoke = async (grant: Grant) => {
    try {
      await post(`/api/oauth/grants/${encodeURIComponent(grant.id)}/revoke`);
      setConfirming(undefined);
      await grants.reload();
      setNotice(`${grant.client_name} no longer has access.`);
    } catch (e) {
      setError(e);
    }
  };

  return (
    <Section title="Authorized applications">
      {notice ? <Notice>{notice}</Notice> : null}
      <ErrorBox error={error ?? grants.error} />
      {grants.loading && grants.items.length === 0 ? <Loading what="authorized applications" /> : null}
      {!grants.error ? (
        <div class="table-wrap">
          <table>
            <caption class="sr-only">Applications authorized through OAuth</caption>
            <thead>
              <tr><th scope="col">Application</th><th scope="col">Scopes</th><th scope="col">Status</th><th scope="col">Authorized</th><th scope="col">Last used</th><th scope="col">Actions</th></tr>
            </thead>
            <tbody>
              {grants.items.map((grant) => (
                <tr key={grant.id}>
                  <td>{grant.client_name}</td>
                  <td>{grant.scopes.join(', ')}</td>
                  <td><span class={`status ${grant.status}`}>{grant.status}</span></td>
                  <td>{when(grant.created_at)}</td>
                  <td>{when(grant.last_used_at)}</td>
                  <td>
                    {grant.status === 'active' ? (
                      <ConfirmRevoke name={grant.client_name} warning="Its tokens will be refused." confirming={confirming?.id === grant.id}
                        onAsk={() => setConfirming(grant)} onCancel={() => setConfirming(undefined)} onConfirm={() => revoke(grant)} />
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <LoadMore list={grants} what="authorized applications" empty="No application is authorized." />
        </div>
      ) : null}
    </Section>
  );
}
