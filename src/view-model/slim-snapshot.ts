/**
 * The snapshot the editor posts to the panel, slimmed: a finished call's input JSON, output and diff hunks
 * stay in the host (the row shows its name, summary, status and "+a −b" without them); the panel asks for
 * them when the user opens the row (`node_detail`). A 50,000-call session's snapshot then clones and parses
 * in a fraction of the time (the structured clone of the whole graph took ~0.5 s). The state is not changed.
 */
import { isOpenCall, type SessionViewState, type ToolCallNode, type ViewNode } from './types';

/** A shallow copy of `state` whose finished tool nodes carry no input, output or hunks (`detailOmitted`). */
export function slimSnapshot(state: SessionViewState): SessionViewState {
  const nodes: Record<string, ViewNode> = {};
  for (const [id, node] of Object.entries(state.nodes)) nodes[id] = node.kind === 'tool' && !isOpenCall(node) ? slimTool(node) : node;
  return { ...state, nodes };
}

/** A finished call as the slim snapshot has it (snapshot-codec.ts writes the few its table cannot hold this way). */
export function slimTool(node: ToolCallNode): ToolCallNode {
  const { inputJson: _input, output: _output, permissionReason: _reason, fullOutputPath: _path, change, ...rest } = node;
  const slim: ToolCallNode = { ...rest, inputJson: '', detailOmitted: true };
  if (change) slim.change = slimChange(change);
  return slim;
}

/** A call's change without its hunks: the row's "+a −b" stays. */
export function slimChange(change: NonNullable<ToolCallNode['change']>): NonNullable<ToolCallNode['change']> {
  const { diff: _diff, diffTruncated: _cut, ...counts } = change;
  return counts;
}
