#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# check-layering.sh SRCDIR: the library owns every kernel interface. Fails
# when a file of cxltier/ (the CLI) names a kernel path (/sys, /proc, /dev,
# tracefs, debugfs) or calls a kernel-facing library (libcxl, libdaxctl,
# libtracefs, libtraceevent, libnuma, libkmod, raw syscalls on processes and
# pages) directly, or when a command file grows past 350 lines.
set -uo pipefail
SRC=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$SRC/cxltier" || exit 2
bad=0
report() { echo "layering: $*"; bad=1; }

# string literals that are kernel paths (usage texts may mention them in
# prose: those lines carry "layering: prose" to say so)
while IFS= read -r hit; do
    report "kernel path in the CLI: $hit"
done < <(grep -nE '"[^"]*(/sys/|/proc/|/dev/cxl|/dev/dax|/sys"|/proc"|kernel/tracing|kernel/debug)' -- *.c *.h |
         grep -v 'layering: prose')

# the code without comments and string literals (line numbers kept)
code() {
    perl -0pe 's{/\*.*?\*/}{ (my $c = $&) =~ s/[^\n]//g; $c }gse; s{//[^\n]*}{}g; s{"(?:\\.|[^"\\\n])*"}{""}g' "$1" |
        awk -v f="$1" '{ print f ":" NR ":" $0 }'
}

# calls into kernel-facing libraries, and syscalls on processes or pages
pat='\<(cxl_[a-z_]+|daxctl_[a-z_]+|tracefs_[a-z_]+|tep_[a-z_]+|kbuffer_[a-z_]+|numa_[a-z_]+|kmod_[a-z_]+|move_pages|migrate_pages|mbind|pidfd_open|process_madvise|openat2|ioctl)[[:space:]]*\('
while IFS= read -r hit; do
    report "kernel-facing call in the CLI: $hit"
done < <(for f in *.c *.h; do code "$f"; done | grep -E "$pat")

# kernel-facing headers
while IFS= read -r hit; do
    report "kernel-facing header in the CLI: $hit"
done < <(grep -nE '#include[[:space:]]*<(cxl/|daxctl/|tracefs|traceevent/|event-parse|numa|numaif|libkmod|linux/)' -- *.c *.h)

# command files readable in one sitting
for f in cmd-*.c; do
    n=$(wc -l < "$f")
    (( n > 350 )) && report "$f has $n lines (limit 350: split it by job)"
done
[[ $bad == 0 ]] && echo "layering: cxltier/ parses and renders; lib/ owns every kernel interface"
exit $bad
