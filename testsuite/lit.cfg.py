# lit configuration for b3c.  Run through `make check` (scripts/check.sh).
import os
import platform
import lit.formats

# Each setting comes from a site configuration when scripts/check.sh runs
# several configurations (target x level) in one lit run — it writes
# <exec root>/<config>/lit.site.cfg.py, which sets config.b3c_<setting> and
# loads this file — or else from the environment (B3C_TARGET, ...), for lit
# run by hand on testsuite/.
def setting(name):
    value = getattr(config, 'b3c_' + name.lower(), None)
    return value if value is not None else os.environ.get('B3C_' + name, '')

config.name = 'b3c' + (('-' + setting('CONFIG')) if setting('CONFIG') else '')
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = ['.b3', '.test']
config.excludes = ['Inputs', 'lit.cfg.py', 'fuzz']
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(config.test_source_root)
config.test_exec_root = setting('TEST_EXEC_ROOT') or os.path.join(root, 'build', 'testsuite')

b3c = getattr(config, 'b3c_bin', None) or os.environ.get('B3C') or os.path.join(root, 'b3c')
# B3C_LEVEL (e.g. -O0): run the suite's programs at another optimization
# level; a test's own -O flag comes later on the command line and wins.
level = setting('LEVEL')

# B3C_TARGET (e.g. aarch64-linux-gnu): build the suite's programs for another
# target.  Default: the host.  b3c's own default is x86_64-linux-gnu, so only
# another target adds --target= (the x86-64 command lines stay as they were).
# A program for a foreign target is linked by the Debian cross compiler and
# run under qemu-user with the cross sysroot as its library path.
# B3C_EMULATE=1 runs even native programs under qemu (to measure its cost).
B3C_DEFAULT_TARGET = 'x86_64-linux-gnu'
host_arch = {'amd64': 'x86_64', 'arm64': 'aarch64'}.get(platform.machine().lower(), platform.machine().lower())
target = setting('TARGET') or host_arch + '-linux-gnu'
target_arch = target.split('-')[0]
target_arch = {'arm64': 'aarch64', 'amd64': 'x86_64'}.get(target_arch, target_arch)
if target_arch not in ('x86_64', 'aarch64'):
    lit_config.fatal('B3C_TARGET=%s: b3c targets x86_64 and aarch64 (Linux) and x86_64, arm64 (macOS)' % target)
# An Apple target (x86_64-apple-macos, arm64-apple-macos13, ...): b3c writes
# Mach-O; %cc (testsuite/macho/Inputs/macho_cc.py) links the C driver for the
# Linux host of the same architecture with a loader that maps the object at
# startup (proof 3), and links it for macOS with ld64.lld (proof 2).  See
# docs/testing.md, "Apple targets".
apple = '-apple-' in target
if not apple:
    target = target_arch + '-linux-gnu'
native = target_arch == host_arch
b3c_cmd = b3c + ('' if target == B3C_DEFAULT_TARGET else ' --target=' + target)
# %b3c-bin: the program alone, for tools that add their own flags (difftest
# takes --target=%target); before %b3c, which would match its prefix.
# %b3c-llvm-so: the LLVM-IR front end beside it (install.test keeps make
# from rebuilding it); like %b3c-bin, before %b3c, a prefix of both.
config.substitutions.append(('%b3c-llvm-so', os.path.join(os.path.dirname(b3c), 'b3c-llvm.so')))
config.substitutions.append(('%b3c-bin', b3c))
config.substitutions.append(('%b3c', b3c_cmd + (' ' + level if level else '')))
sysroot = '/usr/' + target_arch + '-linux-gnu'  # the Linux host's, for an Apple target too
cc = 'cc' if native else target + '-gcc'
run = ''
if not native or os.environ.get('B3C_EMULATE'):
    # -cpu max: every extension qemu emulates (the LSE atomics of -mattr=+lse).
    run = 'qemu-%s%s -L %s' % (target_arch, ' -cpu max' if target_arch == 'aarch64' else '',
                               sysroot if not native else '/')
# %cc: the target's C compiler (links the drivers); %run: prefix that runs
# one of its programs ('' when native).  Host tools (unit tests, b3c itself)
# keep plain `cc`.
if apple:
    # -S: no site packages, a faster start (a wrapper runs for every link)
    cc = 'python3 -S %s --target=%s' % (os.path.join(os.path.dirname(__file__), 'macho', 'Inputs', 'macho_cc.py'),
                                        target)
else:
    # Drivers compiled once per compiler, flags and preprocessed source
    # (Inputs/cc_cache.py; macho_cc.py uses the same cache).
    cc = 'python3 -S %s %s' % (os.path.join(config.test_source_root, 'Inputs', 'cc_cache.py'), cc)
