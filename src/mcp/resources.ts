// Resources an agent may read: the live model's CML files (what every metric and field is defined as)
// and each reveal's metric definitions (get_metrics' answer as a document). Read from the caller's
// workspace, whatever its key's scopes beyond models:read.
import { ErrorCode, McpError, type ReadResourceResult, type Resource } from '@modelcontextprotocol/sdk/types.js';
import { grantedScopes, type Principal } from '../identity/principal.js';
import { revealMetrics } from '../modeling/catalog-views.js';
import type { Services } from '../services.js';

const CML_PREFIX = 'cml:///';
const REVEAL_PREFIX = 'reveal:///';

function requireCatalog(principal: Principal): void {
  if (!grantedScopes(principal).includes('models:read')) throw new McpError(ErrorCode.InvalidRequest, 'Resources need a key with the models:read scope');
}

export async function listResources(services: Services, principal: Principal): Promise<Resource[]> {
  if (!grantedScopes(principal).includes('models:read')) return [];
  const live = await services.models.live(principal.workspace.id);
  const files: Resource[] = [...live.files.keys()].sort().map((path) => ({ uri: `${CML_PREFIX}${path}`, name: path, title: `CML file ${path}`, mimeType: 'text/plain' }));
  const reveals: Resource[] = [...live.model.reveals.keys()].sort().map((name) => ({ uri: `${REVEAL_PREFIX}${name}/metrics`, name: `${name} metrics`, title: `Metric definitions of ${name}`, mimeType: 'application/json' }));
  return [...files, ...reveals];
}

export async function readResource(services: Services, principal: Principal, uri: string): Promise<ReadResourceResult> {
  requireCatalog(principal);
  const live = await services.models.live(principal.workspace.id);
  if (uri.startsWith(CML_PREFIX)) {
    const file = live.files.get(uri.slice(CML_PREFIX.length));
    if (file) return { contents: [{ uri, mimeType: 'text/plain', text: file.content }] };
  }
  const reveal = /^reveal:\/\/\/(.+)\/metrics$/.exec(uri)?.[1];
  if (reveal && live.model.reveals.has(reveal)) {
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(revealMetrics(live.model, reveal)) }] };
  }
  // -32002 is the code the MCP specification gives a resource that does not exist.
  throw new McpError(-32002, `Resource not found: ${uri}`);
}
