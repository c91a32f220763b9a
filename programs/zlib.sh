# zlib: the library, its `make test` programs (example, minigzip) and a round
# trip of a 20 MB file through minigzip.
PROGRAM_SOURCE=zlib
PROGRAM_ARM64=yes
host=
[ "$TARGET" = x86_64-linux-gnu ] || host=$TARGET
CC="$CC" CFLAGS="$LEVEL -g" CHOST=$host ./configure --static
make -j2 libz.a example minigzip
# `make test`'s two checks, run through $RUN.
echo hello world | $RUN ./minigzip | $RUN ./minigzip -d
$RUN ./example
# A 20 MB round trip: text-like data that compresses, then the bytes compared.
seq 1 2500000 | sed 's/$/ zlib round trip line/' | head -c 20000000 > big
$RUN ./minigzip -9 < big > big.gz
$RUN ./minigzip -d < big.gz > big.out
cmp big big.out
ls -l big big.gz
