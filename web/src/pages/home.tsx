// The landing page: who you are and where to go.
import { CLIENT_ROUTES } from '../../../src/surfaces/web/client-routes';
import { onLinkClick } from '../router';
import type { Me } from '../session';

export function HomePage({ me }: { me: Me }) {
  const attributes = Object.entries(me.attributes);
  return (
    <div>
      <h1>Welcome, {me.user.name || me.user.email}</h1>
      <aside class="notice" aria-label="New here?">
        New here? Follow the <a href="/tutorial" onClick={(e) => onLinkClick(e, '/tutorial')}>tutorial</a>: your first chart,
        dashboard, signal and scheduled delivery, step by step. Read the <a href="/glossary" onClick={(e) => onLinkClick(e, '/glossary')}>glossary</a> for
        the words the console uses (luminary, reveal, node, scene, vault, data key…), and the <a href="/docs">API reference</a>.
      </aside>
      <dl class="facts">
        <dt>Workspace</dt>
        <dd>{me.workspace.name} ({me.workspace.plan} plan)</dd>
        <dt>Role</dt>
        <dd>{me.role}</dd>
        <dt>Attributes</dt>
        <dd>{attributes.length ? attributes.map(([k, v]) => `${k} = ${String(v)}`).join(', ') : 'none'}</dd>
      </dl>
      <ul class="cards">
        {CLIENT_ROUTES.filter((r) => r.path !== '/').map((r) => (
          <li key={r.path}>
            <a href={r.path} onClick={(e) => onLinkClick(e, r.path)}>{r.title}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}
