// Sign in with e-mail and password; the server sets an HttpOnly session cookie (nothing is stored here).
import { useState } from 'preact/hooks';
import { post } from '../api';
import { ErrorBox } from '../components/feedback';
import { TextField } from '../components/field';
import type { Me } from '../session';

export function SignInPage({ onSignedIn }: { onSignedIn: (me: Me) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      onSignedIn(await post<Me>('/api/auth/login', { email, password }));
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="sign-in" id="main">
      <h1>Sign in to the analytics console</h1>
      <form onSubmit={submit} aria-label="Sign in">
        <TextField label="E-mail" type="email" value={email} onInput={setEmail} required autoComplete="username" />
        <TextField label="Password" type="password" value={password} onInput={setPassword} required autoComplete="current-password" />
        <ErrorBox error={error} />
        <button type="submit" disabled={busy}>{busy ? 'Signing in…' : 'Sign in'}</button>
      </form>
      <aside class="hint" aria-label="First start">
        <h2>First start?</h2>
        <p>
          On its first start, <code>npm start</code> creates the Demo workspace and prints its luminary's e-mail and a generated
          password (shown once) in the terminal where the server runs, under “Created workspace "Demo"”. With{' '}
          <code>SVC_ADMIN_EMAIL</code> and <code>SVC_ADMIN_PASSWORD</code> set, those are the credentials.
        </p>
      </aside>
    </main>
  );
}
