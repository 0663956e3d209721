// Questions in another language, end to end through the answer service, with a real loopback
// OpenAI-compatible server (test/helpers/fake-openai-server.ts) translating them, against the
// bike-share class domain and hand-written SQL: a good translation is answered governed with the
// right number and says what was answered; a translation that changes a number, or garbage, is
// refused and the question read with the word list (declined, quoting only the question's words);
// with the server down the word list reads it too; an English question is never sent to translate.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../helpers/network.js';
import { startFakeOpenAiServer, type FakeOpenAiServer, type FakeReply } from '../helpers/fake-openai-server.js';
import { createTestDatabase, hasService } from '../helpers/services.js';
import { CLASS_DOMAINS } from './classes/domains.js';
import { P, within } from './classes/periods.js';
import { translationAsked } from './classes/translation-server.js';
import { quotesNotInQuestion } from './decline-quoting.js';
import { runUnseenSets, type DomainRun, type QuestionOutcome } from './unseen/harness.js';
import { ask, value } from './unseen/question-helpers.js';

const bikeshare = CLASS_DOMAINS.find((domain) => domain.name === 'bikeshare')!;
const trips = (period: readonly [string, string]) => value(`SELECT count(*) FROM bikeshare.trips WHERE ${within('started_at', 'TIMESTAMP', period)}`);

const GOOD = ask('¿Cuántos viajes hubo en 2024?', 'es', ['foreign_language', 'simple', 'period'], trips(P.y2024));
const CHANGED_YEAR = ask('Quanti viaggi ci sono stati nel 2024?', 'it', ['foreign_language', 'simple', 'period'], trips(P.y2024));
const GARBAGE = ask('Wie viele Fahrten gab es im Jahr 2024?', 'de', ['foreign_language', 'simple', 'period'], trips(P.y2024));
const ENGLISH = ask('How many trips were there in 2023?', 'en', ['simple', 'period'], trips(P.y2023));

/** What the server answers each translation request with, by the question asked. */
const TRANSLATIONS: ReadonlyMap<string, FakeReply> = new Map<string, FakeReply>([
  [GOOD.question, { kind: 'content', text: 'How many trips were there in 2024?' }],
  [CHANGED_YEAR.question, { kind: 'content', text: 'How many trips were there in 2023?' }],
  [GARBAGE.question, { kind: 'content', text: 'zzkx wibble blorp 2024 quux frob' }],
]);

let server: FakeOpenAiServer;
let run: DomainRun;
let down: DomainRun;
const notes: string[] = [];
const downNotes: string[] = [];
let drop: Array<() => Promise<void>> = [];

async function storeUrl(): Promise<{ databaseUrl?: string }> {
  if (!(await hasService('postgres'))) return {};
  const database = await createTestDatabase();
  drop.push(database.drop);
  return { databaseUrl: database.url };
}

beforeAll(async () => {
  server = await startFakeOpenAiServer();
  server.fallback = { kind: 'status', status: 500, message: 'only translations are answered here' };
  server.respond = (request) => {
    const asked = translationAsked(request);
    return asked === undefined ? undefined : TRANSLATIONS.get(asked);
  };
  const domain = { ...bikeshare, questions: [GOOD, CHANGED_YEAR, GARBAGE, ENGLISH] };
  run = (await runUnseenSets({ ...(await storeUrl()), domains: [domain], llmBaseUrl: server.baseUrl, onNote: (note) => notes.push(note) }))[0]!;
  down = (await runUnseenSets({ ...(await storeUrl()), domains: [{ ...bikeshare, questions: [GOOD, ENGLISH] }], llmBaseUrl: `http://127.0.0.1:${await closedPort()}/v1`, onNote: (note) => downNotes.push(note) }))[0]!;
}, 180_000);
afterAll(async () => {
  await server?.close();
  for (const dropDatabase of drop) await dropDatabase();
  drop = [];
});

const outcome = (of: DomainRun, question: string): QuestionOutcome => of.outcomes.find((o) => o.question.question === question)!;

describe('a question in another language with a language model configured', () => {
  it('is translated with the catalog’s words, answered governed with the right number, and says what was answered', () => {
    const answered = outcome(run, GOOD.question);
    expect(answered.verdict).toBe('exact');
    expect(answered.answer!.provenance.assumptions).toContainEqual({ code: 'question_translated', message: expect.stringContaining('How many trips were there in 2024?') });
    const request = server.requests.find((r) => translationAsked(r) === GOOD.question)!;
    expect(request.raw).toContain('Trips');
    expect(request.raw).toContain('Fare revenue');
    expect(request.raw).toContain('Bike type');
  });

  it('refuses a translation that changes a year, reads the question with the word list, and declines quoting only its words', () => {
    const declined = outcome(run, CHANGED_YEAR.question);
    expect(declined.verdict).toBe('declined');
    expect(declined.sql).toEqual([]);
    expect(quotesNotInQuestion(declined.answer!.no_match!.reason, CHANGED_YEAR.question)).toEqual([]);
    expect(declined.answer!.no_match!.reason).toMatch(/"viaggi".*synonyms/);
    expect(notes.join('\n')).toMatch(/Translation not used \(the translation changes the numbers of the question \(2024 → 2023\)\)/);
  });

  it('refuses garbage the same way', () => {
    const declined = outcome(run, GARBAGE.question);
    expect(declined.verdict).toBe('declined');
    expect(quotesNotInQuestion(declined.answer!.no_match!.reason, GARBAGE.question)).toEqual([]);
    expect(declined.answer!.no_match!.reason).toMatch(/"Fahrten"/);
    expect(notes.join('\n')).toMatch(/Translation not used \(the translation is not mostly English\)/);
  });

  it('never sends an English question to be translated', () => {
    expect(outcome(run, ENGLISH.question).verdict).toBe('exact');
    const translated = server.requests.map(translationAsked).filter((asked) => asked !== undefined);
    expect(translated.sort()).toEqual([GOOD.question, CHANGED_YEAR.question, GARBAGE.question].sort());
  });
});

describe('with the language model server down', () => {
  it('reads the question with the word list, declines naming the word a synonym would make known, and still answers English', () => {
    const declined = outcome(down, GOOD.question);
    expect(declined.verdict).toBe('declined');
    expect(declined.answer!.no_match!.reason).toMatch(/^No governed metric matches "viajes"\..*synonyms: \[\.\.\., "viajes"\]/);
    expect(downNotes.join('\n')).toMatch(/Translation not used \(language model unavailable/);
    expect(outcome(down, ENGLISH.question).verdict).toBe('exact');
  });
});
