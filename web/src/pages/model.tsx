export function ModelPage() {
  return <h1>model</h1>;
}
