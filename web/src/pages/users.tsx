export function UsersPage() {
  return <h1>users</h1>;
}
