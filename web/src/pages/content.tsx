export function ContentPage() {
  return <h1>content</h1>;
}
