# SPDX-License-Identifier: GPL-2.0-only
# The hygiene of the CLI tests: every `run` of cxltier is followed by an
# assertion on its exit status, and a failure is asserted with its code.
#
#   awk -f check-run-status.awk FILE.bats...
#
# Prints FILE:LINE: MESSAGE for each finding and exits 1 if there is one:
#  - a `run` whose command line names cxltier or $CXLTIER (directly or
#    through a wrapper: setpriv, with_nofile, ...) with no status assertion
#    before the next `run` or the end of its block (a line "}" at column 0);
#    `run -N` asserts the status itself;
#  - `assert_failure` with no status number: a crash (134, 139) passes it.
# A status assertion is assert_success, assert_failure N, or a comparison of
# $status ([[ $status == N ]], assert_equal "$status" N, ...).
# Full-line comments and here-document bodies are skipped; a line ending in
# '\' is joined to the next.

function report(where, msg) {
	print where ": " msg
	found = 1
}

function flush_pending() {
	if (pending != "")
		report(pending, "`run` of cxltier with no status assertion (assert_success, assert_failure N, $status) before the next `run` or the end of the test")
	pending = ""
}

function flush_heredoc() {
	if (heredoc != "")
		report(heredoc_where, "here-document never ends (no line '" heredoc "'): the rest of the file went unchecked")
	heredoc = ""
}

# assert_success, assert_failure N, a comparison of $status
# ([[ $status == N ]], [ "$status" -eq N ], (( status == N )), case $status)
# or assert_equal "$status" N
function status_asserted(s) {
	return s ~ /(^|[^[:alnum:]_])(assert_success|assert_failure[ \t]+[0-9]+)([^[:alnum:]_]|$)/ ||
	    s ~ /\$\{?status\}?"?[ \t]*(==|!=|=|-eq|-ne)[ \t]/ ||
	    s ~ /\(\([ \t]*status[ \t]*(==|!=)/ ||
	    s ~ /case[ \t]+"?\$\{?status/ ||
	    s ~ /assert_equal[ \t]+"?\$\{?status\}?"?[ \t]/
}

FNR == 1 {
	flush_pending()
	flush_heredoc()
	joined = ""
}

{
	line = $0
	if (joined != "") {
		line = joined " " line
		start = jstart
	} else {
		start = FNR
	}
	if (line ~ /\\$/) {
		joined = substr(line, 1, length(line) - 1)
		jstart = start
		next
	}
	joined = ""
	where = FILENAME ":" start
}

# the body of a here-document is data (a file written for a test), not code
heredoc != "" {
	body = line
	if (heredoc_tabs)
		sub(/^\t+/, "", body)
	if (body == heredoc)
		heredoc = ""
	next
}

line ~ /^[ \t]*#/ { next }

# a here-document starts after this line: <<WORD, <<-WORD, <<'WORD', <<"WORD"
# with an upper-case WORD (not a here-string, <<<, nor a shift in $((...)))
match(line, /(^|[^<])<<-?[ \t]*["']?[A-Z_][A-Z0-9_]*/) {
	word = substr(line, RSTART, RLENGTH)
	sub(/^[^<]?<</, "", word)
	heredoc_tabs = word ~ /^-/
	sub(/^-?[ \t]*["']?/, "", word)
	heredoc = word
	heredoc_where = where
}

# the end of a test or of a function
line ~ /^}/ {
	flush_pending()
	next
}

{
	# a bare assert_failure: no number after it
	# (it is reported as such, not also as a `run` without a status)
	if (line ~ /(^|[^[:alnum:]_])assert_failure([ \t]*$|[ \t]*[;&|)}#])/) {
		report(where, "`assert_failure` without a status number (a crash would pass it): say which code")
		pending = ""
	}

	if (status_asserted(line))
		pending = ""

	# a `run` at the start of a command (not the word in a test name or a string)
	if (line !~ /^[ \t]*@test/ &&
	    line ~ /(^[ \t]*|[;&|({][ \t]*|(then|do|else)[ \t]+)run[ \t]/) {
		flush_pending()
		cmd = line
		sub(/^.*(^[ \t]*|[;&|({][ \t]*|(then|do|else)[ \t]+)run[ \t]+/, "", cmd)
		if (cmd ~ /(^|[ \t"'=\/])cxltier([ \t"';)]|$)/ || cmd ~ /\$\{?CXLTIER([^[:alnum:]_]|$)/) {
			# run -N checks the status itself
			if (cmd !~ /^(--[a-z-]+[ \t]+)*-[0-9]+[ \t]/)
				pending = where
		}
		# a status assertion on the same line, after the run (a bare
		# assert_failure there is reported as such)
		if (pending != "" && (status_asserted(cmd) || cmd ~ /(^|[^[:alnum:]_])assert_failure([^[:alnum:]_]|$)/))
			pending = ""
	}
}

END {
	flush_pending()
	flush_heredoc()
	exit found
}
