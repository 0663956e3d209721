// The glossary (docs/glossary.md, bundled at build time): the words the console uses, for newcomers.
import glossary from '../../../docs/glossary.md?raw';
import { blocksOf, Inline } from './plain-markdown';

const BLOCKS = blocksOf(glossary);

export function GlossaryPage() {
  return (
    <article class="glossary">
      {BLOCKS.map((block, i) => {
        if (block.kind === 'paragraph') return <p key={i}><Inline text={block.text} /></p>;
        const Heading = (`h${block.level}` as 'h1' | 'h2' | 'h3');
        return <Heading key={i} id={block.id}>{block.text}</Heading>;
      })}
    </article>
  );
}
