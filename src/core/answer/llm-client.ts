// One client for every OpenAI-compatible server users point us at (OpenAI, Ollama, vLLM, llama.cpp,
// LM Studio). Structured answers degrade in order: a forced tool call → JSON-schema output → JSON
// parsed from plain text. Servers differ in what they support (llama.cpp needs --jinja for tools,
// vLLM needs flags, small Ollama models "do not support tools"), so a server's refusal moves the
// request one step down, and the step that worked is remembered for a while, so later questions do
// not pay for the refusals again. Transient failures (time-outs, 5xx, 429) are retried once in the
// same step; a second one gives up, and the caller answers without the model.
import OpenAI from 'openai';

export type OutputMode = 'tools' | 'json_schema' | 'json_text';
export const OUTPUT_MODES: readonly OutputMode[] = ['tools', 'json_schema', 'json_text'];

export interface LlmClientOptions {
  /** OpenAI-compatible base URL including `/v1`. */
  readonly baseUrl: string;
  /** Local servers need none. */
  readonly apiKey?: string;
  readonly model: string;
  /** Per attempt; default 8000. */
  readonly timeoutMs?: number;
  /** How long a server's refusal of a mode is remembered; default 10 minutes. */
  readonly relearnAfterMs?: number;
}

/** A request for one JSON object: the tool's name and JSON schema describe what is wanted. */
export interface StructuredRequest {
  readonly system: string;
  readonly user: string;
  readonly name: string;
  readonly description: string;
  readonly parameters: Record<string, unknown>;
}

export type StructuredOutcome =
  | { readonly ok: true; readonly json: string; readonly mode: OutputMode; readonly tokensUsed: number; readonly notes: readonly string[] }
  | { readonly ok: false; readonly reason: string; readonly tokensUsed: number; readonly notes: readonly string[] };

export type TextOutcome = { readonly ok: true; readonly text: string; readonly tokensUsed: number } | { readonly ok: false; readonly reason: string; readonly tokensUsed: number };

type Message = { role: 'system' | 'user'; content: string };
type Completion = OpenAI.Chat.Completions.ChatCompletion;

const DEFAULT_TIMEOUT_MS = 8000;
const DEFAULT_RELEARN_MS = 10 * 60_000;
const ATTEMPTS = 2;

/** The request body of one mode, exactly as sent (also what the benchmark counts tokens of). */
export function requestBody(request: StructuredRequest, mode: OutputMode, model: string): Record<string, unknown> {
  const messages: Message[] = [
    { role: 'system', content: request.system },
    { role: 'user', content: request.user },
  ];
  switch (mode) {
    case 'tools':
      return {
        model,
        messages,
        tools: [{ type: 'function', function: { name: request.name, description: request.description, parameters: request.parameters } }],
        tool_choice: { type: 'function', function: { name: request.name } },
        temperature: 0,
      };
    case 'json_schema':
      return {
        model,
        messages: [{ role: 'system', content: `${request.system}\nReply with the ${request.name} JSON object only.` }, messages[1]],
        response_format: { type: 'json_schema', json_schema: { name: request.name, description: request.description, schema: request.parameters, strict: false } },
        temperature: 0,
      };
    case 'json_text':
      return {
        model,
        messages: [
          { role: 'system', content: `${request.system}\nReply with one JSON object for ${request.name} and nothing else, matching this JSON schema:\n${JSON.stringify(request.parameters)}` },
          messages[1],
        ],
        temperature: 0,
      };
  }
}

/**
 * The first JSON object in a model's text: bare, or inside a ```json fence, or after a sentence. Braces
 * inside strings are skipped, so `{"reason": "a } b"}` is read whole.
 */
export function extractJsonObject(text: string): string | undefined {
  for (let start = text.indexOf('{'); start !== -1; start = text.indexOf('{', start + 1)) {
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (c === '\\') i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{') depth++;
      else if (c === '}' && --depth === 0) {
        const candidate = text.slice(start, i + 1);
        try {
          JSON.parse(candidate);
          return candidate;
        } catch {
          break; // not JSON after all: try the next opening brace
        }
      }
    }
  }
  return undefined;
}

function transient(error: unknown): boolean {
  if (!(error instanceof OpenAI.APIError) || error.status === undefined) return true; // time-out, connection
  return error.status >= 500 || error.status === 408 || error.status === 429;
}

/**
 * A refusal of the request's shape rather than a failure: 400/404/422/501, or a 5xx that names the
 * feature (llama.cpp answers 500 "tools param requires --jinja flag" / "Unsupported param: tools").
 */
