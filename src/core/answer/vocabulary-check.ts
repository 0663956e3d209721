// Warnings about the words a model gives the question planner, for `svc model validate` and the
// validate endpoint. They need the planner's normalisation (text.ts), so they run over the linked
// model rather than inside the CML compiler:
// - CML602: a label or synonym of one metric reads, after normalisation, like a phrase of another
//   metric: a question using those words cannot tell the two apart;
// - CML603: a label or synonym of a metric reads like the words of a dimension its reveal reaches:
//   "by region" and "region" as a metric would compete;
// - CML604: a reveal declares `languages:` and has no metric synonyms in one of them;
// - CML605: one word of a dimension's `values:` stands for two stored values ("Georgia" for GA and
//   GE): a question using it could be filtered on either.
import type { CmlFile } from '../cml/index.js';
import { DiagnosticSink, type Diagnostic } from '../cml/diagnostics.js';
import type { Metric, SemanticModel, SourceSpan } from '../semantic/model.js';
import { buildCatalogIndex } from './catalog-index.js';
import { contentStems, identifierWords, normalise } from './text.js';

type Source = 'name' | 'label' | 'synonym';

interface Phrase {
  readonly metric: Metric;
  readonly source: Source;
  readonly text: string;
  readonly key: string;
}

function phrasesOf(metric: Metric): Phrase[] {
  const written: Array<[Source, string]> = [['name', identifierWords(metric.name)], ['label', metric.label], ...metric.synonyms.map((s): [Source, string] => ['synonym', s])];
  const seen = new Set<string>();
  return written.flatMap(([source, text]) => {
    const key = contentStems(text).join(' ');
    if (key === '' || seen.has(key)) return [];
    seen.add(key);
    return [{ metric, source, text, key }];
  });
}

const metricId = (metric: Metric) => `${metric.reveal}.${metric.name}`;
const describe = (phrase: Phrase) => (phrase.source === 'name' ? `the name of metric \`${metricId(phrase.metric)}\`` : `${phrase.source} "${phrase.text}" of metric \`${metricId(phrase.metric)}\``);

export function vocabularyWarnings(model: SemanticModel, files: readonly CmlFile[]): Diagnostic[] {
  const sink = new DiagnosticSink();
  const locate = locator(files);
  const metrics = [...model.reveals.values()].flatMap((reveal) => [...reveal.metrics.values()]);
  const phrases = metrics.flatMap(phrasesOf);

  // CML602: each pair of metrics once, at the later declared one's written words.
  const byKey = new Map<string, Phrase[]>();
  for (const phrase of phrases) byKey.set(phrase.key, [...(byKey.get(phrase.key) ?? []), phrase]);
  for (const group of byKey.values()) {
    const owners = new Set(group.map((p) => metricId(p.metric)));
    if (owners.size < 2) continue;
    const first = group[0]!;
    for (const phrase of group.slice(1)) {
      if (metricId(phrase.metric) === metricId(first.metric)) continue;
      const [at, other] = phrase.source !== 'name' ? [phrase, first] : first.source !== 'name' ? [first, phrase] : [undefined, undefined];
      if (!at || !other) continue;
      sink.report(
        'CML602',
        locate(at.metric.span, at.text, at.source),
        `${describe(at)} reads like ${describe(other)} (both "${at.key}" once normalised), so a question with these words cannot tell the two metrics apart; keep the words on one of them`,
      );
    }
  }

  // CML603: against the dimensions each metric's reveal reaches.
  const index = buildCatalogIndex(model);
  for (const reveal of index.reveals) {
    const dimensionWords = new Map<string, string>();
    for (const dimension of reveal.dimensions) for (const phrase of dimension.phrases) if (!dimensionWords.has(phrase.join(' '))) dimensionWords.set(phrase.join(' '), dimension.field);
    for (const phrase of phrases) {
      if (phrase.metric.reveal !== reveal.name || phrase.source === 'name') continue;
      const field = dimensionWords.get(phrase.key);
      if (field === undefined) continue;
      sink.report(
        'CML603',
        locate(phrase.metric.span, phrase.text, phrase.source),
        `${describe(phrase)} reads like the dimension \`${field}\` of reveal \`${reveal.name}\` ("${phrase.key}" once normalised): "by ${phrase.text}" and "${phrase.text}" would compete; choose words that name the number`,
      );
    }
  }

  // CML604: a declared language with no synonyms. Synonyms without a language are in the first one.
  for (const reveal of model.reveals.values()) {
    const languages = reveal.languages ?? [];
    for (const language of languages) {
      const covered = [...reveal.metrics.values()].some((metric) => {
        const byLanguage = metric.synonymsByLanguage;
        if (!byLanguage) return language === languages[0] && metric.synonyms.length > 0;
        return (byLanguage.get(language)?.length ?? 0) > 0 || (language === languages[0] && (byLanguage.get('')?.length ?? 0) > 0);
      });
      if (covered) continue;
      sink.report(
        'CML604',
        locate(reveal.span, language, 'languages'),
        `reveal \`${reveal.name}\` declares the language \`${language}\` but no metric has synonyms in it; questions in \`${language}\` will only match names and labels (write \`synonyms: { ${language}: [...] }\`)`,
      );
    }
  }
  reportAmbiguousValueWords(model, locate, sink);
  return sink.sorted();
}

