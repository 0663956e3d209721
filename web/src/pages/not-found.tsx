// An address the console has no page for (the server answered it 404 with this app): says so, and
// leads back to the console. Shown signed in or not: it needs no session.
import { onLinkClick } from '../router';

export function NotFoundPage({ path }: { path: string }) {
  return (
    <div class="not-found">
      <h1>Page not found</h1>
      <p>
        No page at <code>{path}</code>. Go to <a href="/" onClick={(e) => onLinkClick(e, '/')}>the console's home</a>.
      </p>
    </div>
  );
}
