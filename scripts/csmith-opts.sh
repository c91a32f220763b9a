# The csmith options of scripts/csmith-diff.sh, csmith-reduce.sh and
# bench/cprograms.sh (sourced; docs/testing.md lists them): small programs
# (few functions, shallow blocks, short expressions) that build and run in
# well under a second each, with every feature csmith has on by default
# (structs, bit-fields, unions, packed structs, pointers, volatiles, 64-bit
# math).
CSMITH_OPTS=(--max-funcs 4 --max-block-depth 3 --max-block-size 4 --max-expr-complexity 8
    --max-array-dim 2 --max-struct-fields 6)
CSMITH_INC=${CSMITH_INC:-/usr/include/csmith}
