// The little Markdown the console shows from docs/ (the glossary, the tutorial): headings, paragraphs,
// numbered and bulleted lists, `code` and **bold**; a link shows its text (the docs it points at are
// files of the repository, not pages of the console). Anything else is shown as the text it is: never
// as HTML.
import type { ComponentChildren } from 'preact';

export type Block =
  | { kind: 'heading'; level: 1 | 2 | 3; text: string; id: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'list'; ordered: boolean; items: string[] };

const ITEM = /^(\d+\.|-)\s+/;

/** A chunk whose first line starts an item (`1. ` or `- `): each such line starts one, the lines after it continue it. */
function listOf(text: string): Block | undefined {
  const lines = text.split('\n');
  const first = ITEM.exec(lines[0]!);
  if (!first) return undefined;
  const items: string[] = [];
  for (const line of lines) {
    const start = ITEM.exec(line);
    if (start) items.push(line.slice(start[0].length).trim());
    else items[items.length - 1] += ` ${line.trim()}`;
  }
  return { kind: 'list', ordered: first[1] !== '-', items };
}

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

export function blocksOf(markdown: string): Block[] {
  const blocks: Block[] = [];
  for (const chunk of markdown.split(/\n\s*\n/)) {
    const text = chunk.trim();
    if (!text) continue;
    const heading = /^(#{1,3})\s+(.+)$/.exec(text);
    const list = listOf(text);
    if (heading && !text.includes('\n')) blocks.push({ kind: 'heading', level: heading[1]!.length as 1 | 2 | 3, text: heading[2]!, id: slug(heading[2]!) });
    else if (list) blocks.push(list);
    else blocks.push({ kind: 'paragraph', text: text.replace(/\s*\n\s*/g, ' ') });
  }
  return blocks;
}

/** `code`, **bold** and [text](link) as text; the rest as it is. */
export function Inline({ text }: { text: string }) {
  const parts: ComponentChildren[] = [];
  const pattern = /`([^`]+)`|\*\*([^*]+)\*\*|\[([^\]]+)\]\([^)]*\)/g;
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > at) parts.push(text.slice(at, match.index));
    if (match[1] !== undefined) parts.push(<code key={match.index}>{match[1]}</code>);
    else if (match[2] !== undefined) parts.push(<strong key={match.index}>{match[2]}</strong>);
    else parts.push(match[3]);
    at = match.index + match[0].length;
  }
  parts.push(text.slice(at));
  return <>{parts}</>;
}

/** A page of docs/ as an article: its headings (with ids to link to), paragraphs and lists. */
export function MarkdownArticle({ blocks, class: className }: { blocks: Block[]; class: string }) {
  return (
    <article class={className}>
      {blocks.map((block, i) => {
        if (block.kind === 'paragraph') return <p key={i}><Inline text={block.text} /></p>;
        if (block.kind === 'list') {
          const List = block.ordered ? 'ol' : 'ul';
          return <List key={i}>{block.items.map((item, j) => <li key={j}><Inline text={item} /></li>)}</List>;
        }
        const Heading = (`h${block.level}` as 'h1' | 'h2' | 'h3');
        return <Heading key={i} id={block.id}>{block.text}</Heading>;
      })}
    </article>
  );
}
