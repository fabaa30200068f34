# SPDX-License-Identifier: GPL-2.0-only
# TAP for the installation tests: tap_ok/tap_skip NAME [WHY], tap_fail NAME
# (details on stdin, printed as diagnostics), tap_done (plan; exit 1 on any failure).
tap_n=0 tap_failed=0
tap_ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1"; }
tap_skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1 # skip $2"; }
tap_fail() {
    tap_n=$((tap_n + 1)) tap_failed=$((tap_failed + 1))
    echo "not ok $tap_n - $1"
    sed 's/^/# /' | tail -40
}
tap_done() { echo "1..$tap_n"; [[ $tap_failed == 0 ]]; exit; }
