// SPDX-License-Identifier: GPL-2.0
/*
 * C++ names as perf shows them: demangled, without the parameter list and
 * the return type as perf 6.1 (its libbfd, no DMGL_PARAMS): "ns::Class::
 * method", "operator new"; or whole as perf 6.4 and later built without
 * libbfd (Debian's 7.2): __cxa_demangle's "void ns::Class::method(int)".  The demangler is
 * libstdc++'s __cxa_demangle, found at run time so that C programs and
 * static builds do not need it; without it names stay mangled.
 */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/symbols.h"

typedef char *(*cxa_demangle_fn)(const char *, char *, size_t *, int *);

static cxa_demangle_fn demangler(void)
{
	static cxa_demangle_fn fn;

	/* static builds (the guests) have no libstdc++ to load, and glibc warns */
#ifndef PC_STATIC_BUILD
	static bool tried;

	if (!tried) {
		void *h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);

		if (h)
			fn = (cxa_demangle_fn)dlsym(h, "__cxa_demangle");
		tried = true;
	}
#endif
	return fn;
}

/* Length of an operator token after "operator" at p ("()", "<<=", " new"...). */
static size_t operator_len(const char *p)
{
	static const char *const ops[] = { "()", "[]", "<<=", ">>=", "<=>", "->*", "->",
					   "<<", ">>", "<=", ">=", "<", ">", NULL };

	for (int i = 0; ops[i]; i++)
		if (!strncmp(p, ops[i], strlen(ops[i])))
			return strlen(ops[i]);
	return 0;
}

/* Cuts "ret name(params) const" down to "name" in place. */
static void strip_signature(char *s)
{
	int angle = 0, paren = 0;
	char *last_open = NULL, *name_start = s, *op_end = NULL;

	for (char *p = s; *p; p++) {
		if (!strncmp(p, "operator", 8) && (p == s || p[-1] == ':' || p[-1] == ' ')) {
			p += 8 + operator_len(p + 8);
			op_end = p;	/* "operator< <char>": that space is no return type's */
			p--;
			continue;
		}
		switch (*p) {
		case '<':
			if (!paren)
				angle++;
			break;
		case '>':
			if (!paren && angle)
				angle--;
			break;
		case '(':
			if (!angle && !paren)
				last_open = p;
			paren++;
			break;
		case ')':
			if (paren)
				paren--;
			break;
		case ' ':
			/* a top-level space ends the return type ("void ns::f") */
			if (!angle && !paren && !last_open && p[1] && p != op_end &&
			    strncmp(p - 8 >= s ? p - 8 : s, "operator", 8))
				name_start = p + 1;
			break;
		}
	}
	if (last_open && last_open != s)
		*last_open = '\0';
	if (name_start != s)
		memmove(s, name_start, strlen(name_start) + 1);
}

/*
 * Demangled form of name into buf; returns name itself when it is not a
 * C++ name or cannot be demangled.  A "@suffix" (plt, symbol versions) is
 * kept after the demangled part.
 */
const char *pc_demangle(const char *name, bool signature, char *buf, size_t size)
{
	cxa_demangle_fn fn;
	const char *at;
	char mangled[1024];
	char *out;
	size_t len;
	int status;

	if (strncmp(name, "_Z", 2) || !(fn = demangler()))
		return name;
	at = strchr(name, '@');
	len = at ? (size_t)(at - name) : strlen(name);
	if (len >= sizeof(mangled))
		return name;
	memcpy(mangled, name, len);
	mangled[len] = '\0';
	out = fn(mangled, NULL, NULL, &status);
	if (!out || status)
		return name;
	/*
	 * A thunk (_ZTv virtual, _ZTh non-virtual, _ZTc covariant) keeps its
	 * target's parameters: perf shows "virtual thunk to X::~X()".
	 */
	if (!signature && strncmp(mangled, "_ZTv", 4) && strncmp(mangled, "_ZTh", 4) &&
	    strncmp(mangled, "_ZTc", 4))
		strip_signature(out);
	if (!*out) {
		free(out);
		return name;
	}
	len = strlen(out);
	if (len + (at ? strlen(at) : 0) + 1 > size) {
		free(out);
		return name;
	}
	memcpy(buf, out, len);
	strcpy(buf + len, at ? at : "");
	free(out);
	return buf;
}
