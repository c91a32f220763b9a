/* Unit test of ir/idf.c: pruned iterated dominance frontiers on thousands of
 * random CFGs (irreducible ones and unreachable blocks included) against a
 * brute-force reading of the definitions: DF(x) = {y : some predecessor of y
 * is dominated by x, and x does not strictly dominate y}, the IDF its least
 * fixpoint over the definitions, kept where the variable is live on entry.
 *
 * Built directly from the sources (see ir-idf.test). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/dominators.h"
#include "ir/idf.h"
#include "ir/ir.h"

static int failures;

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(uint32_t n) {
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33) % n;
}

static const B3Target x86 = {B3Arch_X86_64, B3OS_Linux, 0, 0};

/* A procedure of n blocks with random edges (mostly forward, some back). */
static B3Proc *random_cfg(B3Module *m, uint32_t n) {
    B3Symbol *sym = b3_symbol_get(m, "f", 1, NULL);
    B3Proc *p = b3_proc_new(m, sym);
    for (uint32_t i = 0; i < n; i++)
        b3_block_new(m, p, i);
    for (uint32_t i = 0; i < n; i++) {
        B3Block *b = p->blocks[i];
        uint32_t k = i + 1 == n ? rnd(2) : 1 + rnd(3);
        b->succs = b3_arena_alloc(&m->arena, (k ? k : 1) * sizeof(B3Succ));
        b->nsuccs = k;
        for (uint32_t j = 0; j < k; j++) {
            uint32_t t = rnd(4) ? i + 1 + rnd(4) : rnd(n); /* forward, or anywhere */
            b->succs[j] = (B3Succ){p->blocks[t < n ? t : n - 1], B3Freq_Normal};
        }
    }
    b3_proc_compute_preds(m, p);
    return p;
}

static void check_one(B3Proc *p, const B3Dominators *dom, B3IDF *idf) {
    uint32_t n = p->nblocks;
    bool *is_def = calloc(n, 1), *is_use = calloc(n, 1), *live = calloc(n, 1), *in_idf = calloc(n, 1);
    B3Block **defs = malloc(2 * n * sizeof(B3Block *)), **lives = malloc(n * sizeof(B3Block *));
    uint32_t ndefs = 0, nlive = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!rnd(4)) {
            is_def[i] = true;
            defs[ndefs++] = p->blocks[i];
            if (!rnd(3))
                defs[ndefs++] = p->blocks[i]; /* duplicates are allowed */
        }
        is_use[i] = !rnd(3); /* read before any write in the block */
    }
    /* Live on entry: a read, or a path to one through blocks that do not write. */
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t i = 0; i < n; i++) {
            bool l = is_use[i];
            for (uint32_t k = 0; k < p->blocks[i]->nsuccs && !l; k++)
                l = !is_def[i] && live[p->blocks[i]->succs[k].block->pos];
            if (l && !live[i]) {
                live[i] = changed = true;
                if (b3_block_reachable(dom, p->blocks[i]))
                    lives[nlive++] = p->blocks[i];
            }
        }
    }
    /* Brute force: the IDF of the reachable definitions, to a fixpoint. */
    bool *src = calloc(n, 1);
    for (uint32_t i = 0; i < n; i++)
        src[i] = is_def[i] && b3_block_reachable(dom, p->blocks[i]);
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t x = 0; x < n; x++) {
            if (!src[x])
                continue;
            for (uint32_t y = 0; y < n; y++) {
                const B3Block *by = p->blocks[y];
                if (in_idf[y] || !b3_block_reachable(dom, by) || b3_strictly_dominates(dom, p->blocks[x], by))
                    continue;
                for (uint32_t k = 0; k < by->npreds; k++)
                    if (b3_block_reachable(dom, by->preds[k]) &&
                        b3_dominates(dom, p->blocks[x], by->preds[k])) {
                        in_idf[y] = src[y] = changed = true;
                        break;
                    }
            }
        }
    }
    B3Block *const *out;
    uint32_t nout = b3_idf_compute(idf, defs, ndefs, lives, nlive, &out);
    bool *got = calloc(n, 1);
    for (uint32_t i = 0; i < nout; i++) {
        if (got[out[i]->pos]) {
            fprintf(stderr, "FAILED: #%u reported twice\n", out[i]->index);
            failures++;
        }
        got[out[i]->pos] = true;
    }
    for (uint32_t i = 0; i < n; i++)
        if (got[i] != (in_idf[i] && live[i])) {
            fprintf(stderr, "FAILED: %u blocks: #%u %s the pruned IDF\n", n, i,
                    got[i] ? "is not in" : "is missing from");
            failures++;
        }
    free(is_def), free(is_use), free(live), free(in_idf), free(defs), free(lives), free(src), free(got);
}

int main(int argc, char **argv) {
    uint32_t rounds = argc > 1 ? (uint32_t)atoi(argv[1]) : 2000;
    for (uint32_t r = 0; r < rounds; r++) {
        B3Module m;
        b3_module_init(&m, x86);
        B3Proc *p = random_cfg(&m, 1 + rnd(r % 10 == 0 ? 200 : 24));
        B3Dominators dom;
        b3_dominators_compute(&dom, p);
        B3IDF idf;
        b3_idf_init(&idf, p, &dom);
        for (uint32_t q = 0; q < 4; q++) /* queries share the arrays */
            check_one(p, &dom, &idf);
        b3_idf_free(&idf);
        b3_dominators_free(&dom);
        b3_module_free(&m);
    }
    printf("idf: %u random CFGs, %d failures\n", rounds, failures);
    return failures != 0;
}
