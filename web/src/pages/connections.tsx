export function ConnectionsPage() {
  return <h1>connections</h1>;
}
