#!/bin/sh
# line-addr.sh OBJ EXE SYMBOL LINE
# Prints the address, in the linked EXE, one byte into the code of the first
# row of OBJ's line table for LINE (an address inside that line's code, not
# at a row boundary).  SYMBOL, defined in OBJ, locates OBJ's .text in EXE.
set -eu
obj=$1 exe=$2 sym=$3 line=$4
off=$(llvm-dwarfdump --debug-line "$obj" | awk -v l="$line" '$1 ~ /^0x/ && $2 == l { print $1; exit }')
osym=$(nm "$obj" | awk -v s="$sym" '$3 == s { print $1 }')
esym=$(nm "$exe" | awk -v s="$sym" '$3 == s { print $1 }')
if [ -z "$off" ] || [ -z "$osym" ] || [ -z "$esym" ]; then
    echo "line-addr.sh: no row for line $line or no symbol $sym" >&2
    exit 1
fi
printf '0x%x\n' $((0x$esym - 0x$osym + off + 1))
