# SPDX-License-Identifier: GPL-2.0
# median.awk - the median of the numbers in the blank-separated string s,
# and their least and greatest in the globals lo and hi (0, 0 and 0 for
# none); shared by the benches' summaries: awk -f median.awk -f MAIN
function median(s,   a, k, i, j, t) {
    k = split(s, a, " ")
    if (!k) { lo = hi = 0; return 0 }
    for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
    lo = a[1]; hi = a[k]
    return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
}
