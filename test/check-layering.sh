#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# check-layering.sh SRCDIR [BUILDDIR]: the layers of the tree, checked on the
# tree as it is (nothing here names a file but the layer maps).
#
# The CLI and the library: cxltier/ parses options and renders, lib/ owns
# every kernel interface. A file of cxltier/ names no kernel path (/sys,
# /proc, /dev, tracefs, debugfs), calls no kernel-facing library (libcxl,
# libdaxctl, libtracefs, libtraceevent, libnuma, libkmod, raw syscalls on
# processes and pages) and includes none of their headers; a command's file
# stays within 350 lines.
#
# The CLI's rooms (CLI_ROOMS), each standing on those before it: cli/ (the
# harness, the output layer), render/ (renderers several commands share),
# commands/NAME/ (a command: no file of one includes or uses another
# command's), main.c (the command table). No include or symbol runs back up
# a room; the files of cxltier/ stand on at most CLI_FLOORS floors (a file
# and its header are one; a floor: a file stands above all it uses, by
# include or by symbol); no function of cxltier/ is longer than
# CLI_FUNCTION_LINES lines. Files directly in cxltier/ but main.c are the
# commands not yet moved into commands/: they are left out of the rooms,
# floors and function lengths until they move.
#
# The library's layers (LAYERS): every source of lib/ is in a folder of the
# map and listed in that folder's meson.build; a file of lib/F/ includes
# headers of F and of the folders F stands on, named by their folder
# ("core/sysfs.h"; a bare "x.h" is a header of F itself; config.h anywhere);
# a header saying "private to lib/F/" in its first 10 lines is included from
# lib/F/ only (and from test/); the CLI includes lib headers by folder, never
# by a "../lib/" path; headers include each other without a circle.
#
# Names, in lib/ and cxltier/ alike: a file name (without .c or .h) is one
# file's (its header aside), no two names one letter apart; a header's
# guard is its name (CXLTIER_NAME_H).
#
# With BUILDDIR, the objects too (nm on BUILDDIR/lib/libcxltier.a.p/*.o and
# BUILDDIR/cxltier.p/*.o): no files that use each other's symbols (two, or
# more round a circle), and no file of lib/F/ using a symbol of a folder F
# does not stand on, nor of the CLI.
set -uo pipefail

# The layer map: a folder of lib/, then the folders it stands on.
LAYERS='
core:
mm:     core
cxl:    core mm
config: core
events: core mm cxl config
change: core mm cxl config
views:  core mm cxl config events change
jobs:   core mm cxl config events change views
'
# The CLI's rooms, lowest first, and its limits
CLI_ROOMS='cli render commands main'
CLI_FLOORS=5
CLI_FUNCTION_LINES=60

SRC=${1:-$(cd "$(dirname "$0")/.." && pwd)}
BUILD=${2:-}
if [[ ! -d $SRC/lib || ! -d $SRC/cxltier ]]; then
    echo "usage: $0 SRCDIR [BUILDDIR] (SRCDIR holds lib/ and cxltier/)" >&2
    exit 2
fi
[[ -z $BUILD ]] || BUILD=$(cd "$BUILD" && pwd) || exit 2
cd "$SRC" || exit 2
bad=0
report() { echo "layering: $*"; bad=1; }
mapfile -t CLI < <(find cxltier -name '*.[ch]' | LC_ALL=C sort)
folders=$(awk -F: 'NF > 1 { gsub(/[[:space:]]/, "", $1); print $1 }' <<< "$LAYERS")

# ---- the CLI and the kernel -------------------------------------------

# string literals that are kernel paths (usage texts may mention them in
# prose: those lines carry "layering: prose" to say so)
while IFS= read -r hit; do
    report "kernel path in the CLI: $hit: ask lib/ for it (the file that owns that interface)"
done < <(grep -nE '"[^"]*(/sys/|/proc/|/dev/cxl|/dev/dax|/sys"|/proc"|kernel/tracing|kernel/debug)' -- "${CLI[@]}" |
         grep -v 'layering: prose')

# the code of the files without comments and string literals, as FILE:LINE:text
code() {
    perl -0ne 's{/\*.*?\*/}{ (my $c = $&) =~ s/[^\n]//g; $c }gse; s{//[^\n]*}{}g; s{"(?:\\.|[^"\\\n])*"}{""}g;
               my $n = 0; print map { "$ARGV:" . ++$n . ":$_\n" } split /\n/' "$@"
}

