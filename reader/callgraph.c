// SPDX-License-Identifier: GPL-2.0
/*
 * Call-graph trees of report entries and their --stdio layouts.
 *
 * Layout facts (perf report --stdio, 6.1): every line starts with a
 * 12-column margin; a tree whose only shown branch holds the whole entry
 * starts "|" then "---frame" and its further levels move 3 columns right;
 * otherwise each branch is a "|" line then "--P%--frame", where each
 * level is 11 columns ("|" or " ", then 10 spaces) and a level's pipe
 * ends at its last branch.  Branches are sorted by their share, larger
 * first; equal shares by the frame's address, descending (perf 6.1 keeps
 * branches in address order and puts a later equal one first).
 * The share of a branch is its samples and those of everything below it.
 */
#include "reader/callgraph.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/symbols.h"

int cg_parse(struct cg_params *p, const char *spec)
{
	char *copy = strdup(spec), *save = NULL, *tok;
	int ret = 0;

	if (!copy)
		return -1;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;
		double v;

		if (!strcmp(tok, "graph")) {
			p->mode = CG_GRAPH;
			p->mode_set = true;
		} else if (!strcmp(tok, "fractal")) {
			p->mode = CG_FRACTAL;
			p->mode_set = true;
		} else if (!strcmp(tok, "flat")) {
			p->mode = CG_FLAT;
			p->mode_set = true;
		} else if (!strcmp(tok, "folded")) {
			p->mode = CG_FOLDED;
			p->mode_set = true;
		} else if (!strcmp(tok, "none")) {
			p->mode = CG_NONE;
			p->mode_set = true;
		} else if (!strcmp(tok, "caller")) {
			p->order = CG_CALLER;
			p->order_set = true;
		} else if (!strcmp(tok, "callee")) {
			p->order = CG_CALLEE;
			p->order_set = true;
		} else if (!strcmp(tok, "function")) {
			/* perf's default: frames matched by function */
			p->by_address = false;
		} else if (!strcmp(tok, "address")) {
			p->by_address = true;
		} else if (!strcmp(tok, "percent")) {
			p->value = CG_PERCENT;
		} else if (!strcmp(tok, "period")) {
			p->value = CG_PERIOD;
		} else if (!strcmp(tok, "count")) {
			p->value = CG_COUNT;
		} else {
			v = strtod(tok, &end);
			if (end == tok || *end || v < 0 || v > 100) {
				ret = -1;
				break;
			}
			p->min_percent = v;
		}
	}
	free(copy);
	return ret;
}

void cg_forest_free(struct cg_forest *f)
{
	for (uint32_t i = 0; i < f->nr_frames; i++)
		free(f->frames[i].name);
	free(f->frames);
	free(f->frame_hash);
	free(f->links);
	free(f->hits);
	free(f->ips);
	free(f->counts);
	free(f->ends);
	free(f->chains);
	free(f->chain_ips);
	free(f->tree_gen);
	free(f->sums);
	cg_children_free(&f->children);
	cg_siblings_free(&f->sib);
	memset(f, 0, sizeof(*f));
}

static uint32_t key_hash(const void *sym, const void *dso, uint64_t ip)
{
	uint64_t h = (uint64_t)(uintptr_t)(sym ? sym : dso) * 31 + ip;

	h *= 0x9E3779B97F4A7C15ULL;
	return (uint32_t)(h >> 32);
}

static uint32_t name_hash(const char *name, size_t len)
{
	uint64_t h = 14695981039346656037ULL;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)name[i]) * 1099511628211ULL;
	return (uint32_t)(h >> 32);
}

static uint32_t frame_hash(const struct cg_frame *fr)
{
	return fr->by_name ? name_hash(fr->name, strlen(fr->name)) :
			     key_hash(fr->sym, fr->dso, fr->ip);
}

static int rehash(struct cg_forest *f, uint32_t n)
{
	uint32_t *h = calloc(n, sizeof(*h));

	if (!h)
		return -ENOMEM;
	free(f->frame_hash);
	f->frame_hash = h;
	f->nr_frame_hash = n;
	for (uint32_t i = 0; i < f->nr_frames; i++) {
		struct cg_frame *fr = &f->frames[i];
		uint32_t b = frame_hash(fr) & (n - 1);

		fr->next = h[b];
		h[b] = i + 1;
	}
	return 0;
}

