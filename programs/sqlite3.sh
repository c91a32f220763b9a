# SQLite: the library (the amalgamation its build makes) and the sqlite3
# shell built with CC at LEVEL; speedtest1 (test/speedtest1.c, with its
# verification hash) and the SQL scripts in programs/data/sqlite3/ run, and
# their output must match that of a gcc build of the same source.
PROGRAM_SOURCE=sqlite3
[ "$TARGET" = x86_64-linux-gnu ] || exit 77
# The options of Debian's build (debian/rules) that change what runs.
defs="-DSQLITE_THREADSAFE=1 -DSQLITE_ENABLE_FTS3 -DSQLITE_ENABLE_FTS3_PARENTHESIS -DSQLITE_ENABLE_RTREE=1
 -DSQLITE_SOUNDEX=1 -DSQLITE_ENABLE_DBSTAT_VTAB -DSQLITE_ENABLE_UPDATE_DELETE_LIMIT=1
 -DSQLITE_ENABLE_JSON1 -DSQLITE_ENABLE_MATH_FUNCTIONS -DSQLITE_ENABLE_STMTVTAB
 -DSQLITE_ENABLE_COLUMN_METADATA -DSQLITE_ENABLE_SERIES"
# The build system makes the amalgamation (lemon, mkkeywordhash and the other
# build tools are compiled with CC too) and the shell's source.
start=$SECONDS
CC="$CC" CFLAGS="$LEVEL -g" ./configure --disable-tcl --disable-readline --enable-static > configure.log
make -j2 sqlite3.c shell.c sqlite3.h
build() { # build DIR COMPILER FLAGS...
    local d=$1 cc=$2
    shift 2
    mkdir -p "$d"
    $cc "$@" $defs -I. -c sqlite3.c -o "$d/sqlite3.o" &
    $cc "$@" $defs -I. -c shell.c -o "$d/shell.o"
    $cc "$@" $defs -I. -c test/speedtest1.c -o "$d/speedtest1.o"
    wait $!
    $cc -o "$d/sqlite3" "$d/shell.o" "$d/sqlite3.o" -lm -ldl -lpthread
    $cc -o "$d/speedtest1" "$d/speedtest1.o" "$d/sqlite3.o" -lm -ldl -lpthread
}
build b3cc "$CC" $LEVEL -g
echo "b3cc build: $((SECONDS - start))s"
build ref gcc -O1 -g
fail=0
# speedtest1: each test set at a small size (seconds at -O0), with its result hash (--verify).
for t in main cte orm fp rtree; do
    size=10
    [ $t = main ] && size=30
    for d in ref b3cc; do
        start=$SECONDS
        $RUN ./$d/speedtest1 --memdb --size $size --testset $t --verify > st-$t.$d 2>&1 ||
            echo "exit status $?" >> st-$t.$d
        echo "$d speedtest1 --testset $t: $((SECONDS - start))s"
        # The timings differ, the tests and the hash must not.
        sed -i 's/ *[0-9]*\.[0-9]*s$//' st-$t.$d
    done
    if cmp -s st-$t.ref st-$t.b3cc && grep -q '^Verification Hash' st-$t.ref; then
        echo "ok: speedtest1 $t: $(grep '^Verification Hash' st-$t.ref)"
    else
        echo "FAIL: speedtest1 $t differs from the gcc build's"
        diff st-$t.ref st-$t.b3cc | head -20
        fail=1
    fi
done
for f in "$HERE"/programs/data/sqlite3/*.sql; do
    n=$(basename "$f" .sql)
    for d in ref b3cc; do
        rm -f "$n.db"
        $RUN ./$d/sqlite3 "$n.db" < "$f" > "$n.$d" 2>&1 || echo "exit status $?" >> "$n.$d"
    done
    if cmp -s "$n.ref" "$n.b3cc"; then
        echo "ok: $n.sql ($(wc -l < "$n.ref") lines)"
    else
        echo "FAIL: $n.sql differs from the gcc build's output"
        diff "$n.ref" "$n.b3cc" | head -20
        fail=1
    fi
done
exit $fail
