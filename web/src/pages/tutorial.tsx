// The tutorial (docs/tutorial.md, bundled at build time): a first-time analyst's task from sign-in to a
// dashboard delivered on a schedule, step by step with the console's own labels.
import tutorial from '../../../docs/tutorial.md?raw';
import { blocksOf, MarkdownArticle } from './plain-markdown';

const BLOCKS = blocksOf(tutorial);

export function TutorialPage() {
  return <MarkdownArticle blocks={BLOCKS} class="tutorial" />;
}
