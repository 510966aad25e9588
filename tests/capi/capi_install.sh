#!/usr/bin/env bash
# The C API as a user gets it: `cmake --install` (component tcu_golden) into a
# temporary prefix, which is then moved (nothing may point back into the
# build tree), and the example C program (examples/capi) built against the
# moved copy twice, with pkg-config and with find_package(tcu-golden), and
# run. Also: the header compiles as C89, C99 and C++11.
#
#   capi_install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
source=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --component tcu_golden --prefix "$work/install" >/dev/null
mv "$work/install" "$work/moved"
prefix=$work/moved
if grep -rl "$(cd "$build" && pwd)" "$prefix"; then
  echo "capi_install: the installed files above name the build tree" >&2
  exit 1
fi

header_check='#include <tcu_golden.h>
int main(void) { return tcu_golden_version_number() < 0; }'
for std in c89 c99; do
  echo "$header_check" | ${CC:-cc} -std=$std -pedantic-errors -Wall -Wextra -Werror \
    -I"$prefix/include" -fsyntax-only -x c -
done
echo "$header_check" | ${CXX:-c++} -std=c++11 -pedantic-errors -Wall -Wextra -Werror \
  -I"$prefix/include" -fsyntax-only -x c++ -
echo "capi_install: the header compiles as C89, C99 and C++11"

# pkg-config
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
echo "pkg-config: $(pkg-config --modversion tcu-golden): $(pkg-config --cflags --libs tcu-golden)"
libdir=$(pkg-config --variable=libdir tcu-golden)
# shellcheck disable=SC2046
${CC:-cc} -std=c99 -Wall -Wextra -pedantic -Werror -o "$work/example_pkgconfig" \
  "$source/examples/capi/tcu_golden_example.c" $(pkg-config --cflags --libs tcu-golden) \
  -Wl,-rpath,"$libdir"
"$work/example_pkgconfig"
echo "capi_install: the pkg-config build passed"

# find_package
cmake -S "$source/examples/capi" -B "$work/example" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/example" >/dev/null
"$work/example/tcu_golden_example" >/dev/null
echo "capi_install: the find_package build passed"
