// Hostile input stopped once, at the edge, before any route validates or uses it:
// - U+0000 (NUL) in a string or property name of the body, the query string or the path. PostgreSQL
//   and PGlite cannot store it in text, so without this check any field that reaches the store (an
//   e-mail at sign-in, a key name, a connection setting, a project slug in the path) was a 500.
// - A lone surrogate (a JSON escape such as "\ud800" without its pair): not Unicode, so it cannot be
//   encoded as UTF-8. A JSON column refuses it (a 500); a text column silently stores U+FFFD instead.
// - JSON bodies nested deeper than MAX_JSON_DEPTH. Validation walks bodies recursively, so a 10 KB
//   body nested 1,000 deep overflowed the stack; this check walks with an explicit stack instead.
// Both answer 400 naming the field. Headers are left to Node's HTTP parser, which refuses NUL and
// other control characters in them before a request exists; none is stored as text anyway.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { BadRequestError } from '../core/errors.js';

/** Objects and arrays inside each other, counting the outermost; generous for every route we have. */
export const MAX_JSON_DEPTH = 64;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Top-level body fields left to the route: it must record them as sent (a raw SQL statement goes
     * to the query history even when refused), and refuses them itself (the read-only guard refuses NUL).
     */
    rawTextFields?: readonly string[];
  }
}

type Segment = string | number;
type Part = 'body' | 'querystring' | 'params';
interface Frame {
  value: unknown;
  depth: number;
  parent: Frame | undefined;
  key: Segment | undefined;
}
type BadCharacter = 'nul' | 'surrogate';
type Problem = { kind: BadCharacter; at: Frame; inKey: string | undefined } | { kind: 'depth'; at: Frame };

export const inputGuardPlugin = fp(
  async (app: FastifyInstance) => {
    // Callback-style: nothing here waits, and an async hook would cost every request a microtask turn.
    app.addHook('preValidation', (request: FastifyRequest, _reply, done) => {
      try {
        refuse('params', request.params);
        refuse('querystring', request.query);
        refuse('body', request.body, request.routeOptions.config?.rawTextFields);
      } catch (error) {
        done(error as Error);
        return;
      }
      done();
    });
  },
  { name: 'input-guard' },
);

function refuse(part: Part, value: unknown, rawTextFields: readonly string[] = []): void {
  const problem = findProblem(value, rawTextFields);
  if (!problem) return;
  if (problem.kind === 'depth') {
    throw new BadRequestError(
      `Invalid request: ${part} nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep (the limit is ${MAX_JSON_DEPTH})`,
      'nesting_too_deep',
      { limit: MAX_JSON_DEPTH },
    );
  }
  const where = fieldPath(part, segmentsOf(problem.at));
  const what = problem.inKey === undefined ? where : `the property name ${JSON.stringify(problem.inKey)} in ${where}`;
  const field = problem.inKey === undefined ? where : fieldPath(part, [...segmentsOf(problem.at), problem.inKey]);
  if (problem.kind === 'nul') {
    throw new BadRequestError(`Invalid request: ${what} contains the character U+0000 (NUL), which is not accepted`, 'nul_character', { field });
  }
  throw new BadRequestError(`Invalid request: ${what} contains a lone surrogate (half of a UTF-16 pair), which is not valid Unicode`, 'invalid_unicode', { field });
}

// eslint-disable-next-line no-control-regex -- NUL is what this looks for
const NUL = /\u0000/;
// In a `u` regex a lone surrogate is a code point of its own (category Cs); a proper pair is not.
const LONE_SURROGATE = /\p{Cs}/u;

function badCharacterIn(text: string): BadCharacter | undefined {
  if (NUL.test(text)) return 'nul';
  if (LONE_SURROGATE.test(text)) return 'surrogate';
  return undefined;
}

/** The first bad character or over-deep container, depth first; iterative so no input can exhaust the stack. */
function findProblem(root: unknown, rawTextFields: readonly string[]): Problem | undefined {
  const stack: Frame[] = [{ value: root, depth: 0, parent: undefined, key: undefined }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const { value } = frame;
    if (typeof value === 'string') {
      const bad = badCharacterIn(value);
      if (bad && !isRawText(frame, rawTextFields)) return { kind: bad, at: frame, inKey: undefined };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    const depth = frame.depth + 1;
    if (depth > MAX_JSON_DEPTH) return { kind: 'depth', at: frame };
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], depth, parent: frame, key: i });
      continue;
    }
    const keys = Object.keys(value);
    for (const key of keys) {
      const bad = badCharacterIn(key);
      if (bad) return { kind: bad, at: frame, inKey: key };
    }
    for (let i = keys.length - 1; i >= 0; i--) {
      stack.push({ value: (value as Record<string, unknown>)[keys[i]!], depth, parent: frame, key: keys[i]! });
    }
  }
  return undefined;
}

function isRawText(frame: Frame, rawTextFields: readonly string[]): boolean {
  return frame.parent !== undefined && frame.parent.parent === undefined && typeof frame.key === 'string' && rawTextFields.includes(frame.key);
}

function segmentsOf(frame: Frame): Segment[] {
  const segments: Segment[] = [];
  for (let at: Frame | undefined = frame; at?.key !== undefined; at = at.parent) segments.push(at.key);
  return segments.reverse();
}

/** `body.files[0].content`; a property name that is not an identifier is quoted: `body["a b"]`. */
export function fieldPath(part: string, segments: readonly Segment[]): string {
  let path = part;
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(segment)) path += `.${segment}`;
    else path += `[${JSON.stringify(segment)}]`;
  }
  return path;
}
