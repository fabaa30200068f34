#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# test/check-layering.sh can fail: each case plants one defect in a copy of
# the tree (lib/, cxltier/, the meson.build files and the script) and expects
# the check to fail saying what, where and what to do.
load helper

setup() {
    TREE=$BATS_TEST_TMPDIR/tree
    mkdir -p "$TREE/test"
    cp -r "$CXLTIER_SRC/lib" "$CXLTIER_SRC/cxltier" "$CXLTIER_SRC/meson.build" "$TREE/"
    cp "$CXLTIER_SRC/test/check-layering.sh" "$CXLTIER_SRC/test/meson.build" "$TREE/test/"
}

check() { bash "$TREE/test/check-layering.sh" "$TREE" "$@"; }

# plant FILE LINE TEXT: TEXT becomes line LINE of FILE in the copy
plant() {
    local file=$TREE/$1 line=$2 text=$3
    TEXT=$text perl -i -pe 'print "$ENV{TEXT}\n" if $. == '"$line" "$file"
    [[ $(sed -n "${line}p" "$file") == "$text" ]]
}

# object NAME.o SOURCE...: a tiny object in a fake BUILDDIR laid out as
# meson lays it out (lib/libcxltier.a.p/FOLDER_FILE.c.o), from C text
object() {
    local o=$BATS_TEST_TMPDIR/build/lib/libcxltier.a.p/$1 c=$BATS_TEST_TMPDIR/${1%.o}
    mkdir -p "${o%/*}" "$BATS_TEST_TMPDIR/build/cxltier.p"
    printf '%s\n' "$2" > "$c"
    ${CC:-cc} -c -x c "$c" -o "$o"
}

# The copy is judged on its sources alone: the symbol level of the real build
# is the 'layering' test's to judge (it runs on the build root), and the
# cases below that give a BUILDDIR bring their own objects.
@test "the tree as it is passes" {
    run check
    assert_success
    assert_output --partial "lib/ keeps its layers"
}

@test "an include up the layers fails, naming the edge" {
    plant lib/mm/numa.c 3 '#include "change/blocks.h"'
    run check
    assert_failure 1
    assert_output --partial 'lib/mm/numa.c:3: mm -> change: mm stands on core only; move the code up or the type down'
}

@test "a bare include of another folder's header fails" {
    plant lib/mm/numa.c 3 '#include "sysfs.h"'
    run check
    assert_failure 1
    assert_output --partial 'lib/mm/numa.c:3: #include "sysfs.h" is no header of lib/mm/: name the folder of the header (#include "core/sysfs.h")'
}

@test "a source directly in lib/ fails" {
    echo '// SPDX-License-Identifier: LGPL-2.1-or-later' > "$TREE/lib/stray.c"
    run check
    assert_failure 1
    assert_output --partial 'lib/stray.c: a source directly in lib/'
}

@test "a source its folder's meson.build does not list fails" {
    echo '// SPDX-License-Identifier: LGPL-2.1-or-later' > "$TREE/lib/mm/spare.c"
    run check
    assert_failure 1
    assert_output --partial 'lib/mm/spare.c is not listed in lib/mm/meson.build'
}

@test "a meson.build entry without its file fails" {
    echo "lib_sources += files('gone.c')" >> "$TREE/lib/mm/meson.build"
    run check
    assert_failure 1
    assert_output --partial 'lib/mm/meson.build lists gone.c, which is not in lib/mm/'
}

@test "a folder without meson.build fails" {
    rm "$TREE/lib/views/meson.build"
    run check
    assert_failure 1
    assert_output --partial 'lib/views/meson.build: missing'
}

@test "a folder the layer map does not name fails" {
    mkdir "$TREE/lib/extra"
    run check
    assert_failure 1
    assert_output --partial 'lib/extra/: a folder the layer map does not name'
}

@test "the CLI including a private header fails" {
    plant cxltier/commands/list/cmd-list.c 4 '#include "change/region-ops.h"'
    run check
    assert_failure 1
    assert_output --partial 'cxltier/commands/list/cmd-list.c:4: includes lib/change/region-ops.h, private to lib/change/: the CLI uses the public headers'
}

@test "another lib folder including a private header fails" {
    sed -i '2i /* private to lib/cxl/ */' "$TREE/lib/cxl/cdat.h"
    plant lib/views/tier-rank.c 3 '#include "cxl/cdat.h"'
    run check
    assert_failure 1
    assert_output --partial 'lib/views/tier-rank.c:3: includes lib/cxl/cdat.h, private to lib/cxl/: lib/views/ uses the public headers'
}

@test "the CLI including a lib header by a relative path fails" {
    plant cxltier/commands/list/cmd-list.c 4 '#include "../lib/cxl/topology.h"'
    run check
    assert_failure 1
    assert_output --partial 'cxltier/commands/list/cmd-list.c:4: #include "../lib/cxl/topology.h": lib headers are named by their folder from lib/ (#include "cxl/topology.h")'
}

@test "an include circle between headers fails" {
    plant lib/core/error.h 3 '#include "core/sysfs.h"'
    run check
    assert_failure 1
    assert_output --partial 'include circle: lib/core/error.h -> lib/core/sysfs.h -> lib/core/error.h (lib/core/error.h:3, lib/core/sysfs.h:'
}

