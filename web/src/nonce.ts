// The page's CSP nonce, as the server put it on our script tag. CodeMirror needs it for the styles it
// injects at run time; without them typed spaces turn into non-breaking ones.
export function pageNonce(): string | undefined {
  const script = document.querySelector<HTMLScriptElement>('script[nonce]');
  return script?.nonce || undefined;
}
