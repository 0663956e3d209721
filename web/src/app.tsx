// The console's frame: who is signed in (user, workspace, role), the page list, and the page itself.
// Until /api/auth/me answers, the sign-in page is shown; a 401 anywhere ends the session in view. An
// address with no page shows the not-found page, signed in or not.
import { useEffect, useState } from 'preact/hooks';
import { CLIENT_ROUTES, STANDALONE_ROUTES } from '../../src/surfaces/web/client-routes';
import { get, post } from './api';
import { ErrorBox, Loading } from './components/feedback';
import { AskPage } from './pages/ask';
import { CmlBuilderPage } from './pages/cml-builder';
import { ConnectAgentPage } from './pages/connect-agent';
import { ConnectionsPage } from './pages/connections';
import { ContentPage } from './pages/content';
import { ExplorePage } from './pages/explore';
import { GlossaryPage } from './pages/glossary';
import { HomePage } from './pages/home';
import { KeysPage } from './pages/keys';
import { ModelPage } from './pages/model';
import { NotFoundPage } from './pages/not-found';
import { OauthConsentPage } from './pages/oauth-consent';
import { RollupsPage } from './pages/rollups';
import { SignInPage } from './pages/sign-in';
import { SqlEditorPage } from './pages/sql-editor';
import { TutorialPage } from './pages/tutorial';
import { UsersPage } from './pages/users';
import { onLinkClick, usePath } from './router';
import { atLeast, type Me } from './session';

const PAGES: Record<string, (props: { me: Me }) => preact.JSX.Element> = {
  '/': HomePage,
  '/keys': KeysPage,
  '/connect-agent': ConnectAgentPage,
  '/connections': ConnectionsPage,
  '/sql': SqlEditorPage,
  '/cml-builder': CmlBuilderPage,
  '/ask': AskPage,
  '/model': ModelPage,
  '/explore': ExplorePage,
  '/content': ContentPage,
  '/rollups': RollupsPage,
  '/users': UsersPage,
  '/glossary': GlossaryPage,
  '/tutorial': TutorialPage,
};

/** Pages outside the page list, shown on their own (signed in first, at the same address). */
const STANDALONE: Record<string, (props: { me: Me }) => preact.JSX.Element> = {
  '/oauth/consent': OauthConsentPage,
};

/** Pages a role cannot use are not offered (the server refuses them anyway). */
function offered(me: Me, path: string): boolean {
  if (path === '/connections' || path === '/users') return me.role === 'luminary';
  if (path === '/sql' || path === '/cml-builder') return atLeast(me, 'tracer');
  if (path === '/rollups') return atLeast(me, 'editor');
  return true;
}

export function App() {
  // The server answers /keys/ as /keys: so does the page list.
  const path = usePath().replace(/(.)\/+$/, '$1');
  const known = Object.hasOwn(PAGES, path) || Object.hasOwn(STANDALONE, path);
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  const [error, setError] = useState<unknown>();

  useEffect(() => {
    get<Me>('/api/auth/me').then(setMe, () => setMe(null));
    const ended = () => setMe(null);
    window.addEventListener('session-ended', ended);
    return () => window.removeEventListener('session-ended', ended);
  }, []);

  useEffect(() => {
    const title = known ? ([...CLIENT_ROUTES, ...STANDALONE_ROUTES].find((r) => r.path === path)?.title ?? 'Console') : 'Page not found';
    document.title = `${title} · Analytics console`;
  }, [path, known]);

  if (me === undefined) return <Loading what="the console" />;
  if (me === null) {
    return known ? <SignInPage onSignedIn={setMe} /> : <main id="main" class="standalone"><NotFoundPage path={path} /></main>;
  }

  const signOut = async () => {
    try {
      await post('/api/auth/logout');
      setMe(null);
    } catch (e) {
      setError(e);
    }
  };
  const Standalone = STANDALONE[path];
  if (Standalone) {
    return (
      <main id="main" class="standalone">
        <ErrorBox error={error} />
        <Standalone me={me} />
        <p><button type="button" onClick={signOut}>Sign out</button></p>
      </main>
    );
  }
  const Page = PAGES[path];
  return (
    <div class="shell">
      <a class="skip" href="#main">Skip to content</a>
      <header class="top">
        <span class="brand">Analytics console</span>
        <span class="who" role="group" aria-label="Signed in as">
          <span>{me.user.email}</span> · <span>{me.workspace.name}</span> · <span class="role">{me.role}</span>
        </span>
        <button type="button" onClick={signOut}>Sign out</button>
      </header>
      <nav aria-label="Pages">
        <ul>
          {CLIENT_ROUTES.filter((r) => offered(me, r.path)).map((r) => (
            <li key={r.path}>
              <a href={r.path} aria-current={r.path === path ? 'page' : undefined} onClick={(e) => onLinkClick(e, r.path)}>
                {r.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        <ErrorBox error={error} />
        {Page ? <Page me={me} /> : <NotFoundPage path={path} />}
      </main>
    </div>
  );
}
