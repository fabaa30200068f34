# SPDX-License-Identifier: GPL-2.0-only
# golden.bash - shared by golden.bats and update-golden.sh: the cases and
# where their expected output lives.
GOLDEN=$CXLTIER_SRC/test/fixtures/golden
# golden_cases: one "FIXTURE ARGS..." line per case
golden_cases() { grep -v '^#' "$GOLDEN/cases" | grep -v '^[[:space:]]*$'; }
# golden_slug FIXTURE ARGS...: the file name of a case
golden_slug() { local f=$1; shift; local a="$*"; a=${a// /_}; echo "$f/${a//\//-}"; }
