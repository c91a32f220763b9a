# expat: the library and xmlwf by the package's autotools build (regenerated
# with autoreconf, as Debian does), then its own `make check`: runtests (365
# checks of the parser) and runtestspp (the same checks from C++, built by
# g++ against the b3cc-built library).
PROGRAM_SOURCE=expat
cd expat
autoreconf -fi > /dev/null 2>&1
./configure CC="$CC" CFLAGS="$LEVEL -g" --disable-shared --without-docbook
make -j2
make -j2 check
grep -h 'Checks:' tests/runtests.log tests/runtestspp.log
