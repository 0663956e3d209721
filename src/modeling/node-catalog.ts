// Nodes of the live model as the workspace API shows them: a stable id, the CML text that defines
// each node (its block, sliced from the deployed file), and when it was deployed.
import { sha256 } from '../crypto/digest.js';
import type { SemanticNode } from '../core/semantic/model.js';
import type { LiveModel } from './model-service.js';

export interface NodeEntry {
  id: string;
  name: string;
  project: string;
  /** The node's CML block. */
  content: string;
  deployedAt: Date;
}

/** A UUID derived from workspace and node name: the same node keeps its id across deploys. */
export function nodeId(workspaceId: string, name: string): string {
  const hex = sha256(`${workspaceId}\0node\0${name}`, 'hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function blockText(content: string, node: SemanticNode): string {
  const lines = content.split('\n');
  const { line, column, endLine, endColumn } = node.span;
  const picked = lines.slice(line - 1, endLine);
  if (picked.length === 0) return '';
  picked[picked.length - 1] = picked[picked.length - 1]!.slice(0, endColumn - 1);
  picked[0] = picked[0]!.slice(column - 1);
  return picked.join('\n');
}

export function nodesOfProject(live: LiveModel, workspaceId: string, project: string): NodeEntry[] {
  const entries: NodeEntry[] = [];
  for (const node of live.model.nodes.values()) {
    if (live.projectOf.get(node.name) !== project) continue;
    const file = live.files.get(node.file);
    entries.push({
      id: nodeId(workspaceId, node.name),
      name: node.name,
      project,
      content: file ? blockText(file.content, node) : '',
      deployedAt: file?.deployedAt ?? new Date(0),
    });
  }
  return entries.sort((a, b) => a.name.localeCompare(b.name));
}
