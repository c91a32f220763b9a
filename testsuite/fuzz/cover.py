#!/usr/bin/env python3
"""Picks a small fuzz corpus that keeps all the edge coverage of a big one.

    python3 testsuite/fuzz/cover.py COVER_FILE [--max N] [--small]

COVER_FILE comes from the coverage build of the replay driver
(`build/fuzz/cover/replay --cover COVER_FILE DIR...`, see fuzz.mk): one line
per input, its path, a tab, and the coverage edges it hits.

libFuzzer's own `-merge=1` keeps every input that adds a *feature* (edge
hit-count buckets too) in the order it meets them, which grows the corpus
into the thousands.  This is a greedy set cover over edges instead: prints
the paths to keep, one per line, first every hand-written seed (a file whose
name starts with "seed-", except the "seed-ts-" copies of lit tests that
testsuite/fuzz/import-tests.sh makes), then repeatedly the input that covers the most
edges not yet covered (the smaller file on a tie), until every edge is
covered or N files (default 500) are chosen.

--small weighs the gain by file size (edges not yet covered per square root
of the size): for the backend corpus, whose inputs are whole modules of up
to 16 KiB, it keeps about 92% of the edges in half the bytes.
"""
import argparse
import heapq
import os
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cover")
    ap.add_argument("--max", type=int, default=500)
    ap.add_argument("--small", action="store_true", help="prefer small files: gain / sqrt(size)")
    args = ap.parse_args()

    paths, edges = [], []
    with open(args.cover) as f:
        for line in f:
            path, _, rest = line.rstrip("\n").partition("\t")
            paths.append(path)
            edges.append(frozenset(map(int, rest.split())))

    def size(i):
        try:
            return os.path.getsize(paths[i])
        except OSError:
            return 1 << 30

    chosen, covered = [], set()
    for i, p in enumerate(paths):
        if os.path.basename(p).startswith("seed-") and not os.path.basename(p).startswith("seed-ts-"):
            chosen.append(i)
            covered |= edges[i]
    in_chosen = set(chosen)

    def score(gain, sz):
        return gain / (sz + 200) ** 0.5 if args.small else gain

    # Lazy greedy: a heap of (-score, size, index); a score can only shrink.
    heap = [(-score(len(e - covered), size(i)), size(i), i) for i, e in enumerate(edges) if i not in in_chosen]
    heapq.heapify(heap)
    while heap and len(chosen) < args.max:
        neg, sz, i = heapq.heappop(heap)
        gain = len(edges[i] - covered)
        if gain == 0:
            continue
        if score(gain, sz) != -neg:
            heapq.heappush(heap, (-score(gain, sz), sz, i))
            continue
        chosen.append(i)
        covered |= edges[i]

    total = frozenset().union(*edges) if edges else frozenset()
    print("cover: %d of %d inputs keep %d of %d edges" % (len(chosen), len(paths), len(covered), len(total)),
          file=sys.stderr)
    for i in chosen:
        print(paths[i])


if __name__ == "__main__":
    main()
