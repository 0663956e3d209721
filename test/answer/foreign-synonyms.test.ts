// Offline, with no language model: a question in another language is answered once the model's
// synonyms name its domain words (docs/answers.md, "Questions in other languages"). The bike-share
// class model is copied with `synonyms: [..., viajes, trajets, viaggi]` on Trips; the word list reads
// the rest ("¿Cuántos … hubo", "sono partiti da", "nel 2024"). Without the synonym the same questions
// are declined naming the word (translation.test.ts).
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, hasService } from '../helpers/services.js';
import { CLASS_DOMAINS } from './classes/domains.js';
import { P, within } from './classes/periods.js';
import { runUnseenSets, type DomainRun } from './unseen/harness.js';
import { ask, value } from './unseen/question-helpers.js';

const bikeshare = CLASS_DOMAINS.find((domain) => domain.name === 'bikeshare')!;
const modelDir = mkdtempSync(path.join(tmpdir(), 'svc-foreign-synonyms-'));
const JOINED = 'bikeshare.trips t JOIN bikeshare.stations s ON s.id = t.start_station_id';

const QUESTIONS = [
  ask('¿Cuántos viajes hubo en 2024?', 'es', ['foreign_language'], value(`SELECT count(*) FROM bikeshare.trips WHERE ${within('started_at', 'TIMESTAMP', P.y2024)}`)),
  ask('Combien de trajets en mai 2025 ?', 'fr', ['foreign_language'], value(`SELECT count(*) FROM bikeshare.trips WHERE ${within('started_at', 'TIMESTAMP', P.may2025)}`)),
  ask('Quanti viaggi sono partiti da Central Station nel 2024?', 'it', ['foreign_language'], value(`SELECT count(*) FROM ${JOINED} WHERE s.name = 'Central Station' AND ${within('t.started_at', 'TIMESTAMP', P.y2024)}`)),
];

let run: DomainRun;
let drop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  cpSync(bikeshare.modelDir, modelDir, { recursive: true });
  const reveals = path.join(modelDir, 'reveals.cml');
  const cml = readFileSync(reveals, 'utf8');
  const withSynonyms = cml.replace('synonyms: [rides, rentals, journeys, "bike trips", "number of trips"]', 'synonyms: [rides, rentals, journeys, "bike trips", "number of trips", viajes, trajets, viaggi]');
  expect(withSynonyms).not.toBe(cml);
  writeFileSync(reveals, withSynonyms);
  const database = (await hasService('postgres')) ? await createTestDatabase() : undefined;
  drop = database?.drop;
  run = (await runUnseenSets({ ...(database ? { databaseUrl: database.url } : {}), domains: [{ ...bikeshare, modelDir, questions: QUESTIONS }] }))[0]!;
}, 120_000);
afterAll(async () => {
  await drop?.();
  rmSync(modelDir, { recursive: true, force: true });
});

describe('a CML synonym in another language', () => {
  it('makes the question answerable offline, with the English it was read as in provenance', () => {
    expect(run.outcomes.map((o) => [o.question.question, o.verdict, o.answer?.no_match?.reason ?? ''])).toEqual(QUESTIONS.map((q) => [q.question, 'exact', '']));
    for (const o of run.outcomes) {
      expect(o.answer!.provenance.assumptions, o.question.question).toContainEqual({ code: 'question_translated', message: expect.stringMatching(/built-in list of analytical words/) });
    }
  });
});