# calls into kernel-facing libraries, and syscalls on processes or pages
pat='\<(cxl_[a-z_]+|daxctl_[a-z_]+|tracefs_[a-z_]+|tep_[a-z_]+|kbuffer_[a-z_]+|numa_[a-z_]+|kmod_[a-z_]+|move_pages|migrate_pages|mbind|pidfd_open|process_madvise|openat2|ioctl)[[:space:]]*\('
while IFS= read -r hit; do
    report "kernel-facing call in the CLI: $hit: call lib/ instead"
done < <(code "${CLI[@]}" | grep -E "$pat")

# kernel-facing headers
while IFS= read -r hit; do
    report "kernel-facing header in the CLI: $hit: include the lib/ header that wraps it"
done < <(grep -nE '#include[[:space:]]*<(cxl/|daxctl/|tracefs|traceevent/|event-parse|numa|numaif|libkmod|linux/)' -- "${CLI[@]}")

# command files readable in one sitting
for f in cxltier/cmd-*.c cxltier/commands/*/*.c; do
    [[ -e $f ]] || continue
    n=$(wc -l < "$f")
    (( n > 350 )) && report "$f has $n lines (limit 350: split it by job)"
done

# ---- lib/: its folders and their meson.build ----------------------------

for f in lib/*.c lib/*.h; do
    [[ -e $f ]] && report "$f: a source directly in lib/: move it (git mv) into the folder of its layer and list it in that folder's meson.build"
done
for d in lib/*/; do
    d=${d%/}
    grep -qx "${d#lib/}" <<< "$folders" ||
        report "$d/: a folder the layer map does not name: add it to LAYERS in test/check-layering.sh with the folders it stands on"
done
for F in $folders; do
    m=lib/$F/meson.build
    [[ -d lib/$F ]] || { report "lib/$F/: named in the layer map, not in the tree: remove it from LAYERS"; continue; }
    [[ -f $m ]] || { report "$m: missing: every folder of lib/ lists its sources (lib_sources += files(...))"; continue; }
    listed=$(sed 's/#.*//' "$m" | grep -oE "'[^']+\.c'" | tr -d "'" | sort -u)
    present=$(cd "lib/$F" && find . -name '*.c' | sed 's|^\./||' | sort)
    while IFS= read -r c; do
        [[ -n $c ]] && report "lib/$F/$c is not listed in $m: add it to lib_sources (or remove the file)"
    done < <(comm -13 <(echo "$listed") <(echo "$present"))
    while IFS= read -r c; do
        [[ -n $c ]] && report "$m lists $c, which is not in lib/$F/: remove the entry"
    done < <(comm -23 <(echo "$listed") <(echo "$present"))
done

