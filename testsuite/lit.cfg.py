# lit configuration for b3c.  Run through `make check` (scripts/check.sh).
import os
import lit.formats

config.name = 'b3c'
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = ['.b3', '.test']
config.excludes = ['Inputs', 'lit.cfg.py', 'fuzz']
config.test_source_root = os.path.dirname(__file__)
root = os.path.dirname(config.test_source_root)
config.test_exec_root = os.environ.get('B3C_TEST_EXEC_ROOT', os.path.join(root, 'build', 'testsuite'))

b3c = os.environ.get('B3C', os.path.join(root, 'b3c'))
# B3C_LEVEL (e.g. -O0): run the suite's programs at another optimization
# level; a test's own -O flag comes later on the command line and wins.
level = os.environ.get('B3C_LEVEL', '')
config.substitutions.append(('%b3c', b3c + (' ' + level if level else '')))

# `make check-sanitize`: b3c is built with ASan + UBSan.  Tests that measure
# the compiler (time, memory) say `UNSUPPORTED: sanitized`.
if os.environ.get('B3C_SANITIZED'):
    config.available_features.add('sanitized')
    # lit runs tests in a clean environment: pass on the sanitizer options.
    for var in ('ASAN_OPTIONS', 'UBSAN_OPTIONS', 'LSAN_OPTIONS'):
        if var in os.environ:
            config.environment[var] = os.environ[var]
config.substitutions.append(('%inputs', os.path.join(config.test_source_root, 'Inputs')))

llvm_bin = '/usr/lib/llvm-14/bin'
path = config.environment.get('PATH', os.environ.get('PATH', ''))
config.environment['PATH'] = os.pathsep.join([llvm_bin, path])
for var in ('HOME', 'TMPDIR'):
    if var in os.environ:
        config.environment[var] = os.environ[var]