@test "a file name in both lib/ and cxltier/ fails" {
    echo '// SPDX-License-Identifier: GPL-2.0-only' > "$TREE/cxltier/render/numa.c"
    run check
    assert_failure 1
    assert_output --partial 'numa is the name of cxltier/render/numa.[ch] and lib/mm/numa.[ch]: one file a name'
}

@test "two file names a letter apart fail" {
    echo '// SPDX-License-Identifier: GPL-2.0-only' > "$TREE/cxltier/render/event-stores.c"
    run check
    assert_failure 1
    assert_output --partial 'cxltier/render/event-stores and lib/events/event-store are a letter apart'
}

@test "a header guard other than its name fails" {
    sed -i 's/CXLTIER_BYTES_H/CXLTIER_LE_BYTES_H/' "$TREE/lib/core/bytes.h"
    run check
    assert_failure 1
    assert_output --partial 'lib/core/bytes.h: its guard is CXLTIER_LE_BYTES_H: name it CXLTIER_BYTES_H'
}

@test "a command file over 350 lines fails" {
    mkdir -p "$TREE/cxltier/commands/fake"
    for _ in {1..351}; do echo '/* more */'; done > "$TREE/cxltier/commands/fake/fake.c"
    run check
    assert_failure 1
    assert_output --regexp 'cxltier/commands/fake/fake.c has [0-9]+ lines \(limit 350: split it by job\)'
}

@test "a CLI function over 60 lines fails" {
    { echo 'int too_long(void)'; echo '{'; for _ in {1..58}; do echo '	(void)0;'; done; echo '	return 0;'; echo '}'; } \
        >> "$TREE/cxltier/cli/cli.c"
    run check
    assert_failure 1
    assert_output --regexp 'cxltier/cli/cli.c:[0-9]+: too_long\(\) has 62 lines \(limit 60\): split it by step'
}

@test "an include back up the CLI's rooms fails" {
    echo '/* x */' > "$TREE/cxltier/render/up.h"
    plant cxltier/cli/output.c 3 '#include "render/up.h"'
    run check
    assert_failure 1
    assert_output --partial 'cxltier/cli/output.c includes cxltier/render/up.h: cli/ is below render/'
}

@test "a command including another command's header fails" {
    mkdir -p "$TREE/cxltier/commands/one" "$TREE/cxltier/commands/two"
    echo '#include "commands/two/two-json.h"' > "$TREE/cxltier/commands/one/one.c"
    printf '#ifndef CXLTIER_TWO_JSON_H\n#define CXLTIER_TWO_JSON_H\n#endif\n' > "$TREE/cxltier/commands/two/two-json.h"
    run check
    assert_failure 1
    assert_output --partial "cxltier/commands/one/one.c includes cxltier/commands/two/two-json.h, another command's"
}

@test "more than five floors in the CLI fail" {
    local i
    for i in 1 2 3 4 5; do
        printf '#ifndef CXLTIER_STEP%d_H\n#define CXLTIER_STEP%d_H\n#include "cli/output.h"\n#endif\n' "$i" "$i" \
            > "$TREE/cxltier/render/step$i.h"
        [[ $i == 1 ]] || sed -i "3i #include \"render/step$((i - 1)).h\"" "$TREE/cxltier/render/step$i.h"
    done
    run check
    assert_failure 1
    assert_output --partial 'floors of cxltier/: 6 (cxltier/render/step5 -> cxltier/render/step4'
}

@test "a kernel path in the CLI fails" {
    plant cxltier/cli/cli.c 4 'static const char *where = "/sys/bus/cxl/devices";'
    run check
    assert_failure 1
    assert_output --partial 'kernel path in the CLI: cxltier/cli/cli.c:4:'
}

@test "a kernel-facing call in the CLI fails" {
    plant cxltier/cli/cli.c 4 'static int poke(void) { return ioctl(0, 0); }'
    run check
    assert_failure 1
    assert_output --partial 'kernel-facing call in the CLI: cxltier/cli/cli.c:4:'
}

@test "a symbol circle between two objects fails, naming the symbols" {
    touch "$TREE/lib/mm/ping.c" "$TREE/lib/mm/pong.c"
    object mm_ping.c.o 'int ct_pong_back(void); int ct_ping_serve(void) { return ct_pong_back(); }'
    object mm_pong.c.o 'int ct_ping_serve(void); int ct_pong_back(void) { return ct_ping_serve() + 1; }'
    run check "$BATS_TEST_TMPDIR/build"
    assert_failure 1
    assert_output --partial 'symbol circle: lib/mm/ping.c -> lib/mm/pong.c -> lib/mm/ping.c (lib/mm/ping.c uses ct_pong_back of lib/mm/pong.c; lib/mm/pong.c uses ct_ping_serve of lib/mm/ping.c)'
}

@test "a symbol used up the layers fails, naming the edge" {
    touch "$TREE/lib/mm/ping.c" "$TREE/lib/change/pong.c"
    object mm_ping.c.o 'int ct_pong_up(void); int ct_ping_down(void) { return ct_pong_up(); }'
    object change_pong.c.o 'int ct_pong_up(void) { return 1; }'
    run check "$BATS_TEST_TMPDIR/build"
    assert_failure 1
    assert_output --partial 'lib/mm/ping.c uses ct_pong_up of lib/change/pong.c: mm -> change: mm stands on core only'
}