# a file name says one thing: one file a name (its header aside), in lib/
# and cxltier/ alike, and no two names a letter apart (the commands not yet
# moved into commands/ are left out until they move)
stems() { for f in lib/*/*.[ch] "${CLI[@]}"; do
              [[ $f == cxltier/*/* || $f == cxltier/main.c || $f == lib/* ]] || continue
              echo "${f%.[ch]}"; done | sort -u; }
while IFS= read -r hit; do
    [[ -n $hit ]] && report "$hit"
done < <(stems | perl -ne '
    chomp; my ($dir, $n) = m{^(.*)/([^/]+)$}; push @{$by{$n}}, $_; push @all, [$n, $_];
    END {
        for my $n (sort keys %by) {
            print "$n is the name of ", join(" and ", map { "$_.[ch]" } @{$by{$n}}), ": one file a name; rename one by its job\n" if @{$by{$n}} > 1;
        }
        sub d1 { my ($a, $b) = @_; return 0 if $a eq $b; my ($la, $lb) = (length $a, length $b);
                 return 0 if abs($la - $lb) > 1 || $la < 5;
                 my $i = 0; $i++ while $i < $la && $i < $lb && substr($a, $i, 1) eq substr($b, $i, 1);
                 return substr($a, $i + ($la >= $lb)) eq substr($b, $i + ($lb >= $la)); }
        my %seen;
        for my $x (@all) { for my $y (@all) {
            next unless $x->[1] lt $y->[1] && d1($x->[0], $y->[0]);
            next if $seen{"$x->[1] $y->[1]"}++;
            print "$x->[1] and $y->[1] are a letter apart: a reader takes one for the other; rename one by its job\n";
        } }
    }')

# a header's guard is its name: CXLTIER_NAME_H
for h in lib/*/*.h "${CLI[@]}"; do
    [[ $h == *.h ]] || continue
    b=${h##*/}; b=${b%.h}; want="CXLTIER_$(tr 'a-z-' 'A-Z_' <<< "$b")_H"
    got=$(grep -m1 -oE '^#ifndef[[:space:]]+[A-Za-z0-9_]+' "$h" | awk '{print $2}')
    [[ $got == "$want" ]] || report "$h: its guard is ${got:-missing}: name it $want (the file's name)"
done

# no function of the CLI longer than CLI_FUNCTION_LINES (from its first
# line to its closing brace): a command parses, calls the library, renders
while IFS= read -r hit; do
    [[ -n $hit ]] && report "$hit"
done < <(for f in "${CLI[@]}"; do [[ $f == cxltier/*/*.c || $f == cxltier/main.c ]] && echo "$f"; done |
         LIMIT=$CLI_FUNCTION_LINES perl -ne '
    chomp; my $f = $_; open my $fh, "<", $f or next; my ($start, $name, $in) = (0, "", 0);
    while (my $l = <$fh>) {
        if (!$in && $l =~ /^(?:static\s+)?[A-Za-z_][\w \*]*?\b(\w+)\s*\(/ && $l !~ /;\s*$/ && $l !~ /^(?:typedef|struct\s+\w+\s*\{)/) { ($start, $name) = ($., $1); }
        if (!$in && $l =~ /^\{/) { $in = 1; }
        if ($in && $l =~ /^\}/) { $in = 0; my $n = $. - $start + 1;
            print "$f:$start: $name() has $n lines (limit $ENV{LIMIT}): split it by step\n" if $start && $n > $ENV{LIMIT}; $start = 0; }
    }')

# ---- includes and symbols: edges up the layers, private headers, circles --

# prints one message a line; what it cannot read makes it die (exit != 0)
graphs=$(LAYERS=$LAYERS CLI_ROOMS=$CLI_ROOMS CLI_FLOORS=$CLI_FLOORS perl - "$BUILD" <<'PERL'
use strict;
use warnings;
no warnings 'recursion';
my ($build) = @ARGV;
my (@out, @info);	# findings; what is said for the record
sub say_ { push @out, join('', @_) }

# the layer map: folder => { folder it may include => 1 } (itself too)
my (%may, %on);
for (split /\n/, $ENV{LAYERS}) {
	next unless /^\s*([\w-]+):\s*(.*?)\s*$/;
	my @below = split ' ', $2;
	$may{$1} = { map { $_ => 1 } $1, @below };
	$on{$1} = @below ? join(' ', @below) . ' only' : 'no other folder';
}
sub folder { $_[0] =~ m{^lib/([^/]+)/} ? $1 : undef }	# undef: the CLI
# the CLI's room of a file: cli, render, commands/NAME, main; undef for a
# command not yet moved into commands/ (left out of the rooms' rules)
my @rooms = split ' ', $ENV{CLI_ROOMS};
my %rank = map { $rooms[$_] => $_ + 1 } 0 .. $#rooms;
sub room {
	my ($f) = @_;
	return 'main' if $f eq 'cxltier/main.c';
	return "commands/$1" if $f =~ m{^cxltier/commands/([^/]+)/};
	return $1 if $f =~ m{^cxltier/([^/]+)/} && $rank{$1};
	return undef;
}
sub room_rank { my $r = room($_[0]); defined $r ? $rank{(split m{/}, $r)[0]} : undef }
# a file and its header are one unit of the floors
sub unit { my $f = $_[0]; $f =~ s/\.[ch]$//; $f }
# an edge between two files of the CLI: up a room, or into another command
sub cli_edge {
	my ($f, $t, $how) = @_;
	my ($rf, $rt) = (room($f), room($t));
	return unless defined $rf && defined $rt && $rf ne $rt;
	if ($rf =~ m{^commands/} && $rt =~ m{^commands/}) {
		say_("$f $how $t, another command's: a command stands on cli/ and render/ alone; move what both use into render/ (or cli/)");
	} elsif (room_rank($t) > room_rank($f)) {
		say_("$f $how $t: $rf/ is below $rt/ (rooms, lowest first: $ENV{CLI_ROOMS}): an arrow back up; move the code down");
	}
}
sub edge { my ($f, $x) = @_; "$f -> $x: $f stands on $on{$f}" }
sub some {	# a few symbols of a list, for a message
	my @s = @{$_[0]};
	@s <= 4 ? join(', ', @s) : join(', ', @s[0 .. 3]) . ' and ' . (@s - 4) . ' more';
}

# circles of a graph (node => { node => ... }): Tarjan's strongly connected
# components, then the shortest way round each, from its first node
sub circles {
	my ($g) = @_;
	my ($n, %idx, %low, %stacked, @stack, @sccs) = (0);
	my $visit;
	$visit = sub {
		my ($v) = @_;
		$idx{$v} = $low{$v} = $n++;
		push @stack, $v;
		$stacked{$v} = 1;
		for my $w (sort keys %{$g->{$v} || {}}) {
			if (!defined $idx{$w}) {
				$visit->($w);
				$low{$v} = $low{$w} if $low{$w} < $low{$v};
			} elsif ($stacked{$w}) {
				$low{$v} = $idx{$w} if $idx{$w} < $low{$v};
			}
		}
		return if $low{$v} != $idx{$v};
		my ($w, @scc);
		do { $w = pop @stack; $stacked{$w} = 0; push @scc, $w } while ($w ne $v);
		push @sccs, [sort @scc] if @scc > 1 || $g->{$v}{$v};
	};
	$visit->($_) for grep { !defined $idx{$_} } sort keys %$g;
	my @ways;
	for my $scc (@sccs) {
		my %in = map { $_ => 1 } @$scc;
		my ($s, %prev, @queue) = ($scc->[0]);
		push @queue, $s;
		WALK: while (@queue) {
			my $v = shift @queue;
			for my $w (sort keys %{$g->{$v}}) {
				next unless $in{$w};
				if ($w eq $s) {
					my @way = ($v);
					unshift @way, $prev{$way[0]} while $way[0] ne $s;
					push @ways, [[@way, $s], $scc];
					last WALK;
				}
				next if exists $prev{$w};
				$prev{$w} = $v;
				push @queue, $w;
			}
		}
	}
	return @ways;
}
sub others {	# the members of a circle off the way shown
	my ($way, $scc) = @_;
	my %on_way = map { $_ => 1 } @$way;
	my @rest = grep { !$on_way{$_} } @$scc;
	@rest ? ' (and in the same knot: ' . join(' ', @rest) . ')' : '';
}

# private headers: "private to lib/F/" in the first 10 lines
my @files = sort(glob('lib/*/*.[ch]'), split /\n/, `find cxltier -name '*.[ch]'`);
my %private;
for my $h (grep { m{^lib/.*\.h$} } @files) {
	open my $fh, '<', $h or die "$h: $!\n";
	while (my $l = <$fh>) {
		last if $. > 10;
		next unless $l =~ m{private to lib/([^/\s]+)/}i;
		$private{$h} = $1;
		say_("$h:$.: says private to lib/$1/ but is in lib/", folder($h), "/: name its own folder, or move it")
			if $1 ne folder($h);
		last;
	}
	close $fh;
}

# includes: each one judged, and the graph of headers
my %inc;	# file => { header => line }
for my $f (@files) {
	my $F = folder($f);
	open my $fh, '<', $f or die "$f: $!\n";
	while (my $l = <$fh>) {
		next unless $l =~ /^\s*#\s*include\s*"([^"]+)"/;
		my ($h, $at, $to) = ($1, "$f:$.");
		next if $h eq 'config.h';
		if ($h =~ m{(^|/)\.\.?/}) {
			my $by = $h =~ m{([^/]+/[^/]+\.h)$} ? $1 : 'FOLDER/NAME.h';
			say_("$at: #include \"$h\": lib headers are named by their folder from lib/ (#include \"$by\"), never by a relative path");
			next;
		}
		if (!defined $F && $h =~ m{^(cli|render|commands)/}) {
			$to = "cxltier/$h";	# a room of the CLI
		} elsif ($h =~ m{^([^/]+)/}) {
			my $X = $1;
			if (!$may{$X}) {
				say_("$at: #include \"$h\": $X/ is no folder of the layer map (", join(' ', sort keys %may), ")");
				next;
			}
			say_("$at: ", edge($F, $X), "; move the code up or the type down")
				if defined $F && $may{$F} && !$may{$F}{$X};
			$to = "lib/$h";
		} elsif (defined $F) {
			$to = "lib/$F/$h";
			if (!-f $to) {
				my @where = map { "#include \"$_/$h\"" } grep { -f "lib/$_/$h" } sort keys %may;
				say_("$at: #include \"$h\" is no header of lib/$F/: name the folder of the header (",
				     @where ? join(' or ', @where) : "#include \"FOLDER/$h\"", ")");
				next;
			}
		} else {
			my ($dir) = $f =~ m{^(.*)/};
			$to = -f "$dir/$h" ? "$dir/$h" : "cxltier/$h";
		}
		next unless -f $to;
		$inc{$f}{$to} //= $.;
		cli_edge($f, $to, "includes") if !defined $F && $to =~ m{^cxltier/};
		my $P = $private{$to};
		say_("$at: includes $to, private to lib/$P/: ", defined $F ? "lib/$F/" : 'the CLI',
		     " uses the public headers of lib/$P/ (or the code moves into lib/$P/)")
			if defined $P && (!defined $F || $F ne $P);
	}
	close $fh;
}
for (circles(\%inc)) {
	my ($way, $scc) = @$_;
	my @at = map { "$way->[$_]:$inc{$way->[$_]}{$way->[$_ + 1]}" } 0 .. $#$way - 1;
	say_('include circle: ', join(' -> ', @$way), others($way, $scc), ' (', join(', ', @at),
	     '): a header that needs another\'s types must not be needed by it: move what both need into a third header, or declare the struct (struct x;)');
}

# symbols: who uses whose definitions, from the objects of the build
if ($build ne '') {
	my @objs = (glob("$build/lib/libcxltier.a.p/*.o"), glob("$build/cxltier.p/*.o"));
	say_("$build: no objects in lib/libcxltier.a.p/ nor cxltier.p/: build first (ninja -C $build)") if !@objs;
	# object => its source: meson names it after the source's path from
	# the target's folder, "/" as "_" (lib/core/sysfs.c: core_sysfs.c.o).
	# Generated sources (the stand-ins for shared libraries, lazy-stubs.c)
	# are not the project's layers; an object whose source is gone is a
	# leftover of a file renamed or removed (ninja leaves it there)
	my (%src, %mangled);
	for my $c (grep { /\.c$/ } @files) {
		(my $m = $c) =~ s{^lib/}{};
		$m =~ s{/}{_}g;
		$mangled{($c =~ m{^lib/} ? 'lib/libcxltier.a.p/' : 'cxltier.p/') . "$m.o"} = $c;
	}
	for my $o (@objs) {
		my ($name) = $o =~ m{([^/]+\.o)$};
		next if $name =~ /^meson-generated_/;
		my $key = ($o =~ m{/lib/libcxltier\.a\.p/[^/]+$} ? 'lib/libcxltier.a.p/' : 'cxltier.p/') . $name;
		$src{$o} = $mangled{$key} if $mangled{$key};
	}
	my (%defs, %uses);
	if (%src) {
		open my $nm, '-|', 'nm', '-A', '-P', sort keys %src or die "nm: $!\n";
		while (<$nm>) {
			my ($o, $sym, $t) = /^(.*?): (\S+) (\S)/ or next;
			my $f = $src{$o} // next;
			if ($t =~ /^[Uwv]$/) { $uses{$f}{$sym} = 1 }
			elsif ($t =~ /^[A-Z]$/) { push @{$defs{$sym}}, $f }
		}
		close $nm or die "nm failed on the objects of $build\n";
	}
	my %sym;	# file => { file whose definitions it uses => [symbols] }
	for my $f (sort keys %uses) {
		for my $s (sort keys %{$uses{$f}}) {
			push @{$sym{$f}{$_}}, $s for grep { $_ ne $f } @{$defs{$s} || []};
		}
	}
	for my $f (sort keys %sym) {
		my $F = folder($f);
		if (!defined $F) {
			for my $t (grep { m{^cxltier/} } sort keys %{$sym{$f}}) {
				cli_edge($f, $t, 'uses ' . some($sym{$f}{$t}) . ' of');
				$main::sym_cli{$f}{$t} = 1;
			}
			next;
		}
		next unless $may{$F};
		for my $d (sort keys %{$sym{$f}}) {
			my $G = folder($d);
			if (!defined $G) {
				say_("$f uses ", some($sym{$f}{$d}), " of $d: the library calls the CLI; move that code into lib/");
			} elsif ($may{$G} && !$may{$F}{$G}) {
				say_("$f uses ", some($sym{$f}{$d}), " of $d: ", edge($F, $G),
				     '; move the code up or the function down');
			}
		}
	}
	for (circles(\%sym)) {
		my ($way, $scc) = @$_;
		my @ties = map { "$way->[$_] uses " . some($sym{$way->[$_]}{$way->[$_ + 1]}) . " of $way->[$_ + 1]" }
			0 .. $#$way - 1;
		say_('symbol circle: ', join(' -> ', @$way), others($way, $scc), ' (', join('; ', @ties),
		     '): one of them must not need the other: move what both need into a file of its own, or join the two');
	}
	# the floors: the longest chain of files each using the next (the
	# dependency depth the layers keep small), for the record
	if (!@out) {
		my %depth; my %next;
		my $depth;
		$depth = sub {
			my $f = shift;
			return $depth{$f} if defined $depth{$f};
			$depth{$f} = 1;		# (no circle here: checked above)
			for my $d (keys %{$sym{$f} || {}}) {
				my $n = 1 + $depth->($d);
				($depth{$f}, $next{$f}) = ($n, $d) if $n > $depth{$f};
			}
			return $depth{$f};
		};
		my ($top) = sort { $depth->($b) <=> $depth->($a) || $a cmp $b } keys %sym;
		if (defined $top) {
			my @chain = ($top);
			push @chain, $next{$chain[-1]} while defined $next{$chain[-1]};
			my ($ltop) = sort { $depth->($b) <=> $depth->($a) || $a cmp $b } grep { defined folder($_) } keys %sym;
			my @lchain = defined $ltop ? ($ltop) : ();
			push @lchain, $next{$lchain[-1]} while @lchain && defined $next{$lchain[-1]};
			push @info, 'floors: ' . scalar(@chain) . ' (' . join(' -> ', @chain) . ')';
			push @info, 'floors of lib/: ' . scalar(@lchain) . ' (' . join(' -> ', @lchain) . ')' if @lchain;
		}
	}
}
# the CLI's floors: the longest chain of its units (a file and its header),
# each including or using the next; the commands not yet moved left out
{
	my %g;
	my $add = sub {
		my ($a, $b) = @_;
		return unless $a =~ m{^cxltier/} && $b =~ m{^cxltier/} && defined room($a) && defined room($b);
		my ($ua, $ub) = (unit($a), unit($b));
		$g{$ua}{$ub} = 1 if $ua ne $ub;
		$g{$ua} //= {};
	};
	for my $f (keys %inc) { $add->($f, $_) for keys %{$inc{$f}} }
	our %sym_cli;
	for my $f (keys %sym_cli) { $add->($f, $_) for keys %{$sym_cli{$f}} }
	$g{unit($_)} //= {} for grep { m{^cxltier/} && defined room($_) } @files;
	my (%depth, %next, $depth);
	$depth = sub {
		my $u = shift;
		return $depth{$u} if defined $depth{$u};
		$depth{$u} = 1;
		for my $d (keys %{$g{$u}}) {
			my $n = 1 + $depth->($d);
			($depth{$u}, $next{$u}) = ($n, $d) if $n > $depth{$u};
		}
		return $depth{$u};
	};
	my ($top) = sort { $depth->($b) <=> $depth->($a) || $a cmp $b } keys %g;
	if (defined $top) {
		my @chain = ($top);
		push @chain, $next{$chain[-1]} while defined $next{$chain[-1]};
		my $arrows = 0;
		$arrows += scalar(keys %{$g{$_}}) for keys %g;
		my $line = 'floors of cxltier/: ' . scalar(@chain) . ' (' . join(' -> ', @chain) . '); '
			. scalar(keys %g) . " units (a file and its header), $arrows arrows, none back up";
		if (@chain > $ENV{CLI_FLOORS}) {
			say_("$line: more than $ENV{CLI_FLOORS}; a renderer or helper that stands on another of its room's adds a floor: join them, or let the command call both");
		} else {
			push @info, $line;
		}
	}
}
print map { "$_\n" } @out, @info;
PERL
) || report "the include and symbol check could not run (exit $?): see the message above"
while IFS= read -r hit; do
    case $hit in
    '') ;;
    floors*) echo "layering: $hit" ;;
    *) report "$hit" ;;
    esac
done <<< "$graphs"

if [[ $bad == 0 ]]; then
    echo "layering: cxltier/ parses and renders; lib/ owns every kernel interface; lib/ keeps its layers (${folders//$'\n'/ })${BUILD:+, to the symbol}"
fi
exit $bad
