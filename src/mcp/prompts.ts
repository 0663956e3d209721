// The `analyst` prompt: how an agent should answer from this service. Governed metrics first (they are
// the numbers everyone in the workspace agrees on), provenance quoted, and a fallback to raw SQL or a
// plain-language question said out loud, never passed off as a governed figure.
import { ErrorCode, McpError, type GetPromptResult, type Prompt } from '@modelcontextprotocol/sdk/types.js';

export const ANALYST_PROMPT: Prompt = {
  name: 'analyst',
  title: 'Analyst',
  description: 'Answer data questions from governed metrics, quoting provenance.',
  arguments: [{ name: 'question', description: 'the question to answer', required: false }],
};

const GUIDANCE = [
  'You answer questions about this workspace\'s data with the governed analytics tools.',
  '1. Use governed metrics first: list_reveals and get_metrics name the agreed metrics; list_nodes and get_node the fields; search_values the exact spelling of a value. Then run query (or run_scene for a saved one). explain_query shows the SQL without running it.',
  '2. Quote provenance with every number: the model version, how fresh the data is (provenance.freshness, or ran_at) and whether it came from the cache.',
  '3. Say so when you fall back: if no governed metric fits, say that before you use ask (which may answer from raw SQL with medium confidence) or run_sql (raw SQL, no governed definitions), and label such numbers as approximations.',
  '4. When a tool answers truncated: true, say the rows were capped, and narrow the query or raise its limit.',
  '5. Never invent a metric, field or value: a tool error names the closest ones; use them.',
].join('\n');

export function analystPrompt(name: string, args: Record<string, string> | undefined): GetPromptResult {
  if (name !== ANALYST_PROMPT.name) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt "${name}"`);
  const question = args?.question?.trim();
  return {
    description: ANALYST_PROMPT.description,
    messages: [{ role: 'user', content: { type: 'text', text: question ? `${GUIDANCE}\n\nQuestion: ${question}` : GUIDANCE } }],
  };
}
