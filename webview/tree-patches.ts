/**
 * Work-arounds for @vscode-elements/elements 2.5.1 vscode-tree at thousands of items.
 *
 * Every children-slot change of any tree-item calls `tree.updateHasBranchItemFlag()`, which
 * replaces the tree's context object even when `hasBranchItem` did not change; @lit/context then
 * re-renders EVERY item of the tree. Appending rows to a 5,000-row task cost a full re-render of
 * all rows per frame. The patched method only replaces the context when the flag really changes.
 */
import { VscodeTree } from '@vscode-elements/elements/dist/vscode-tree/vscode-tree.js';
import type { VscodeTreeItem } from '@vscode-elements/elements/dist/vscode-tree-item/vscode-tree-item.js';

interface TreeInternals {
  _assignedTreeItems: VscodeTreeItem[];
  _treeContextState: { hasBranchItem: boolean };
  updateHasBranchItemFlag(): void;
}

export function patchVscodeTree(): void {
  const proto = VscodeTree.prototype as unknown as TreeInternals;
  proto.updateHasBranchItemFlag = function patched(this: TreeInternals): void {
    const hasBranchItem = this._assignedTreeItems.some((item) => item.branch);
    if (hasBranchItem !== this._treeContextState.hasBranchItem) {
      this._treeContextState = { ...this._treeContextState, hasBranchItem };
    }
  };
}
