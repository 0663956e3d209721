// Files the build bundles as text (Vite's `?raw`): the glossary page shows docs/glossary.md.
declare module '*.md?raw' {
  const text: string;
  export default text;
}
