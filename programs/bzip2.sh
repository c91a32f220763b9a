# bzip2: libbz2 (shared, -fPIC) and the bzip2 program built by its own
# Makefile, its `make test` checks (the three samples compressed at -1..-3
# and decompressed, each compared with the reference), and a round trip of a
# 20 MB file.
PROGRAM_SOURCE=bzip2
PROGRAM_ARM64=yes
ar=ar
[ "$TARGET" = x86_64-linux-gnu ] || ar=$TARGET-ar
make -j2 CC="$CC" AR=$ar RANLIB=$ar\ s CFLAGS="-Wall $LEVEL -g -D_FILE_OFFSET_BITS=64" libbz2.a bzip2 bzip2recover
# `make test`'s checks, run through $RUN.
export LD_LIBRARY_PATH=.
$RUN ./bzip2 -1 < sample1.ref > sample1.rb2
$RUN ./bzip2 -2 < sample2.ref > sample2.rb2
$RUN ./bzip2 -3 < sample3.ref > sample3.rb2
$RUN ./bzip2 -d < sample1.bz2 > sample1.tst
$RUN ./bzip2 -d < sample2.bz2 > sample2.tst
$RUN ./bzip2 -ds < sample3.bz2 > sample3.tst
cmp sample1.bz2 sample1.rb2
cmp sample2.bz2 sample2.rb2
cmp sample3.bz2 sample3.rb2
cmp sample1.tst sample1.ref
cmp sample2.tst sample2.ref
cmp sample3.tst sample3.ref
# A 20 MB round trip: text-like data that compresses, then the bytes compared.
seq 1 2500000 | sed 's/$/ bzip2 round trip line/' | head -c 20000000 > big
$RUN ./bzip2 -9 < big > big.bz2
$RUN ./bzip2 -d < big.bz2 > big.out
cmp big big.out
$RUN ./bzip2 -t big.bz2
ls -l big big.bz2
