/**
 * Work-arounds for @vscode-elements/elements 2.5.1 vscode-tree at thousands of items.
 *
 * 1. Every children-slot change of any tree-item calls `tree.updateHasBranchItemFlag()`, which
 *    replaces the tree's context object even when `hasBranchItem` did not change; @lit/context then
 *    re-renders EVERY item of the tree. Appending rows to a 5,000-row task cost a full re-render of
 *    all rows per frame. The patched method only replaces the context when the flag really changes.
 * 2. The same slot change re-stamps every child's `path` (a new array), `level` and `data-path`
 *    attribute (initPathTrackerProps): O(children) allocations and attribute writes per frame that
 *    appends a row. The patched handler does the same, but only for children whose place changed
 *    (appending rows touches the new ones only).
 */
import { VscodeTree } from '@vscode-elements/elements/dist/vscode-tree/vscode-tree.js';
import { VscodeTreeItem } from '@vscode-elements/elements/dist/vscode-tree-item/vscode-tree-item.js';

interface TreeInternals {
  _assignedTreeItems: VscodeTreeItem[];
  _treeContextState: { hasBranchItem: boolean };
  updateHasBranchItemFlag(): void;
}

/** A child as the slot handler sees it: its place in the tree. */
interface PlacedItem {
  path: number[];
  level: number;
  dataset: DOMStringMap;
}

interface TreeItemInternals extends PlacedItem {
  branch: boolean;
  _childrenTreeItems: PlacedItem[];
  _treeContextState: { rootElement: TreeInternals | null };
  _handleChildrenSlotChange(): void;
}

/** True when `path` is `parent` followed by `index`. */
function isPathAt(path: readonly number[], parent: readonly number[], index: number): boolean {
  if (path.length !== parent.length + 1 || path[parent.length] !== index) return false;
  for (let i = 0; i < parent.length; i++) if (path[i] !== parent[i]) return false;
  return true;
}

export function patchVscodeTree(): void {
  const proto = VscodeTree.prototype as unknown as TreeInternals;
  proto.updateHasBranchItemFlag = function patched(this: TreeInternals): void {
    const hasBranchItem = this._assignedTreeItems.some((item) => item.branch);
    if (hasBranchItem !== this._treeContextState.hasBranchItem) {
      this._treeContextState = { ...this._treeContextState, hasBranchItem };
    }
  };
  const itemProto = VscodeTreeItem.prototype as unknown as TreeItemInternals;
  itemProto._handleChildrenSlotChange = function patched(this: TreeItemInternals): void {
    const items = this._childrenTreeItems;
    const level = this.level + 1;
    this.branch = items.length > 0;
    items.forEach((item, i) => {
      if (item.level === level && isPathAt(item.path, this.path, i)) return;
      item.path = [...this.path, i];
      item.level = level;
      item.dataset.path = item.path.join('.');
    });
    this._treeContextState.rootElement?.updateHasBranchItemFlag();
  };
}
