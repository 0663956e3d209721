// A loopback OpenAI-compatible server for the evaluation with translation: it answers a translation
// request with the question's reference English (the `english` of the question sets) and every other
// request (planning, prose, the SQL fallback) with HTTP 500, so the product does what it does when a
// model is configured but fails: the offline planner plans, the template words the answer.
import { TRANSLATION_PROMPT_START } from '../../../src/core/answer/llm-translate.js';
import { startFakeOpenAiServer, type FakeOpenAiServer, type ReceivedRequest } from '../../helpers/fake-openai-server.js';
import type { UnseenQuestion } from '../unseen/types.js';

/** The question a translation request asks to translate, or undefined for any other request. */
export function translationAsked(request: ReceivedRequest): string | undefined {
  const messages = request.body['messages'] as Array<{ role: string; content: string }> | undefined;
  if (!messages?.[0]?.content.startsWith(TRANSLATION_PROMPT_START)) return undefined;
  return /^Translate from [A-Za-z]+: ([\s\S]*)$/.exec(messages[1]?.content ?? '')?.[1];
}

export async function startTranslationServer(questions: readonly UnseenQuestion[]): Promise<FakeOpenAiServer> {
  const references = new Map(questions.flatMap((q) => (q.english ? [[q.question, q.english] as const] : [])));
  const server = await startFakeOpenAiServer();
  server.fallback = { kind: 'status', status: 500, message: 'only translations are answered here' };
  server.respond = (request) => {
    const asked = translationAsked(request);
    const english = asked === undefined ? undefined : references.get(asked);
    return english === undefined ? undefined : { kind: 'content', text: english };
  };
  return server;
}
