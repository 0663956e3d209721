// Files the build bundles as text (Vite's `?raw`): the glossary and tutorial pages show docs/glossary.md and docs/tutorial.md.
declare module '*.md?raw' {
  const text: string;
  export default text;
}