function reportAmbiguousValueWords(model: SemanticModel, locate: Locate, sink: DiagnosticSink): void {
  for (const node of model.nodes.values()) {
    for (const dimension of node.dimensions.values()) {
      const meaning = new Map<string, string>();
      for (const [stored, words] of dimension.valueSynonyms ?? []) {
        // A stored value is a word for itself: "CA" as a synonym of TX would be read as both.
        const own = normalise(stored);
        if (!meaning.has(own)) meaning.set(own, stored);
        for (const word of words) {
          const key = normalise(word);
          const earlier = meaning.get(key);
          if (earlier === undefined || earlier === stored) {
            meaning.set(key, stored);
            continue;
          }
          sink.report(
            'CML605',
            locate(dimension.span, word, 'values'),
            `"${word}" in \`values\` of dimension \`${node.name}.${dimension.name}\` stands for both \`${earlier}\` and \`${stored}\`; a question saying it could be filtered on either, so give it to one value only`,
          );
        }
      }
    }
  }
}

/**
 * Where a word is written inside a block: after its property key (`label:`, `synonyms:`,
 * `languages:`), quoted or bare. The block's own position when it cannot be found.
 */
type Locate = (block: SourceSpan, text: string, source: Source | 'languages' | 'values') => SourceSpan;

function locator(files: readonly CmlFile[]): Locate {
  const lines = new Map(files.map((file) => [file.path, file.content.split('\n')]));
  return (block, text, source) => {
    const fileLines = lines.get(block.file);
    if (!fileLines || source === 'name') return block;
    const key = source === 'synonym' ? 'synonyms' : source;
    const bare = new RegExp(`(?<![A-Za-z0-9_])${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9_])`);
    let afterKey = false;
    for (let line = block.line; line <= Math.min(block.endLine, fileLines.length); line++) {
      let text0 = fileLines[line - 1]!;
      let offset = 0;
      if (!afterKey) {
        const at = text0.search(new RegExp(`\\b${key}\\s*:`));
        if (at < 0) continue;
        afterKey = true;
        offset = at + key.length;
        text0 = text0.slice(offset);
      }
      const quoted = text0.indexOf(JSON.stringify(text));
      const found = quoted >= 0 ? { at: quoted, length: JSON.stringify(text).length } : bareMatch(bare, text0);
      if (found) return { file: block.file, line, column: offset + found.at + 1, endLine: line, endColumn: offset + found.at + found.length + 1 };
    }
    return block;
  };
}

function bareMatch(pattern: RegExp, text: string): { at: number; length: number } | undefined {
  const match = pattern.exec(text);
  return match ? { at: match.index, length: match[0].length } : undefined;
}
