// The shared library of import/exec/tls.c (compiled with -fPIC): a
// preemptible thread-local (general-dynamic) and a hidden one
// (local-dynamic), kept equal.
_Thread_local long lib_counter = 1000;
static _Thread_local long lib_hidden = 1000;

long lib_bump(long n) {
    lib_hidden += n;
    return lib_hidden + lib_counter - lib_counter;
}
