export function AskPage() {
  return <h1>ask</h1>;
}
