#!/bin/bash
# slotdiff.sh B3C WORKDIR FIRST LAST: the gen_slots.py programs of seeds
# FIRST..LAST, compiled at -O0, -O1 and -O2 (--verify-each), must print the
# same.  A failing seed's files stay in WORKDIR/sSEED.
B3C=$1
W=$2
GEN=$(dirname "$0")/gen_slots.py
shift 2
fail=0
for s in $(seq $1 $2); do
  d=$W/s$s; rm -rf $d; python3 $GEN $s $d || { echo "gen $s failed"; fail=$((fail+1)); continue; }
  cc -O1 -c -o $d/driver.o $d/driver.c
  for o in O0 O1 O2; do
    if ! $B3C -$o --verify-each $d/prog.b3 -o $d/$o.o 2> $d/$o.err; then echo "seed $s: b3c -$o failed: $(head -2 $d/$o.err)"; fail=$((fail+1)); continue 2; fi
    cc -o $d/$o $d/driver.o $d/$o.o && timeout 10 $d/$o > $d/$o.out || { echo "seed $s: run -$o failed"; fail=$((fail+1)); continue 2; }
  done
  if ! cmp -s $d/O0.out $d/O1.out || ! cmp -s $d/O0.out $d/O2.out; then echo "seed $s: MISMATCH"; fail=$((fail+1)); else rm -rf $d; fi
done
echo "seeds $1..$2: $fail failures"