function refusesMode(error: unknown): boolean {
  if (!(error instanceof OpenAI.APIError) || error.status === undefined) return false;
  if ([400, 404, 422, 501].includes(error.status)) return true;
  return error.status >= 500 && /tool|response_format|json_schema|unsupported|not support/i.test(error.message);
}

function describeLlmError(error: unknown): string {
  if (error instanceof OpenAI.APIConnectionTimeoutError) return 'timed out';
  if (error instanceof OpenAI.APIError && error.status !== undefined) return `HTTP ${error.status}`;
  return error instanceof Error ? error.message : String(error);
}

export class LlmClient {
  private readonly client: OpenAI;
  private readonly relearnAfterMs: number;
  /** The first mode to try, lowered when a server refuses one; forgotten after `relearnAfterMs`. */
  private learned: { mode: number; at: number } = { mode: 0, at: 0 };

  constructor(private readonly options: LlmClientOptions) {
    // Retries are ours (one, also after a time-out), so the client makes none of its own.
    this.client = new OpenAI({ baseURL: options.baseUrl, apiKey: options.apiKey ?? 'not-needed', timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS, maxRetries: 0 });
    this.relearnAfterMs = options.relearnAfterMs ?? DEFAULT_RELEARN_MS;
  }

  get model(): string {
    return this.options.model;
  }

  /** One JSON object (as text) for the request, through the first mode the server supports. */
  async structured(request: StructuredRequest): Promise<StructuredOutcome> {
    const notes: string[] = [];
    let tokensUsed = 0;
    for (let m = this.learnedMode(); m < OUTPUT_MODES.length; m++) {
      const mode = OUTPUT_MODES[m]!;
      const sent = await this.send(requestBody(request, mode, this.options.model));
      tokensUsed += sent.tokensUsed;
      if (!sent.completion) {
        if (!sent.refused) return { ok: false, reason: `language model unavailable (${sent.failures.join(', then ')})`, tokensUsed, notes };
        this.learn(m + 1);
        notes.push(`the server refused ${mode} (${sent.failures.at(-1)}); trying ${OUTPUT_MODES[m + 1] ?? 'nothing else'}`);
        continue;
      }
      const message = sent.completion.choices[0]?.message;
      const call = message?.tool_calls?.find((c) => c.type === 'function' && c.function.name === request.name);
      if (call?.type === 'function') return { ok: true, json: call.function.arguments, mode, tokensUsed, notes };
      // A model that ignores tools or the schema may still have written the object as text.
      const json = extractJsonObject(message?.content ?? '');
      if (json !== undefined) return { ok: true, json, mode, tokensUsed, notes };
      if (mode === 'tools') notes.push(`the model answered without calling ${request.name}`);
      else notes.push(`no JSON object in the ${mode} reply`);
      if (m + 1 < OUTPUT_MODES.length) this.learn(m + 1);
    }
    return { ok: false, reason: notes.at(-1) ?? 'no usable reply', tokensUsed, notes };
  }

  /** Plain text (for prose), with one retry after a transient failure. */
  async text(system: string, user: string, maxTokens: number): Promise<TextOutcome> {
    const sent = await this.send({
      model: this.options.model,
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: user },
      ],
      temperature: 0,
      max_tokens: maxTokens,
    });
    const text = sent.completion?.choices[0]?.message.content;
    if (typeof text === 'string' && text.trim() !== '') return { ok: true, text: text.trim(), tokensUsed: sent.tokensUsed };
    return { ok: false, reason: sent.completion ? 'empty reply' : `language model unavailable (${sent.failures.join(', then ')})`, tokensUsed: sent.tokensUsed };
  }

  /** The first mode to try now: the remembered one while it is fresh, else tools again. */
  private learnedMode(): number {
    return Date.now() - this.learned.at < this.relearnAfterMs ? this.learned.mode : 0;
  }

  private learn(mode: number): void {
    this.learned = { mode: Math.min(Math.max(mode, this.learnedMode()), OUTPUT_MODES.length - 1), at: Date.now() };
  }

  private async send(body: Record<string, unknown>): Promise<{ completion?: Completion; tokensUsed: number; failures: string[]; refused: boolean }> {
    const failures: string[] = [];
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      try {
        const completion = (await this.client.chat.completions.create(body as unknown as OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming)) as Completion;
        return { completion, tokensUsed: completion.usage?.total_tokens ?? 0, failures, refused: false };
      } catch (error) {
        failures.push(describeLlmError(error));
        if (refusesMode(error)) return { tokensUsed: 0, failures, refused: true };
        if (!transient(error)) break;
      }
    }
    return { tokensUsed: 0, failures, refused: false };
  }
}
