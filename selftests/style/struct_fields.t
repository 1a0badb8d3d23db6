#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# Plain structs: no struct defined in lib/ reader/ recorder/ probes/ has more
# than 20 fields (when one does, it is several things).
#   selftests/style/struct_fields.t [SRCDIR]   (SRCDIR: $PERFCHECK_SRCDIR, else .)
#
# Every "struct [NAME] {" of the .c and .h files is read: comments, strings
# and preprocessor lines are removed, then the body is split at the ';' of
# its own level, and each declaration counts its declarators (so
# "uint32_t pid, tid;" is two fields).  A nested struct or union counts as
# one field of the struct holding it (as many as it has declarators) and is
# checked on its own.  The first tests run the parser on a sample whose
# count is known, so the rule cannot pass by counting nothing.
use strict;
use warnings;
use File::Find;
use Test::More;

my $MAX = 20;
my @DIRS = qw(lib reader recorder probes);

# the text with comments, string and character literals and preprocessor
# lines blanked (newlines kept, so offsets still give line numbers)
sub clean {
	my ($t) = @_;

	$t =~ s{(/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')}{
		my $m = $1;
		($m =~ m{^/}) ? $m =~ s/[^\n]/ /gr : substr($m, 0, 1) . (' ' x (length($m) - 2)) . substr($m, -1)
	}gse;
	# preprocessor lines, with their continuations
	$t =~ s{^([ \t]*#(?:[^\n]*\\\n)*[^\n]*)}{$1 =~ s/[^\n]/ /gr}gme;
	return $t;
}

# declarators of one declaration: commas outside (), [] and {}
sub declarators {
	my ($decl) = @_;
	my ($depth, $n) = (0, 1);

	return 0 if $decl !~ /\S/;
	for my $c (split //, $decl) {
		$depth++ if $c =~ /[\(\[\{]/;
		$depth-- if $c =~ /[\)\]\}]/;
		$n++ if $c eq ',' && $depth == 0;
	}
	return $n;
}

# [name, line, fields] of every struct defined in text
sub structs_of {
	my ($text) = @_;
	my $t = clean($text);
	my @found;

	while ($t =~ /\bstruct\b(\s+[A-Za-z_]\w*)?\s*\{/g) {
		my ($start, $open, $cap) = ($-[0], pos($t) - 1, $1);
		my $name = defined $cap ? ($cap =~ s/^\s+//r) : '(anonymous)';
		my $line = 1 + (substr($t, 0, $start) =~ tr/\n//);
		my ($depth, $i, $decl, $fields) = (1, $open + 1, '', 0);

		# walk to the matching brace: split at the ';' of the struct's own level
		for (; $i < length($t); $i++) {
			my $c = substr($t, $i, 1);

			$depth++ if $c eq '{';
			$depth-- if $c eq '}';
			last if $depth == 0;
			if ($depth == 1 && $c eq ';') {
				$fields += declarators($decl);
				$decl = '';
			} else {
				$decl .= $c;
			}
		}
		push @found, [$name, $line, $fields];
		pos($t) = $open + 1;	# nested definitions are found on their own
	}
	return @found;
}

# -- the parser on a sample whose counts are known
{
	my $sample = <<'EOF';
/* struct commented { int a, b, c; }; */
#define M(x) struct macro { int x; }
struct outer {
	uint32_t pid, tid;			/* 2 */
	void (*cb)(int a, int b);		/* 1 */
	union { int p; long q; };		/* 1 */
	struct { int m, n; } s, t;		/* 2 */
	unsigned b1:1, b2:2;			/* 2 */
	char name[16], *str;			/* 2 */
	const char *s2 = "x; y, z";		/* 1 (a string is not a declaration) */
};
static const struct outer table[] = { { 1, 2 }, { 3, 4 } };
struct pd_sample v = (struct pd_sample){ .pid = 1, .tid = 2 };
EOF
	my %got = map { ("$_->[0]:$_->[1]" => $_->[2]) } structs_of($sample);
	is_deeply(\%got, { 'outer:3' => 11, '(anonymous):7' => 2 },
		  'the parser counts declarators, a nested struct or union as one field, and skips comments, macros, strings and initializers')
		or diag(explain(\%got));
	my @big = structs_of("struct big {\n" . join('', map { "\tint f$_;\n" } 1 .. 21) . "};\n");
	is($big[0][2], 21, 'a struct of 21 fields is counted as 21');
}

# -- the product
my $src = shift // $ENV{PERFCHECK_SRCDIR} // '.';
my @files;
find({ wanted => sub { push @files, $File::Find::name if /\.[ch]$/ }, no_chdir => 1 },
     grep { -d } map { "$src/$_" } @DIRS);
@files = sort @files;
my ($nr, @over) = (0);
for my $f (@files) {
	open(my $fh, '<', $f) or die "$f: $!";
	local $/;
	my $text = <$fh>;
	close $fh;
	for my $s (structs_of($text)) {
		$nr++;
		(my $rel = $f) =~ s{^\Q$src\E/}{};
		push @over, "$rel:$s->[1]: struct $s->[0] has $s->[2] fields (more than $MAX)"
			if $s->[2] > $MAX;
	}
}
# some 185 today: fewer than 100 means the sources are not where we look
cmp_ok($nr, '>=', 100, "the structs of lib/ reader/ recorder/ probes/ are found under $src");
ok(!@over, "no struct in lib/ reader/ recorder/ probes/ has more than $MAX fields")
	or diag(join("\n", @over));
done_testing();
