// Whether a saved query still makes sense on a model: its node exists and every field, filter and sort
// resolves, and so do its comparison, shares and ratios. The compiler is the judge (one set of rules for
// runs and saves); it compiles with every data key open, since a scene's validity must not depend on who
// saves it.
import { AppError, BadRequestError } from '../core/errors.js';
import { answerColumnsOf } from '../core/semantic/answer-columns.js';
import { ALL_ROWS } from '../core/semantic/compile.js';
import { FieldResolver } from '../core/semantic/fields.js';
import type { SemanticModel } from '../core/semantic/model.js';
import { DIALECTS } from '../core/sql/dialects.js';
import type { SavedQuery, Visualization } from './scene-definition.js';

const EVERY_ROW: Readonly<Record<string, string>> = new Proxy({}, { get: () => ALL_ROWS });

/** Why the query does not compile on `model` (naming the unknown node or field), or undefined when it does. */
export function sceneProblem(model: SemanticModel, node: string, query: SavedQuery, visualization?: Visualization): string | undefined {
  if (!model.nodes.has(node)) return `Unknown node "${node}"`;
  let columns: readonly string[];
  try {
    columns = answerColumnsOf(model, { node, ...query }, { dialect: DIALECTS.duckdb, attributes: EVERY_ROW, now: new Date(0) }).map((c) => c.key);
  } catch (error) {
    if (error instanceof AppError && error.status < 500) return error.message;
    throw error;
  }
  if (visualization) {
    // A comparison's, share's or ratio's column (gross_revenue.change) may be drawn as a measure is.
    const fields = new Set(columns);
    const drawn = [visualization.x, ...(visualization.y ?? []), visualization.series, visualization.color].filter((f): f is string => f !== undefined);
    const stray = drawn.find((f) => !fields.has(f));
    if (stray) return `The visualization uses "${stray}", which is not among the scene's dimensions and measures (or the columns its compare, shares and per add)`;
  }
  return undefined;
}

/** Throws 400 naming the problem: for saves, where an invalid scene is refused. */
export function assertSceneValid(model: SemanticModel, node: string, query: SavedQuery, visualization?: Visualization): void {
  const problem = sceneProblem(model, node, query, visualization);
  if (problem) throw new BadRequestError(problem, 'invalid_scene');
}

/** Whether `field` (a dimension or measure id as queries name them) resolves on `node`. */
export function nodeHasField(model: SemanticModel, node: string, field: string): boolean {
  const base = model.nodes.get(node);
  if (!base) return false;
  const resolver = new FieldResolver(model, base);
  for (const attempt of [() => resolver.dimension(field), () => resolver.measure(field)]) {
    try {
      attempt();
      return true;
    } catch {
      // not this kind of field
    }
  }
  return false;
}
