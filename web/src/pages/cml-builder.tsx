export function CmlBuilderPage() {
  return <h1>cml-builder</h1>;
}
