/* Orders of a procedure's reachable blocks (B3's blocksInPostOrder /
 * blocksInPreOrder).
 *
 * Depth-first from the root, successors in the order the terminal lists
 * them, with an explicit stack: procedures may have hundreds of thousands of
 * blocks.  Blocks are identified by position, so proc->blocks[i]->pos must
 * equal i.  Unreachable blocks are left out.  The arrays are malloc'd; the
 * caller frees them. */
#ifndef B3_CFG_ORDER_H
#define B3_CFG_ORDER_H

#include <stdint.h>

#include "ir/ir.h"

/* Each block after all of its DFS-tree successors (a loop's header after
 * its body).  Returns the count; *out gets the array. */
uint32_t b3_blocks_postorder(const B3Proc *p, B3Block ***out);
/* The reverse: each block before its successors except along back edges,
 * the order forward dataflow wants. */
uint32_t b3_blocks_reverse_postorder(const B3Proc *p, B3Block ***out);
/* Depth-first preorder: each block before the blocks first reached from it. */
uint32_t b3_blocks_preorder(const B3Proc *p, B3Block ***out);

#endif