config.environment['B3C_CC_CACHE'] = os.path.join(root, 'build', 'cc-cache')
# The levels of the difftest smoke: one for an Apple target, whose links cost more.
config.substitutions.append(('%difftest-opts', '-O2' if apple else '-O0,-O1,-O2'))
# The programs of difftest/smoke.test: fewer for an Apple target, for the same reason.
config.substitutions.append(('%difftest-n', '8' if apple else '24'))
config.substitutions.append(('%cc', cc))
# %b3cc: the C driver (B3CC, else the checkout's b3cc), building for the
# configuration's target; %b3cc-bin: the same for the host, whatever the
# configuration (testsuite/b3cc).  Both run the b3c under test (B3CC_B3C).
# First in the list: %b3c would match their prefix.
b3cc = os.environ.get('B3CC') or os.path.join(root, 'b3cc')
config.environment['B3CC_B3C'] = b3c
config.substitutions.insert(0, ('%b3cc-bin', b3cc))
config.substitutions.insert(1, ('%b3cc', b3cc + ('' if native else ' --target=' + target)))
config.substitutions.append(('%run', run))
# %target names per-target inputs (exec/Inputs/calls-incoming.%target.b3)
# and difftest's --target: an Apple target's without its OS version.
config.substitutions.append(('%target', target if not apple else
                             ('arm64' if target_arch == 'aarch64' else 'x86_64') + '-apple-macos'))
config.available_features.add(target_arch)
# elf / macho: the target's object format.  apple-arm64: arm64 macOS, whose
# calling convention differs from the Linux driver's for variadic arguments
# (always on the stack) and stack arguments (packed by size): a test whose
# driver and b3 code call each other that way says UNSUPPORTED: apple-arm64.
config.available_features.add('macho' if apple else 'elf')
if apple and target_arch == 'aarch64':
    config.available_features.add('apple-arm64')
# cross-aarch64: the arm64 cross compiler and qemu are installed, so a test
# may build and run for arm64 beside the host (testsuite/cross).
import shutil
if shutil.which('aarch64-linux-gnu-gcc') and shutil.which('qemu-aarch64'):
    config.available_features.add('cross-aarch64')
if native:
    config.available_features.add('target-native')
# %cxx / feature cxx: the target's C++ compiler (g++; for arm64 the Debian
# cross g++-aarch64-linux-gnu), for drivers that throw through b3c frames.
cxx = 'c++' if native else target + '-g++'
if not apple and shutil.which(cxx.split()[0]):
    config.available_features.add('cxx')
config.substitutions.append(('%cxx', cxx))
# A target program started by a helper script under qemu finds its libraries.
if run:
    config.environment['QEMU_LD_PREFIX'] = sysroot if not native else '/'

# `make check-sanitize`: b3c is built with ASan + UBSan.  Tests that measure
# the compiler (time, memory) say `UNSUPPORTED: sanitized`.
if setting('SANITIZED'):
    config.available_features.add('sanitized')
    # lit runs tests in a clean environment: pass on the sanitizer options.
    for var in ('ASAN_OPTIONS', 'UBSAN_OPTIONS', 'LSAN_OPTIONS'):
        if var in os.environ:
            config.environment[var] = os.environ[var]
# `make check-long` (B3C_LONG=1): the sweeps over every program, generator
# or level say `REQUIRES: long` and run there, keeping `make check` under
# three minutes; CI runs both (docs/testing.md).
if setting('LONG'):
    config.available_features.add('long')
config.substitutions.append(('%inputs', os.path.join(config.test_source_root, 'Inputs')))

# The LLVM-IR front end (testsuite/import): feature llvm-import when
# b3c-llvm.so is beside the b3c under test (the sanitized one beside
# build-san/b3c), feature clang-16 when clang-16 is installed.  %clang:
# clang-16 for the configuration's target (the bitcode's triple must match
# b3c's --target).  testsuite/import/lit.local.cfg makes its tests
# UNSUPPORTED without both.
if os.path.exists(os.path.join(os.path.dirname(b3c), 'b3c-llvm.so')):
    config.available_features.add('llvm-import')
if shutil.which('clang-16'):
    config.available_features.add('clang-16')
config.substitutions.append(('%clang', 'clang-16 --target=' + target))

llvm_bin = '/usr/lib/llvm-14/bin'
path = config.environment.get('PATH', os.environ.get('PATH', ''))
config.environment['PATH'] = os.pathsep.join([llvm_bin, path])
for var in ('HOME', 'TMPDIR'):
    if var in os.environ:
        config.environment[var] = os.environ[var]