int64_t cg_frame(struct cg_forest *f, const struct cg_frame_key *k)
{
	uint64_t ip = k->sym && !k->by_address ? 0 : k->ip;
	const void *dso = k->sym && !k->by_address ? NULL : k->dso;
	bool by_name = k->sym && !k->by_address && k->by_name;
	uint32_t b;
	struct cg_frame *fr;

	if (f->nr_frame_hash) {
		b = (by_name ? name_hash(k->name, k->name_len) : key_hash(k->sym, dso, ip)) &
		    (f->nr_frame_hash - 1);
		for (uint32_t i = f->frame_hash[b]; i; i = f->frames[i - 1].next) {
			fr = &f->frames[i - 1];
			if (by_name ? fr->by_name && !strncmp(fr->name, k->name, k->name_len) &&
					      !fr->name[k->name_len] :
				      !fr->by_name && fr->sym == k->sym && fr->dso == dso &&
					      fr->ip == ip)
				return i - 1;
		}
	}
	if (f->nr_frames == f->cap_frames) {
		uint32_t cap = f->cap_frames ? 2 * f->cap_frames : 1024;
		struct cg_frame *v = realloc(f->frames, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		f->frames = v;
		f->cap_frames = cap;
	}
	fr = &f->frames[f->nr_frames];
	memset(fr, 0, sizeof(*fr));
	fr->sym = k->sym;
	fr->dso = dso;
	fr->obj = k->dso;
	fr->ip = ip;
	fr->addr = k->ip;
	fr->dso_rank = k->dso_rank;
	fr->by_name = by_name;
	fr->name = strndup(k->name, k->name_len);
	if (!fr->name)
		return -ENOMEM;
	f->nr_frames++;
	if (f->nr_frames * 2 > f->nr_frame_hash) {
		if (rehash(f, f->nr_frame_hash ? 2 * f->nr_frame_hash : 4096))
			return -ENOMEM;
	} else {
		b = frame_hash(fr) & (f->nr_frame_hash - 1);
		fr->next = f->frame_hash[b];
		f->frame_hash[b] = f->nr_frames;
	}
	return f->nr_frames - 1;
}

static uint32_t node_new(struct cg_forest *f, uint32_t frame, uint64_t ip)
{
	if (f->nr_nodes == f->cap_nodes) {
		uint32_t cap = f->cap_nodes ? 2 * f->cap_nodes : 4096;
		struct cg_link *l = realloc(f->links, (size_t)cap * sizeof(*l));
		uint64_t *h;
		uint32_t *n;

		if (!l)
			return 0;
		f->links = l;
		h = realloc(f->hits, (size_t)cap * sizeof(*h));
		if (!h)
			return 0;
		f->hits = h;
		h = realloc(f->ends, (size_t)cap * sizeof(*h));
		if (!h)
			return 0;
		f->ends = h;
		h = realloc(f->ips, (size_t)cap * sizeof(*h));
		if (!h)
			return 0;
		f->ips = h;
		n = realloc(f->counts, (size_t)cap * sizeof(*n));
		if (!n)
			return 0;
		f->counts = n;
		n = realloc(f->tree_gen, (size_t)cap * sizeof(*n));
		if (!n)
			return 0;
		f->tree_gen = n;
		if (cg_siblings_reserve(&f->sib, cap))
			return 0;
		f->cap_nodes = cap;
	}
	f->links[f->nr_nodes] = (struct cg_link){ .frame = frame };
	f->hits[f->nr_nodes] = 0;
	f->counts[f->nr_nodes] = 0;
	f->ends[f->nr_nodes] = 0;
	f->ips[f->nr_nodes] = ip;
	f->tree_gen[f->nr_nodes] = 0;
	return ++f->nr_nodes;
}

uint32_t cg_tree_new(struct cg_forest *f)
{
	return node_new(f, UINT32_MAX, 0);
}

struct by_use {
	uint64_t used;		/* the last add through the node: larger first */
	uint32_t place;		/* in the list: smaller first (used is unique among siblings) */
	uint32_t node;
};

static int by_use_cmp(const void *a, const void *b)
{
	const struct by_use *x = a, *y = b;

	if (x->used != y->used)
		return (x->used < y->used) - (x->used > y->used);
	return (x->place > y->place) - (x->place < y->place);
}

/*
 * Puts each node's children in the order of their last use, the most
 * recent first: the order a list that moved each child found to its front
 * would have (chains repeat; perf's order of equal branches follows it).
 * A node's last use is the latest add that ended in its subtree; a child
 * is made after its parent, so one pass from the end carries it up.
 */
static int order_children(struct cg_forest *f)
{
	uint64_t *used = malloc((f->nr_nodes ? f->nr_nodes : 1) * sizeof(*used));
	struct by_use *v = NULL;
	size_t cap = 0;
	int ret = 0;

	if (!used)
		return -ENOMEM;
	memcpy(used, f->ends, f->nr_nodes * sizeof(*used));
	for (uint32_t i = f->nr_nodes; i-- > 0;) {
		uint32_t parent = f->links[i].parent;

		if (parent && used[parent - 1] < used[i])
			used[parent - 1] = used[i];
	}
	for (uint32_t n = 0; n < f->nr_nodes && !ret; n++) {
		struct cg_link *l = f->links;
		uint32_t c = l[n].child, place = 0;
		size_t nr = 0;

		if (!c || !l[c - 1].sibling)
			continue;
		for (; c; c = l[c - 1].sibling) {
			if (nr == cap) {
				size_t nc = cap ? 2 * cap : 64;
				struct by_use *nv = realloc(v, nc * sizeof(*nv));

				if (!nv) {
					ret = -ENOMEM;
					break;
				}
				v = nv;
				cap = nc;
			}
			v[nr++] = (struct by_use){ .used = used[c - 1], .place = place++, .node = c };
		}
		if (ret)
			break;
		qsort(v, nr, sizeof(*v), by_use_cmp);
		l[n].child = v[0].node;
		for (size_t i = 0; i < nr; i++)
			l[v[i].node - 1].sibling = i + 1 < nr ? v[i + 1].node : 0;
	}
	free(v);
	free(used);
	return ret;
}

static uint64_t chain_hash(uint32_t root, const uint32_t *frames, size_t nr)
{
	uint64_t h = ((uint64_t)root << 32 | nr) * 0x9E3779B97F4A7C15ULL;

	for (size_t i = 0; i < nr; i++)
		h = (h ^ frames[i]) * 0x9E3779B97F4A7C15ULL;
	return h ^ h >> 29;
}

/* A frame's name without perf 7.2's " (inlined)": what perf compares. */
static size_t bare_len(const struct cg_frame *f)
{
	size_t n = strlen(f->name);

	return f->by_name && n > 10 ? n - 10 : n;
}

/*
 * perf's match_chain: frame a at address ia (the first of its node) against
 * frame b at ib; < 0 when a is before b.  Two resolved frames by object,
 * then symbol start; an inlined one beside a resolved one by function name
 * (perf 7.2); an unresolved one (or -g ...,address) by object, then address.
 */
static int frame_cmp(const struct cg_frame *a, uint64_t ia, const struct cg_frame *b, uint64_t ib)
{
	if ((a->by_name && b->sym) || (b->by_name && a->sym)) {
		size_t la = bare_len(a), lb = bare_len(b);
		int r = strncmp(a->name, b->name, la < lb ? la : lb);

		if (r)
			return r < 0 ? -1 : 1;
		return (la > lb) - (la < lb);
	}

	bool by_start = a->sym && b->sym && !a->ip && !b->ip;
	uint64_t xa = by_start ? ((const struct pc_symbol *)a->sym)->start : ia;
	uint64_t xb = by_start ? ((const struct pc_symbol *)b->sym)->start : ib;

	if (a->dso_rank != b->dso_rank)
		return a->dso_rank > b->dso_rank ? 1 : -1;
	return (xa > xb) - (xa < xb);
}

/* match_chain's kind of a frame: how it compares with others (cg_siblings.h) */
static int frame_kind(const struct cg_frame *fr)
{
	/* unresolved, or kept apart by its address (-g ...,address) */
	if (!fr->sym || fr->ip)
		return CG_KIND_ADDRESS;
	return fr->by_name ? CG_KIND_INLINED : CG_KIND_RESOLVED;
}

/* perf's match_chain of child (its first address) with frame at ip (cg_match_fn) */
static int match_child(const void *ctx, uint32_t child, uint32_t frame, uint64_t ip)
{
	const struct cg_forest *f = ctx;

	return frame_cmp(&f->frames[f->links[child - 1].frame], f->ips[child - 1],
			 &f->frames[frame], ip);
}

/* The tree perf keeps of parent's children, made from them in the order they came. */
static int build_siblings(struct cg_forest *f, uint32_t root, uint32_t parent)
{
	struct cg_sibling *v;
	uint32_t nr = 0;
	int ret;

	for (uint32_t c = f->links[parent - 1].child; c; c = f->links[c - 1].sibling)
		nr++;
	v = malloc(nr * sizeof(*v));
	if (!v)
		return -ENOMEM;
	/* the list is newest first; nodes are numbered as made */
	for (uint32_t c = f->links[parent - 1].child, i = nr; c; c = f->links[c - 1].sibling)
		v[--i] = (struct cg_sibling){ .node = c, .frame = f->links[c - 1].frame,
					      .ip = f->ips[c - 1] };
	ret = cg_siblings_build(&f->sib, parent, v, nr, match_child, f);
	free(v);
	cg_siblings_mark_tree(&f->sib, root);
	return ret;
}

/*
 * The descent: the node frames[0..nr) ends at below root, made where
 * missing; 0 on ENOMEM.  *searched: perf's search of some level compared
 * the chain's addresses.
 */
static uint32_t descend(struct cg_forest *f, uint32_t root, const uint32_t *frames,
			const uint64_t *ips, size_t nr, bool *searched_any)
{
	uint32_t n = root;

	for (size_t i = 0; i < nr; i++) {
		uint64_t ip = ips ? ips[i] : f->frames[frames[i]].addr;
		int kind = frame_kind(&f->frames[frames[i]]);
		uint32_t c, at = 0;
		bool left = false, searched;

		if (!cg_siblings_built(&f->sib, n) && f->links[n - 1].child &&
		    cg_siblings_mixes(&f->sib, n, kind)) {
			if (build_siblings(f, root, n))
				return 0;
			f->tree_gen[root - 1]++;
		}
		searched = cg_siblings_built(&f->sib, n);
		*searched_any |= searched;
		c = searched ? cg_siblings_find(&f->sib, n, frames[i], ip, match_child, f, &at, &left) :
			       cg_children_find(&f->children, n, frames[i]);
		if (!c) {
			struct cg_link *l;

			c = node_new(f, frames[i], ip);
			f->tree_gen[root - 1]++;
			/* a twin (perf's search passed its equal by) stays out of the table */
			if (!c || (!cg_children_find(&f->children, n, frames[i]) &&
				   cg_children_add(&f->children, n, frames[i], c)))
				return 0;
			l = f->links;
			l[c - 1].parent = n;
			l[c - 1].sibling = l[n - 1].child;
			l[n - 1].child = c;
			cg_siblings_note(&f->sib, n, kind);
			if (searched)
				cg_siblings_link(&f->sib, n, c, at, left);
		}
		n = c;
	}
	return n;
}

int cg_tree_add(struct cg_forest *f, uint32_t root, const uint32_t *frames, const uint64_t *ips,
		size_t nr, uint64_t period, uint32_t *last)
{
	struct cg_chain_slot *slot = NULL;
	bool searched = false;
	uint64_t h = 0, *slot_ips = NULL;
	uint32_t n, gen;

	/*
	 * a repeated chain goes where it went: where perf searches part of
	 * the tree, while the tree is as it was and the addresses searched
	 * with are the same
	 */
	if (nr <= CG_CHAIN_FRAMES) {
		size_t i;

		if (!f->chains) {
			f->chains = calloc((size_t)1 << CG_CHAIN_SLOTS_BITS, sizeof(*f->chains));
			f->chain_ips = calloc((size_t)CG_CHAIN_FRAMES << CG_CHAIN_SLOTS_BITS,
					      sizeof(*f->chain_ips));
		}
		if (!f->chains || !f->chain_ips)
			return -ENOMEM;
		h = chain_hash(root, frames, nr);
		i = h >> (64 - CG_CHAIN_SLOTS_BITS);
		slot = &f->chains[i];
		slot_ips = &f->chain_ips[i * CG_CHAIN_FRAMES];
		if (slot->node && slot->hash == h && slot->root == root && slot->nr == nr &&
		    !memcmp(slot->frames, frames, nr * sizeof(*frames)) &&
		    (!cg_siblings_tree_searched(&f->sib, root) ||
		     (slot->gen == f->tree_gen[root - 1] &&
		      (!slot->by_ips ||
		       (ips && !memcmp(slot_ips, ips, nr * sizeof(*ips))))))) {
			cg_hit(f, slot->node, period);
			*last = slot->node;
			return 0;
		}
	}
	gen = f->tree_gen[root - 1];
	n = descend(f, root, frames, ips, nr, &searched);
	if (!n)
		return -ENOMEM;
	cg_hit(f, n, period);
	*last = n;
	if (slot) {
		slot->hash = h;
		slot->root = root;
		slot->nr = (uint32_t)nr;
		slot->node = n;
		/*
		 * the tree as it was before: where the descent changed a
		 * searched tree, the next add of the chain descends again
		 */
		slot->gen = gen;
		/* without ips each frame searched with its own first address */
		slot->by_ips = searched && ips;
		memcpy(slot->frames, frames, nr * sizeof(*frames));
		if (slot->by_ips)
			memcpy(slot_ips, ips, nr * sizeof(*ips));
	}
	return 0;
}

/* The frame of node n's address alone, in its frame's object (cg_tree_merge's bare). */
static int64_t bare_frame(struct cg_forest *f, uint32_t n)
{
	const struct cg_frame *fr = &f->frames[f->links[n - 1].frame];
	uint64_t ip = f->ips[n - 1];
	char name[24];
	struct cg_frame_key k = { .dso = fr->obj, .dso_rank = fr->dso_rank, .ip = ip,
				  .name = name };

	k.name_len = (size_t)snprintf(name, sizeof(name), ip ? "%#llx" : "0", (unsigned long long)ip);
	return cg_frame(f, &k);
}

int cg_tree_merge(struct cg_forest *f, uint32_t dst, uint32_t src, bool bare)
{
	uint32_t *path = NULL, n, depth = 0, cap = 0;
	uint64_t *ips = NULL;

	if (dst == src)
		return 0;
	/* the subtree of src in pre-order, by its links: down, else across, else up */
	n = f->links[src - 1].child;
	depth = n ? 1 : 0;
	while (n) {
		if (depth > cap) {
			uint32_t *p = realloc(path, (size_t)(2 * depth + 16) * sizeof(*p));
			uint64_t *q = p ? realloc(ips, (size_t)(2 * depth + 16) * sizeof(*q)) : NULL;

			if (p)
				path = p;
			if (q)
				ips = q;
			if (!p || !q) {
				free(path);
				free(ips);
				return -ENOMEM;
			}
			cap = 2 * depth + 16;
		}
		if (bare) {
			int64_t b = bare_frame(f, n);

			if (b < 0) {
				free(path);
				free(ips);
				return -ENOMEM;
			}
			path[depth - 1] = (uint32_t)b;
		} else {
			path[depth - 1] = f->links[n - 1].frame;
		}
		ips[depth - 1] = f->ips[n - 1];
		if (f->counts[n - 1] || f->hits[n - 1]) {
			bool searched = false;
			uint32_t m = descend(f, dst, path, ips, depth, &searched);

			if (!m) {
				free(path);
				free(ips);
				return -ENOMEM;
			}
			f->hits[m - 1] += f->hits[n - 1];
			f->counts[m - 1] += f->counts[n - 1];
			if (f->ends[m - 1] < f->ends[n - 1])
				f->ends[m - 1] = f->ends[n - 1];
		}
		if (f->links[n - 1].child) {
			n = f->links[n - 1].child;
			depth++;
			continue;
		}
		while (n != src && !f->links[n - 1].sibling) {
			n = f->links[n - 1].parent;
			depth--;
		}
		n = n == src ? 0 : f->links[n - 1].sibling;
	}
	free(path);
	free(ips);
	return 0;
}

/* A child is always made after its parent: one pass from the end sums the trees. */
int cg_forest_finish(struct cg_forest *f)
{
	free(f->sums);
	f->sums = NULL;
	if (!f->nr_nodes)
		return 0;
	if (order_children(f))
		return -ENOMEM;
	f->sums = calloc(f->nr_nodes, sizeof(*f->sums));
	if (!f->sums)
		return -ENOMEM;
	for (uint32_t i = f->nr_nodes; i-- > 0;) {
		uint32_t parent = f->links[i].parent;
		const struct cg_sums *n = &f->sums[i];
		struct cg_sums *up;

		if (!parent)
			continue;
		up = &f->sums[parent - 1];
		up->nr_children++;
		up->children_hit += f->hits[i] + n->children_hit;
		up->children_count += f->counts[i] + n->children_count;
		up->ends_below += (f->hits[i] > 0) + n->ends_below;
	}
	return 0;
}

/* ------------------------------------------------------------ printing */

struct pctx {
	struct rd_out *o;
	const struct cg_forest *f;
	const struct cg_params *p;
};

/* node i (index + 1) as printing reads it */
struct cg_node {
	uint32_t frame, parent, child, sibling, nr_children;
	uint64_t hit, children_hit;
	uint64_t count, children_count;
	uint64_t ends_below;
	uint64_t ip;		/* the address of the first chain through it */
};

static inline struct cg_node N(const struct pctx *c, uint32_t i)
{
	const struct cg_forest *f = c->f;
	const struct cg_link *l = &f->links[i - 1];
	const struct cg_sums *s = &f->sums[i - 1];

	return (struct cg_node){ .frame = l->frame, .parent = l->parent, .child = l->child,
				 .sibling = l->sibling, .nr_children = s->nr_children,
				 .hit = f->hits[i - 1], .children_hit = s->children_hit,
				 .count = f->counts[i - 1], .children_count = s->children_count,
				 .ends_below = s->ends_below, .ip = f->ips[i - 1] };
}

/* What node i shows: its frame's name, or its address (cg_params.bare_addresses). */
static const char *node_name(const struct pctx *c, uint32_t i, char buf[24])
{
	if (!c->p->bare_addresses)
		return c->f->frames[N(c, i).frame].name;
	snprintf(buf, 24, N(c, i).ip ? "%#llx" : "0", (unsigned long long)N(c, i).ip);
	return buf;
}

static uint64_t cumul(const struct pctx *c, uint32_t i)
{
	return N(c, i).hit + N(c, i).children_hit;
}

/* The last node of the run that starts at i (no branch, no end inside). */
static uint32_t run_end(const struct pctx *c, uint32_t i)
{
	while (!N(c, i).hit && N(c, i).nr_children == 1)
		i = N(c, i).child;
	return i;
}

static const struct pctx *sort_ctx;

/*
 * perf 6.1 keeps branches ordered by object (the address of its object
 * record: objects made first are lower, no object lowest), then, when both
 * frames are resolved, by symbol start, else by the addresses sampled
 * (match_chain: a symbol's start is in the object's address space, an
 * unresolved frame has only its address in the process, so a resolved
 * frame beside an unresolved one is compared by an address of its own);
 * equal shares come out highest first (-g ...,address: by the frames'
 * addresses, resolved or not).  The rank of each frame's object
 * (machine.h) is that order.
 */
static int frame_order(const struct cg_frame *a, const struct cg_frame *b)
{
	return frame_cmp(a, a->addr, b, b->addr);
}

/* Larger share first; equal shares: the higher frame first. */
static int branch_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint64_t cx = cumul(sort_ctx, x), cy = cumul(sort_ctx, y);
	const struct cg_frame *fx = &sort_ctx->f->frames[N(sort_ctx, x).frame];
	const struct cg_frame *fy = &sort_ctx->f->frames[N(sort_ctx, y).frame];

	if (cx != cy)
		return cx > cy ? -1 : 1;
	return -frame_order(fx, fy);
}

