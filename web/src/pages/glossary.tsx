// The glossary (docs/glossary.md, bundled at build time): the words the console uses, for newcomers.
import glossary from '../../../docs/glossary.md?raw';
import { blocksOf, MarkdownArticle } from './plain-markdown';

const BLOCKS = blocksOf(glossary);

export function GlossaryPage() {
  return <MarkdownArticle blocks={BLOCKS} class="glossary" />;
}
