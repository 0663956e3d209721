// The console's pages: each path answers the console's HTML, which then shows the page. One list for
// the server (which routes to answer) and the browser app (which page to show), so neither drifts.
export const CLIENT_ROUTES = [
  { path: '/', title: 'Home' },
  { path: '/keys', title: 'Keys' },
  { path: '/connect-agent', title: 'Connect an agent' },
  { path: '/connections', title: 'Connections' },
  { path: '/sql', title: 'SQL editor' },
  { path: '/cml-builder', title: 'CML builder' },
  { path: '/ask', title: 'Ask' },
  { path: '/model', title: 'Model' },
  { path: '/explore', title: 'Explore' },
  { path: '/content', title: 'Content' },
  { path: '/rollups', title: 'Rollups' },
  { path: '/users', title: 'Users' },
  { path: '/glossary', title: 'Glossary' },
  { path: '/tutorial', title: 'Tutorial' },
] as const;

/** Pages reached from elsewhere, not from the page list: an application's authorization request leads to consent. */
export const STANDALONE_ROUTES = [{ path: '/oauth/consent', title: 'Authorize an application' }] as const;

export type ClientPath = (typeof CLIENT_ROUTES)[number]['path'];

/** Older entry points that lead to a console page. */
export const CLIENT_REDIRECTS: Record<string, ClientPath> = { '/console': '/', '/studio': '/sql' };