/* A branch and its place in perf's walk of its siblings' tree */
struct ranked {
	uint32_t node, rank;
};

/* Larger share first; equal shares in the order perf's tree walk gives them */
static int ranked_cmp(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	uint64_t cx = cumul(sort_ctx, x->node), cy = cumul(sort_ctx, y->node);

	if (cx != cy)
		return cx > cy ? -1 : 1;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

/* Whether branch k is shown at min_hit */
static bool shown_branch(const struct pctx *c, uint32_t k, uint64_t min_hit)
{
	return cumul(c, k) >= min_hit && cumul(c, k);
}

/*
 * Where node i's children have perf's tree (children of two kinds,
 * cg_siblings.h; every child is in it once built), no order of frames
 * gives perf's order of equal shares: its tree walk does.  The n children
 * shown at min_hit into v so sorted; false on ENOMEM.
 */
static bool sort_by_walk(const struct pctx *c, uint32_t i, uint64_t min_hit, uint32_t *v,
			 size_t n)
{
	uint32_t all = N(c, i).nr_children, m;
	uint32_t *walk = malloc((all + 1) * sizeof(*walk));
	struct ranked *r = malloc((n + 1) * sizeof(*r));
	size_t k = 0;

	if (!walk || !r) {
		free(walk);
		free(r);
		return false;
	}
	m = cg_siblings_in_order(&c->f->sib, i, walk, all);
	for (uint32_t j = 0; j < m && k < n; j++)
		if (shown_branch(c, walk[j], min_hit))
			r[k++] = (struct ranked){ walk[j], j };
	qsort(r, k, sizeof(*r), ranked_cmp);
	for (size_t j = 0; j < k; j++)
		v[j] = r[j].node;
	free(walk);
	free(r);
	return true;
}

/* The branches under node i at or above min_hit, sorted; caller frees. */
static uint32_t *branches(const struct pctx *c, uint32_t i, uint64_t min_hit, size_t *nr)
{
	uint32_t *v = malloc((N(c, i).nr_children + 1) * sizeof(*v));
	size_t n = 0;

	if (!v) {
		*nr = 0;
		return NULL;
	}
	for (uint32_t k = N(c, i).child; k; k = N(c, k).sibling)
		if (shown_branch(c, k, min_hit))
			v[n++] = k;
	sort_ctx = c;
	if (n > 1 && cg_siblings_built(&c->f->sib, i)) {
		if (!sort_by_walk(c, i, min_hit, v, n)) {
			free(v);
			*nr = 0;
			return NULL;
		}
	} else if (n > 1) {
		qsort(v, n, sizeof(*v), branch_cmp);
	}
	*nr = n;
	return v;
}

static uint64_t level_min(const struct pctx *c, uint32_t parent, uint64_t total)
{
	if (c->p->mode == CG_FRACTAL) {
		double v = (double)N(c, parent).children_hit * c->p->min_percent / 100.0;
		uint64_t u = (uint64_t)v;

		return (double)u < v ? u + 1 : u;	/* rounded up */
	}
	return (uint64_t)((double)total * (c->p->min_percent / 100.0));
}

static void margin(const struct pctx *c, int left)
{
	rd_out_pad(c->o, "", 12 + left);
}

/* a branch's value as -g asks: its period's share of total, the period, or its samples */
static void value_of(const struct pctx *c, uint64_t period, uint64_t count, uint64_t total)
{
	if (c->p->value == CG_PERIOD)
		rd_out_printf(c->o, "%llu", (unsigned long long)period);
	else if (c->p->value == CG_COUNT)
		rd_out_printf(c->o, "%llu", (unsigned long long)count);
	else
		rd_out_printf(c->o, "%.2f%%", total ? 100.0 * (double)period / (double)total : 0.0);
}

/* A node's own count and its children's (-g ...,count) */
static uint64_t own_count(const struct pctx *c, uint32_t i)
{
	return c->p->chains_once ? N(c, i).hit > 0 : N(c, i).count;
}

static uint64_t below_count(const struct pctx *c, uint32_t i)
{
	return c->p->chains_once ? N(c, i).ends_below : N(c, i).children_count;
}

static uint64_t cumul_count(const struct pctx *c, uint32_t i)
{
	return own_count(c, i) + below_count(c, i);
}

static void graph_line(const struct pctx *c, int depth, uint64_t mask, int left)
{
	margin(c, left);
	for (int i = 0; i < depth; i++)
		rd_out_str(c->o, (mask >> i) & 1 ? "|          " : "           ");
	rd_out_char(c->o, '\n');
}

static void graph_frame(const struct pctx *c, uint64_t value, uint64_t count, const char *name,
			int depth, uint64_t mask, bool first, uint64_t total, int left)
{
	margin(c, left);
	for (int i = 0; i < depth; i++) {
		rd_out_char(c->o, (mask >> i) & 1 ? '|' : ' ');
		if (first && i == depth - 1) {
			rd_out_str(c->o, "--");
			value_of(c, value, count, total);
			rd_out_str(c->o, "--");
		} else {
			rd_out_str(c->o, "          ");
		}
	}
	rd_out_str(c->o, name);
	rd_out_char(c->o, '\n');
}

static size_t graph_level(const struct pctx *c, uint32_t parent, uint64_t total, int depth,
			  uint64_t mask, int left)
{
	char nb[24];
	uint64_t min_hit = level_min(c, parent, total), remaining = total, new_mask = mask;
	uint64_t remaining_count = below_count(c, parent);
	size_t nr, lines = 0;
	uint32_t *v = branches(c, parent, min_hit, &nr);

	if (depth >= 63) {
		free(v);
		return 0;
	}
	for (size_t k = 0; k < nr; k++) {
		uint32_t first = v[k], last = run_end(c, first), i = first;
		uint64_t value = cumul(c, first), count = cumul_count(c, first);

		remaining -= value < remaining ? value : remaining;
		remaining_count -= count < remaining_count ? count : remaining_count;
		if (k + 1 == nr && (c->p->mode != CG_FRACTAL || !remaining))
			new_mask &= ~(1ULL << (depth - 1));
		graph_line(c, depth, mask, left);
		for (bool head = true;; head = false) {
			graph_frame(c, value, count, node_name(c, i, nb), depth,
				    new_mask, head, total, left);
			lines++;
			if (i == last)
				break;
			i = N(c, i).child;
		}
		lines += graph_level(c, last,
				     c->p->mode == CG_FRACTAL ? N(c, last).children_hit : total,
				     depth + 1, new_mask | (1ULL << depth), left);
	}
	/* in samples, perf shows the rest only when some samples are left to it */
	if (c->p->mode == CG_FRACTAL && nr && remaining && remaining != total &&
	    (c->p->value != CG_COUNT || remaining_count)) {
		/* the rest of the level, with no "|" line before it */
		new_mask &= ~(1ULL << (depth - 1));
		graph_frame(c, remaining, remaining_count,
			    c->p->rest_inlined ? "[...] (inlined)" : "[...]", depth, new_mask, true,
			    total, left);
		lines++;
	}
	free(v);
	return lines;
}

static void print_graph(const struct pctx *c, uint32_t root, uint64_t total, uint64_t parent)
{
	char nb[24];
	size_t nr, lines = 0;
	uint64_t top_total = c->p->mode == CG_FRACTAL ? parent : total;
	uint32_t *v = branches(c, root, level_min(c, root, total), &nr);
	int left = 0;

	if (nr == 1 && cumul(c, v[0]) == parent) {
		uint32_t i = v[0], last = run_end(c, i);
		bool printed = false;

		for (;; i = N(c, i).child) {
			if (i == v[0] && c->p->skip_first) {
				if (i == last)
					break;
				continue;
			}
			if (!printed) {
				margin(c, 0);
				rd_out_str(c->o, "|\n");
				margin(c, 0);
				rd_out_str(c->o, "---");
				left = 3;
				printed = true;
			} else {
				margin(c, left);
			}
			rd_out_str(c->o, node_name(c, i, nb));
			rd_out_char(c->o, '\n');
			lines++;
			if (i == last)
				break;
		}
		root = last;
	}
	free(v);
	lines += graph_level(c, root, top_total, 1, 1, left);
	if (lines)
		rd_out_char(c->o, '\n');
}

/* flat and folded: one chain per node where samples end */
struct chain_end {
	uint32_t node;
	uint32_t order;
	uint64_t hit;
};

static int end_cmp(const void *a, const void *b)
{
	const struct chain_end *x = a, *y = b;

	if (x->hit != y->hit)
		return x->hit > y->hit ? -1 : 1;
	/* equal: in perf's insertion order */
	return (x->order > y->order) - (x->order < y->order);
}

/*
 * Post-order, children by frame descending (perf's order of a node's
 * children): perf's insertion order, which it keeps for equal hits.
 */
static int collect_ends(const struct pctx *c, uint32_t n, uint64_t min_hit,
			struct chain_end **v, size_t *nr, size_t *cap)
{
	uint32_t kids[64], *k = kids;
	size_t nk = 0;

	if (N(c, n).nr_children > 64) {
		k = malloc(N(c, n).nr_children * sizeof(*k));
		if (!k)
			return -ENOMEM;
	}
	for (uint32_t i = N(c, n).child; i; i = N(c, i).sibling)
		k[nk++] = i;
	sort_ctx = c;
	for (size_t i = 1; i < nk; i++)
		for (size_t j = i; j > 0; j--) {
			const struct cg_frame *a = &c->f->frames[N(c, k[j - 1]).frame];
			const struct cg_frame *b = &c->f->frames[N(c, k[j]).frame];
			int r = -frame_order(a, b);
			uint32_t t;

			if (r <= 0)
				break;
			t = k[j];
			k[j] = k[j - 1];
			k[j - 1] = t;
		}
	for (size_t i = 0; i < nk; i++)
		if (collect_ends(c, k[i], min_hit, v, nr, cap)) {
			if (k != kids)
				free(k);
			return -ENOMEM;
		}
	if (k != kids)
		free(k);
	if (N(c, n).frame != UINT32_MAX && N(c, n).hit && N(c, n).hit >= min_hit) {
		if (*nr == *cap) {
			size_t nc = *cap ? 2 * *cap : 64;
			struct chain_end *nv = realloc(*v, nc * sizeof(*nv));

			if (!nv)
				return -ENOMEM;
			*v = nv;
			*cap = nc;
		}
		(*v)[*nr].node = n;
		(*v)[*nr].order = (uint32_t)*nr;
		(*v)[*nr].hit = N(c, n).hit;
		(*nr)++;
	}
	return 0;
}

/* The nodes from below the tree's root down to node n, by the parent links. */
static bool path_to(const struct pctx *c, uint32_t root, uint32_t n, uint32_t *path,
		    size_t *len, size_t max)
{
	size_t k = 0;

	for (uint32_t i = n; i && i != root; i = N(c, i).parent) {
		if (k == max)
			return false;
		path[k++] = i;
	}
	for (size_t i = 0; i < k / 2; i++) {
		uint32_t t = path[i];

		path[i] = path[k - 1 - i];
		path[k - 1 - i] = t;
	}
	*len = k;
	return true;
}

static void print_flat(const struct pctx *c, uint32_t root, uint64_t total)
{
	char nb[24];
	struct chain_end *v = NULL;
	size_t nr = 0, cap = 0;
	uint64_t min_hit = (uint64_t)((double)total * (c->p->min_percent / 100.0));
	uint32_t path[1024];

	if (collect_ends(c, root, min_hit, &v, &nr, &cap)) {
		free(v);
		return;
	}
	if (nr > 1)
		qsort(v, nr, sizeof(*v), end_cmp);
	for (size_t k = 0; k < nr; k++) {
		size_t len = 0;

		if (!path_to(c, root, v[k].node, path, &len, sizeof(path) / sizeof(path[0])))
			continue;
		if (c->p->mode == CG_FOLDED) {
			value_of(c, v[k].hit, own_count(c, v[k].node), total);
			rd_out_char(c->o, ' ');
			for (size_t i = 0; i < len; i++) {
				if (i)
					rd_out_char(c->o, ';');
				rd_out_str(c->o, node_name(c, path[i], nb));
			}
			rd_out_char(c->o, '\n');
			continue;
		}
		rd_out_str(c->o, "           ");
		value_of(c, cumul(c, v[k].node), cumul_count(c, v[k].node), total);
		rd_out_char(c->o, '\n');
		for (size_t i = 0; i < len; i++) {
			rd_out_str(c->o, "                ");
			rd_out_str(c->o, node_name(c, path[i], nb));
			rd_out_char(c->o, '\n');
		}
		rd_out_char(c->o, '\n');
	}
	free(v);
}

void cg_print(struct rd_out *o, const struct cg_forest *f, uint32_t root,
	      const struct cg_params *p, uint64_t total, uint64_t parent)
{
	struct pctx c = { .o = o, .f = f, .p = p };

	if (!root)
		return;
	switch (p->mode) {
	case CG_GRAPH:
	case CG_FRACTAL:
		print_graph(&c, root, total, parent);
		break;
	case CG_FLAT:
	case CG_FOLDED:
		print_flat(&c, root, total);
		break;
	default:
		break;
	}
}
