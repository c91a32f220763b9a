# xz-utils: liblzma and xz by the package's configure and make, then its own
# `make check` (the unit tests of liblzma and the test_files.sh,
# test_compress.sh and test_scripts.sh scripts on the bundled test files).
PROGRAM_SOURCE=xz-utils
./configure CC="$CC" CFLAGS="$LEVEL -g" --disable-shared --disable-nls --disable-doc
make -j2
make -j2 check
