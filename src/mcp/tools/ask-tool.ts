// A question in plain language: the answer object of surface A's POST /ask, for the key's user with
// their data keys. Needs the `ask` scope, and spends the key's hourly question budget as a question on
// surface A does (a language model may answer it).
import { z } from 'zod';
import { spenderOf } from '../../http/key-admission.js';
import { spendBudget } from '../../http/rate-limit.js';
import { answerSchema, askBodySchema } from '../../surfaces/question/question-routes.js';
import { AGENT_ROWS, capRows, defineTool } from '../tool.js';

export const ask = defineTool({
  name: 'ask',
  title: 'Ask a question',
  description: 'Answers a plain-language question from governed metrics: prose, rows, provenance. Prefer query.',
  needs: { scope: 'ask' },
  input: askBodySchema,
  output: answerSchema.extend({ truncated: z.boolean() }),
  async run({ services, principal }, { question, domain }) {
    await spendBudget(services.shared, 'question', spenderOf(principal), services.clock.now().getTime());
    const answer = await services.answers.ask(principal, question, domain);
    const { rows } = capRows(answer.data.rows, AGENT_ROWS.max);
    const { provenance } = answer;
    const source = provenance.reveal ? `${provenance.source}, reveal ${provenance.reveal}` : provenance.source;
    return {
      structured: { ...answer, data: { ...answer.data, rows }, truncated: answer.data.rows.length > AGENT_ROWS.max },
      text: `${answer.answer}\n(${source}; confidence ${provenance.confidence}; data as of ${provenance.freshness ?? 'unknown'})`,
    };
  },
});
