/* The rank DP of rummykit.games.carousel.arrange, compiled.
 *
 * This is the same algorithm as the pure-Python class ``PythonRankDp`` in rank_dp.py
 * (see its docstrings, and rank_dp_moves.py's, for what every part means): interned
 * suit states, the per-face options with the layout tie-break, the per-suit relaxed
 * chain bounds with group rooms and joker charges, and the depth-first branch and
 * bound with a transposition table.
 * It visits the states in the same order and returns the same layout, only about a
 * hundred times faster; rank_dp_select.py falls back to the Python class when this
 * module is missing or a problem lies outside the limits below (RankDpUnsupportedError).
 *
 * Python API:
 *   RankDp(*problem)            problem as built by rank_dp_select.compiled_arguments
 *   .upper_bound() -> int       -1 when the table cannot be laid out
 *   .depth_first(floor, target) -> None or (score, used, freed, choices)
 *       target < 0 means "no target"; choices is a list of 52 8-tuples
 *       (rank, suit, x, o, w, u, g, h).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int64_t i64;
typedef uint64_t u64;

#define NEG (-(((i64)1) << 60))
#define DEAD (NEG / 2)
#define MAX_IDS 4096            /* suit-state ids fit in 12 bits of a key */
#define MAX_BUDGET 8            /* wild_max + 1 */
#define MAX_CLASS 5             /* run-length classes 1..min_size+1, min_size <= 4 */
#define CODE_BITS 18            /* hi (3 bits) + 5 classes x 3 bits */
#define MAX_ROOM 16
#define SUIT_BITS 12
#define SUIT_MASK ((u64)0xFFF)
#define GSUM_SHIFT 48
#define GMAX_SHIFT 54
#define USED_SHIFT 58
#define FREED_SHIFT 61
#define GROUP_CLEAR (~(((u64)0x3FF) << GSUM_SHIFT))

static PyObject *Unsupported;

typedef struct {
    int32_t ns;  /* new suit-state id */
    int8_t g, w, x, o, u, h;
    i64 gain;
} Opt;

typedef struct {
    u64 packed;  /* ns << (suit * SUIT_BITS) */
    u64 delta;   /* (w << USED_SHIFT) + (x << FREED_SHIFT) */
    int32_t fut; /* index of the new state's bound vector */
    int8_t g, w, x, o, u, h;
    i64 gain;
} Move;

typedef struct {
    i64 total;
    u64 key;
    i64 gain;
    int8_t x, o, w, u, g, h;
} Child;

typedef struct { int32_t start, count; } Span;

typedef struct {
    void *data;
    size_t size, cap, item;
} Vec;

static int vec_reserve(Vec *v, size_t extra) {
    if (v->size + extra <= v->cap) return 0;
    size_t cap = v->cap ? v->cap : 64;
    while (cap < v->size + extra) cap *= 2;
    void *data = realloc(v->data, cap * v->item);
    if (!data) return -1;
    v->data = data;
    v->cap = cap;
    return 0;
}

typedef struct { u64 key; int32_t step; i64 value; } MemoSlot;

/* A small table indexed by suit-state id, grown on demand (0 = absent). */
typedef struct { int32_t *v; int size; } IdTable;

static inline int32_t id_get(const IdTable *t, int id) { return id < t->size ? t->v[id] : 0; }

static int id_set(IdTable *t, int id, int32_t value) {
    if (id >= t->size) {
        int size = t->size ? t->size : 32;
        while (size <= id) size *= 2;
        int32_t *v = realloc(t->v, (size_t)size * sizeof(int32_t));
        if (!v) return -1;
        memset(v + t->size, 0, (size_t)(size - t->size) * sizeof(int32_t));
        t->v = v;
        t->size = size;
    }
    t->v[id] = value;
    return 0;
}

#define CODE_SLOTS 4096         /* open addressing, load kept under a half */


typedef struct {
    PyObject_HEAD
    /* the problem */
    int min_size, max_set, ace_low, ace_high;
    int real[52], jokers[52], real_ext[52], cap[52], hand[52];
    int in_runs[52], in_groups[52], in_high[52];
    i64 weight[52];
    int hand_jokers;
    i64 joker_weight, unit;
    /* derived */
    int wild_max, budget;
    int high_cap[4];
    unsigned char group_ok[16][64];
    int group_room[4][14];
    int charge[4][14][MAX_ROOM + 1];
    i64 joker_bound;
    /* suit states */
    uint32_t code_keys[CODE_SLOTS]; /* code + 1 (0 = empty) */
    int16_t code_ids[CODE_SLOTS];
    uint32_t codes[MAX_IDS];
    int n_ids;
    /* raw options and moves, per (rank, suit, id): span + 1 in the pools */
    IdTable raw_index[14 * 4];  /* per (rank, suit): span + 1, 0 = not computed */
    Span *raw_spans;
    Vec raw_span_vec;
    Vec opts;
    IdTable move_index[14 * 4];
    Vec move_span_vec;
    Vec moves;
    /* bounds: per (suit, rank, id) the index + 1 of a vector in vecs */
    IdTable bound_index[4 * 14]; /* per (suit, rank) */
    IdTable waived_index[4 * 14];
    Vec vecs;                   /* i64 vectors of `budget` entries */
    /* reach sets: per suit and rank 0..13, lists of ids */
    Vec reach[4][14];
    int have_reach[4];
    /* finish cache: (rank, suit, gmax, gsum) -> 0 unknown, 1 no, 2 yes */
    unsigned char finish[14][4][16][64];
    /* search */
    MemoSlot *memo;
    Child *children;            /* 52 x MAX_CHILDREN, one buffer per depth */
    size_t memo_cap, memo_size;
    int path[52][6];
    int best_path[52][6];
    int have_best, best_used, best_freed;
    i64 best_score;
    i64 threshold;
    i64 goal;
    int goal_reached;
    int error;
    long long nodes;            /* states the last search expanded */
    const char *err_msg;        /* why the search failed (NULL: out of memory) */
} RankDp;

/* ----------------------------------------------------------------- suit states */

static inline int code_hi(uint32_t code) { return (int)(code & 7); }
static inline int code_count(uint32_t code, int k) { return (int)((code >> (3 + 3 * (k - 1))) & 7); }

static int encode(RankDp *p, int hi, const int *counts, uint32_t *out) {
    if (hi > 7) return -1;
    uint32_t code = (uint32_t)hi;
    for (int k = 1; k <= p->min_size + 1; k++) {
        if (counts[k] > 7) return -1;
        code |= (uint32_t)counts[k] << (3 + 3 * (k - 1));
    }
    *out = code;
    return 0;
}

static int intern(RankDp *p, uint32_t code) {
    size_t i = (code * 2654435761u) & (CODE_SLOTS - 1);
    while (p->code_keys[i]) {
        if (p->code_keys[i] == code + 1) return p->code_ids[i];
        i = (i + 1) & (CODE_SLOTS - 1);
    }
    if (p->n_ids >= MAX_IDS || p->n_ids >= CODE_SLOTS / 2) {
        p->err_msg = "too many suit states";
        p->error = 1;
        return -1;
    }
    int id = p->n_ids++;
    p->codes[id] = code;
    p->code_keys[i] = code + 1;
    p->code_ids[i] = (int16_t)id;
    return id;
}

/* Open runs after u items of one suit join runs at rank (2-13); 0 ok, 1 none, -1 error. */
static int run_step(RankDp *p, uint32_t code, int u, int rank, int last, uint32_t *out) {
    int size = p->min_size;
    int hi = code_hi(code);
    int c[MAX_CLASS + 2] = {0};
    int nc[MAX_CLASS + 2] = {0};
    int shorts = 0;
    for (int k = 1; k <= size + 1; k++) c[k] = code_count(code, k);
    for (int k = 1; k < size; k++) shorts += c[k];
    if (u < shorts) return 1;
    int rest = u - shorts;
    for (int k = 1; k < size; k++) {
        int nk = k + 1;
        if (nk >= size) nk = (hi && rank == size) ? size + 1 : size;
        nc[nk] += c[k];
    }
    int ext = rest < c[size] ? rest : c[size];
    nc[size] += ext;
    rest -= ext;
    ext = rest < c[size + 1] ? rest : c[size + 1];
    nc[size + 1] += ext;
    rest -= ext;
    if (rest) {
        if (rank + size - 1 > last) return 1;
        nc[1] += rest;
    }
    if (encode(p, hi, nc, out) < 0) {
        p->err_msg = "too many open runs";
        p->error = 1;
        return -1;
    }
    return 0;
}

static int final_ok(RankDp *p, uint32_t code) {
    int size = p->min_size;
    int hi = code_hi(code);
    int shorts = 0;
    for (int k = 1; k < size; k++) shorts += code_count(code, k);
    if (!hi) return shorts == 0;
    for (int k = 1; k < size; k++)
        if (code_count(code, k) && k + 1 < size) return 0;
    return shorts <= hi && hi <= shorts + code_count(code, size);
}

static int group_ok_calc(int gmax, int gsum, int size, int max_set) {
    if (gsum == 0) return 1;
    int groups = (gsum + max_set - 1) / max_set;
    if (gmax > groups) groups = gmax;
    return groups * size <= gsum;
}

/* ----------------------------------------------------------------- face options */

#define MAX_SPLITS 256
typedef struct { uint32_t code; int u, h; } Split;

static int splits(RankDp *p, uint32_t code, int t, int rank, int high_cap, Split *out) {
    int n = 0;
    if (rank == 1) {
        int hmax = p->ace_high ? (t < high_cap ? t : high_cap) : 0;
        for (int h = 0; h <= hmax; h++) {
            int umax = p->ace_low ? t - h : 0;
            for (int u = 0; u <= umax; u++) {
                int counts[MAX_CLASS + 2] = {0};
                counts[1] = u;
                uint32_t nc;
                if (encode(p, h, counts, &nc) < 0) {
                    p->err_msg = "too many open runs";
                    p->error = 1;
                    return -1;
                }
                if (n >= MAX_SPLITS) { p->err_msg = "too many run splits"; p->error = 1; return -1; }
                out[n++] = (Split){nc, u, h};
            }
        }
    } else {
        int last = code_hi(code) ? 14 : 13;
        for (int u = 0; u <= t; u++) {
            uint32_t nc;
            int r = run_step(p, code, u, rank, last, &nc);
            if (r < 0) return -1;
            if (r == 0) {
                if (n >= MAX_SPLITS) { p->err_msg = "too many run splits"; p->error = 1; return -1; }
                out[n++] = (Split){nc, u, 0};
            }
        }
    }
    return n;
}

/* The raw options of one face from one suit state (as PythonRankDp.raw_options). */
static Span *raw_options(RankDp *p, int rank, int suit, int sid) {
    IdTable *index = &p->raw_index[rank * 4 + suit];
    int32_t idx = id_get(index, sid);
    if (idx) return &((Span *)p->raw_span_vec.data)[idx - 1];
    int face = suit * 13 + rank - 1;
    int kept_max = p->jokers[face];
    int real = p->real[face];
    int hand = p->hand[face];
    int cap = p->cap[face];
    int most = real + kept_max + hand + p->wild_max;
    if (most < cap) cap = most;
    int real_ext = p->real_ext[face] < kept_max ? p->real_ext[face] : kept_max;
    int high_cap = rank == 1 ? p->high_cap[suit] : 0;
    int in_runs = p->in_runs[face], in_groups = p->in_groups[face], in_high = p->in_high[face];
    uint32_t code = p->codes[sid];
    size_t start = p->opts.size;
    Split sp[MAX_SPLITS];
    for (int x = 0; x <= kept_max; x++) {
        int forced = real + kept_max - x;
        if (forced > cap) continue;
        for (int o = 0; o <= hand; o++) {
            if (x > real + real_ext + o) continue;
            for (int w = 0; w <= p->wild_max; w++) {
                int t = forced + o + w;
                if (t > cap) break;
                int n = splits(p, code, t, rank, high_cap, sp);
                if (n < 0) return NULL;
                for (int i = 0; i < n; i++) {
                    int u = sp[i].u, h = sp[i].h;
                    int g = t - u - h;
                    int keep = (kept_max - x) + (g < in_groups ? g : in_groups);
                    int runs_kept = in_runs - in_high;
                    keep += (u < runs_kept ? u : runs_kept) + (h < in_high ? h : in_high);
                    int ns = intern(p, sp[i].code);
                    if (ns < 0) return NULL;
                    Opt *all = (Opt *)p->opts.data;
                    size_t j;
                    for (j = start; j < p->opts.size; j++)
                        if (all[j].ns == ns && all[j].g == g && all[j].w == w && all[j].x == x) break;
                    i64 gain = (i64)o * p->weight[face] + keep;
                    if (j < p->opts.size) {
                        if (gain > all[j].gain) {
                            all[j].o = (int8_t)o; all[j].u = (int8_t)u; all[j].h = (int8_t)h;
                            all[j].gain = gain;
                        }
                        continue;
                    }
                    if (vec_reserve(&p->opts, 1) < 0) { p->error = 1; return NULL; }
                    all = (Opt *)p->opts.data;
                    all[p->opts.size++] = (Opt){ns, (int8_t)g, (int8_t)w, (int8_t)x, (int8_t)o,
                                                (int8_t)u, (int8_t)h, gain};
                }
            }
        }
    }
    if (vec_reserve(&p->raw_span_vec, 1) < 0) { p->error = 1; return NULL; }
    Span *spans = (Span *)p->raw_span_vec.data;
    spans[p->raw_span_vec.size] = (Span){(int32_t)start, (int32_t)(p->opts.size - start)};
    if (id_set(index, sid, (int32_t)(++p->raw_span_vec.size)) < 0) { p->error = 1; return NULL; }
    return &spans[p->raw_span_vec.size - 1];
}

/* ----------------------------------------------------------------- bounds */

static inline int32_t get_bound(RankDp *p, int suit, int rank, int id) {
    return id_get(&p->bound_index[suit * 14 + rank], id);
}

static inline int32_t get_waived(RankDp *p, int suit, int rank, int id) {
    return id_get(&p->waived_index[suit * 14 + rank], id);
}

static int set_bound(RankDp *p, int suit, int rank, int id, int32_t value) {
    return id_set(&p->bound_index[suit * 14 + rank], id, value);
}

static int set_waived(RankDp *p, int suit, int rank, int id, int32_t value) {
    return id_set(&p->waived_index[suit * 14 + rank], id, value);
}

static inline i64 *vec_at(RankDp *p, int32_t index1) {
    return ((i64 *)p->vecs.data) + (size_t)(index1 - 1) * p->budget;
}

static int32_t new_vec(RankDp *p, const i64 *values) {
    if (vec_reserve(&p->vecs, p->budget) < 0) { p->error = 1; return 0; }
    i64 *dst = ((i64 *)p->vecs.data) + p->vecs.size;
    for (int k = 0; k < p->budget; k++) dst[k] = values[k] > DEAD ? values[k] : NEG;
    p->vecs.size += p->budget;
    return (int32_t)(p->vecs.size / p->budget);
}

static int reach_add(Vec *v, int id, unsigned char *seen) {
    if (seen[id]) return 0;
    seen[id] = 1;
    if (vec_reserve(v, 1) < 0) return -1;
    ((int32_t *)v->data)[v->size++] = id;
    return 0;
}

/* Group rooms and joker charges; returns a bit mask of the suits that changed. */
static int set_rooms(RankDp *p, int groupable[4][14]) {
    int size = p->min_size;
    int jokers = p->wild_max;
    int changed = 0;
    for (int rank = 1; rank <= 13; rank++) {
        for (int suit = 0; suit < 4; suit++) {
            int face = suit * 13 + rank - 1;
            int lowest = 1;
            for (int t = 0; t < suit; t++)
                if (groupable[t][rank]) lowest = 0;
            int own = groupable[suit][rank] + jokers;
            if (p->cap[face] < own) own = p->cap[face];
            if (own > MAX_ROOM) own = MAX_ROOM;
            int room = 0;
            int charges[MAX_ROOM + 1] = {0};
            for (int g = 1; g <= own; g++) {
                int free = 0, with = 0;
                for (int t = 0; t < 4; t++) {
                    if (t == suit) continue;
                    int m = groupable[t][rank];
                    free += g < m ? g : m;
                    with += g < m + jokers ? g : m + jokers;
                }
                int partners = with < free + jokers ? with : free + jokers;
                if (partners < (size - 1) * g) break;
                room = g;
                int need = (size - 1) * g - free;
                charges[g] = lowest && need > 0 ? need : 0;
            }
            int differs = room != p->group_room[suit][rank];
            for (int g = 0; g <= MAX_ROOM && !differs; g++)
                if (charges[g] != p->charge[suit][rank][g]) differs = 1;
            if (differs) {
                p->group_room[suit][rank] = room;
                memcpy(p->charge[suit][rank], charges, sizeof charges);
                changed |= 1 << suit;
            }
        }
    }
    return changed;
}

static int suit_chain(RankDp *p, int suit) {
    int budget = p->budget;
    if (!p->have_reach[suit]) {
        unsigned char *seen = calloc(MAX_IDS, 1);
        if (!seen) { p->error = 1; return -1; }
        for (int r = 0; r < 14; r++) p->reach[suit][r] = (Vec){NULL, 0, 0, sizeof(int32_t)};
        if (reach_add(&p->reach[suit][0], 0, seen) < 0) { free(seen); return -1; }
        for (int rank = 1; rank <= 13; rank++) {
            memset(seen, 0, MAX_IDS);
            int room = p->group_room[suit][rank];
            int *charge = p->charge[suit][rank];
            Vec *prev = &p->reach[suit][rank - 1];
            for (size_t i = 0; i < prev->size; i++) {
                int sid = ((int32_t *)prev->data)[i];
                Span *span = raw_options(p, rank, suit, sid);
                if (!span) { free(seen); return -1; }
                for (int j = 0; j < span->count; j++) {
                    Opt *o = &((Opt *)p->opts.data)[span->start + j];
                    if (o->g <= room && o->w + charge[o->g] < budget)
                        if (reach_add(&p->reach[suit][rank], o->ns, seen) < 0) {
                            free(seen);
                            return -1;
                        }
                }
            }
        }
        free(seen);
        p->have_reach[suit] = 1;
    }
    /* Clear the suit's old bounds. */
    for (int rank = 0; rank < 14; rank++) {
        Vec *r = &p->reach[suit][rank];
        for (size_t i = 0; i < r->size; i++) {
            int sid = ((int32_t *)r->data)[i];
            if (set_bound(p, suit, rank, sid, 0) < 0) return -1;
            if (set_waived(p, suit, rank, sid, 0) < 0) return -1;
        }
    }
    i64 zero[MAX_BUDGET] = {0};
    Vec *last = &p->reach[suit][13];
    for (size_t i = 0; i < last->size; i++) {
        int sid = ((int32_t *)last->data)[i];
        if (final_ok(p, p->codes[sid])) {
            int32_t v = new_vec(p, zero);
            if (!v) return -1;
            if (set_bound(p, suit, 13, sid, v) < 0) return -1;
        }
    }
    for (int rank = 13; rank >= 1; rank--) {
        int room = p->group_room[suit][rank];
        int *charge = p->charge[suit][rank];
        Vec *here = &p->reach[suit][rank - 1];
        for (size_t i = 0; i < here->size; i++) {
            int sid = ((int32_t *)here->data)[i];
            Span *span = raw_options(p, rank, suit, sid);
            if (!span) return -1;
            i64 top[MAX_BUDGET], freev[MAX_BUDGET];
            for (int k = 0; k < budget; k++) top[k] = freev[k] = NEG;
            for (int j = 0; j < span->count; j++) {
                Opt *o = &((Opt *)p->opts.data)[span->start + j];
                int32_t fi = get_bound(p, suit, rank, o->ns);
                if (!fi || o->g > room) continue;
                const i64 *future = vec_at(p, fi);
                if (budget == 1) {
                    i64 value = o->gain + future[0];
                    if (value > top[0]) top[0] = value;
                    continue;
                }
                int cost = o->w + charge[o->g];
                for (int k = o->w; k < budget; k++) {
                    i64 value = o->gain + future[k - o->w];
                    if (value > freev[k]) freev[k] = value;
                    if (k >= cost) {
                        value = o->gain + future[k - cost];
                        if (value > top[k]) top[k] = value;
                    }
                }
            }
            if (budget == 1) {
                if (top[0] > DEAD) {
                    int32_t v = new_vec(p, top);
                    if (!v) return -1;
                    if (set_bound(p, suit, rank - 1, sid, v) < 0) return -1;
                    if (set_waived(p, suit, rank - 1, sid, v) < 0) return -1;
                }
                continue;
            }
            if (top[budget - 1] > DEAD) {
                int32_t v = new_vec(p, top);
                if (!v) return -1;
                if (set_bound(p, suit, rank - 1, sid, v) < 0) return -1;
            }
            if (freev[budget - 1] > DEAD) {
                int32_t v = new_vec(p, freev);
                if (!v) return -1;
                if (set_waived(p, suit, rank - 1, sid, v) < 0) return -1;
            }
        }
    }
    return 0;
}

static int suit_bounds(RankDp *p) {
    int stale = 0xF;
    int groupable[4][14] = {{0}};
    for (int suit = 0; suit < 4; suit++)
        if (suit_chain(p, suit) < 0) return -1;
    for (int round = 0; round < 1000; round++) {
        for (int suit = 0; suit < 4; suit++) {
            if (!(stale & (1 << suit))) continue;
            for (int rank = 1; rank <= 13; rank++) {
                int room = p->group_room[suit][rank];
                int *charge = p->charge[suit][rank];
                int top = 0;
                Vec *prev = &p->reach[suit][rank - 1];
                for (size_t i = 0; i < prev->size; i++) {
                    int sid = ((int32_t *)prev->data)[i];
                    if (!get_bound(p, suit, rank - 1, sid)) continue;
                    Span *span = raw_options(p, rank, suit, sid);
                    if (!span) return -1;
                    for (int j = 0; j < span->count; j++) {
                        Opt *o = &((Opt *)p->opts.data)[span->start + j];
                        if (o->g > room || o->g <= top) continue;
                        int32_t fi = get_bound(p, suit, rank, o->ns);
                        int cost = o->w + charge[o->g];
                        if (!fi || cost > p->wild_max) continue;
                        if (vec_at(p, fi)[p->wild_max - cost] <= DEAD) continue;
                        int t = o->u + o->g + o->h - o->w;
                        int v = o->g < t ? o->g : t;
                        if (v > top) top = v;
                    }
                }
                groupable[suit][rank] = top;
            }
        }
        stale = set_rooms(p, groupable);
        if (!stale) return 0;
        for (int suit = 0; suit < 4; suit++)
            if (stale & (1 << suit))
                if (suit_chain(p, suit) < 0) return -1;
    }
    p->err_msg = "group rooms did not settle";
    p->error = 1;
    return -1;
}

/* ----------------------------------------------------------------- search */

static void combine(const i64 *const *vectors, int n, int budget, i64 *out) {
    if (budget == 0) {
        i64 s = 0;
        for (int i = 0; i < n; i++) s += vectors[i][0];
        out[0] = s;
        return;
    }
    if (budget == 1) {
        i64 base = 0, best = 0;
        for (int i = 0; i < n; i++) base += vectors[i][0];
        for (int i = 0; i < n; i++) {
            i64 d = vectors[i][1] - vectors[i][0];
            if (i == 0 || d > best) best = d;
        }
        out[0] = base;
        out[1] = base + best;
        return;
    }
    i64 acc[MAX_BUDGET], nxt[MAX_BUDGET];
    for (int k = 0; k <= budget; k++) acc[k] = vectors[0][k];
    for (int v = 1; v < n; v++) {
        for (int k = 0; k <= budget; k++) {
            i64 best = acc[0] + vectors[v][k];
            for (int i = 1; i <= k; i++) {
                i64 value = acc[i] + vectors[v][k - i];
                if (value > best) best = value;
            }
            nxt[k] = best;
        }
        memcpy(acc, nxt, sizeof(i64) * (budget + 1));
    }
    memcpy(out, acc, sizeof(i64) * (budget + 1));
}

static Span *moves_from(RankDp *p, int rank, int suit, int sid) {
    IdTable *index = &p->move_index[rank * 4 + suit];
    int32_t idx = id_get(index, sid);
    if (idx) return &((Span *)p->move_span_vec.data)[idx - 1];
    size_t start = p->moves.size;
    if (get_waived(p, suit, rank - 1, sid)) {
        Span *span = raw_options(p, rank, suit, sid);
        if (!span) return NULL;
        for (int j = 0; j < span->count; j++) {
            Opt o = ((Opt *)p->opts.data)[span->start + j];
            int32_t fi = get_bound(p, suit, rank, o.ns);
            if (!fi) continue;
            if (vec_reserve(&p->moves, 1) < 0) { p->error = 1; return NULL; }
            Move *m = &((Move *)p->moves.data)[p->moves.size++];
            m->packed = (u64)o.ns << (suit * SUIT_BITS);
            m->delta = ((u64)o.w << USED_SHIFT) + ((u64)o.x << FREED_SHIFT);
            m->fut = fi;
            m->g = o.g; m->w = o.w; m->x = o.x; m->o = o.o; m->u = o.u; m->h = o.h;
            m->gain = o.gain;
        }
        /* Stable insertion sort, best gain + bound first (as Python's sort). */
        Move *all = (Move *)p->moves.data + start;
        size_t n = p->moves.size - start;
        int last = p->budget - 1;
        for (size_t i = 1; i < n; i++) {
            Move m = all[i];
            i64 km = m.gain + vec_at(p, m.fut)[last];
            size_t j = i;
            while (j > 0 && all[j - 1].gain + vec_at(p, all[j - 1].fut)[last] < km) {
                all[j] = all[j - 1];
                j--;
            }
            all[j] = m;
        }
    }
    /* Then, for each number of jokers left L < wild_max, the moves placing at most L
     * wild items, in the same order (the search skips the others anyway). Spans
     * 0..wild_max of a state are consecutive: span L holds the moves with w <= L. */
    size_t count = p->moves.size - start;
    if (vec_reserve(&p->move_span_vec, (size_t)p->wild_max + 1) < 0) { p->error = 1; return NULL; }
    size_t first = p->move_span_vec.size;
    for (int left = 0; left < p->wild_max; left++) {
        size_t from = p->moves.size;
        if (vec_reserve(&p->moves, count) < 0) { p->error = 1; return NULL; }
        Move *all = (Move *)p->moves.data;
        for (size_t i = start; i < start + count; i++)
            if (all[i].w <= left) all[p->moves.size++] = all[i];
        ((Span *)p->move_span_vec.data)[p->move_span_vec.size++] =
            (Span){(int32_t)from, (int32_t)(p->moves.size - from)};
    }
    ((Span *)p->move_span_vec.data)[p->move_span_vec.size++] =
        (Span){(int32_t)start, (int32_t)count};
    if (id_set(index, sid, (int32_t)(first + 1)) < 0) { p->error = 1; return NULL; }
    return &((Span *)p->move_span_vec.data)[first];
}

static int can_finish(RankDp *p, int rank, int suit, int gmax, int gsum) {
    unsigned char *known = &p->finish[rank][suit][gmax][gsum];
    if (*known) return *known == 2;
    int most[4], n = 0, total = 0;
    for (int t = suit + 1; t < 4; t++) {
        int f = t * 13 + rank - 1;
        int m = p->real[f] + p->jokers[f] + p->hand[f] + p->wild_max;
        if (p->cap[f] < m) m = p->cap[f];
        most[n++] = m;
        total += m;
    }
    int ok = 0;
    for (int m = gmax > 1 ? gmax : 1; m <= gsum + total && !ok; m++) {
        if (gsum > p->max_set * m) continue;
        int s = gsum;
        for (int i = 0; i < n; i++) s += most[i] < m ? most[i] : m;
        if (s >= p->min_size * m) ok = 1;
    }
    *known = ok ? 2 : 1;
    return ok;
}

static i64 upper_bound(RankDp *p) {
    const i64 *vectors[4];
    for (int suit = 0; suit < 4; suit++) {
        int32_t fi = get_bound(p, suit, 0, 0);
        if (!fi) return -1;
        vectors[suit] = vec_at(p, fi);
    }
    i64 out[MAX_BUDGET];
    combine(vectors, 4, p->wild_max, out);
    i64 best = out[p->wild_max];
    return best <= DEAD ? -1 : best + p->joker_bound;
}

static inline size_t memo_hash(u64 key, int step) {
    u64 h = key ^ ((u64)step * 0x9E3779B97F4A7C15ULL); /* splitmix64's finaliser */
    h ^= h >> 30;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 27;
    h *= 0x94D049BB133111EBULL;
    h ^= h >> 31;
    return (size_t)h;
}

static MemoSlot *memo_find(RankDp *p, u64 key, int step) {
    size_t mask = p->memo_cap - 1;
    size_t i = memo_hash(key, step) & mask;
    while (p->memo[i].step >= 0) {
        if (p->memo[i].key == key && p->memo[i].step == step) return &p->memo[i];
        i = (i + 1) & mask;
    }
    return &p->memo[i];
}

static int memo_grow(RankDp *p) {
    size_t old_cap = p->memo_cap;
    MemoSlot *old = p->memo;
    size_t cap = old_cap ? old_cap * 2 : 1 << 12;
    MemoSlot *fresh = malloc(cap * sizeof(MemoSlot));
    if (!fresh) return -1;
    for (size_t i = 0; i < cap; i++) fresh[i].step = -1;
    p->memo = fresh;
    p->memo_cap = cap;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].step >= 0) *memo_find(p, old[i].key, old[i].step) = old[i];
    free(old);
    return 0;
}

#define MAX_CHILDREN 256

static int child_before(const Child *a, const Child *b, i64 unit) {
    i64 pa = a->total / unit, pb = b->total / unit;
    if (pa != pb) return pa > pb;
    if (a->w != b->w) return a->w < b->w;
    i64 ta = a->gain % unit, tb = b->gain % unit;
    if (ta != tb) return ta > tb;
    return a->total > b->total;
}

static i64 visit(RankDp *p, int step, u64 key, i64 score) {
    if (p->error || p->goal_reached) return NEG;
    if (step == 52) {
        int used = (int)((key >> USED_SHIFT) & 7);
        int freed = (int)((key >> FREED_SHIFT) & 7);
        if (!(freed <= used && used <= freed + p->hand_jokers)) return NEG;
        i64 total = score + (i64)(used - freed) * p->joker_weight;
        if (total > p->threshold) {
            memcpy(p->best_path, p->path, sizeof p->path);
            p->have_best = 1;
            p->best_score = total;
            p->best_used = used;
            p->best_freed = freed;
            i64 primary = total / p->unit;
            if (primary >= p->goal) {
                p->goal_reached = 1;
                return total;
            }
            p->threshold = (primary + 1) * p->unit - 1;
        }
        return total;
    }
    MemoSlot *slot = memo_find(p, key, step);
    int known_present = slot->step >= 0;
    i64 known = known_present ? slot->value : 0;
    if (known_present && score + known <= p->threshold) return score + known;

    p->nodes++;
    /* expand */
    int rank = step / 4 + 1, suit = step % 4;
    int shift = suit * SUIT_BITS;
    int sid = (int)((key >> shift) & SUIT_MASK);
    Span *spans = moves_from(p, rank, suit, sid);
    if (!spans) return NEG;
    u64 base = key & ~(SUIT_MASK << shift);
    int left = p->wild_max - (int)((key >> USED_SHIFT) & 7);
    Span *span = &spans[left];  /* the moves placing at most `left` wild items */
    int gsum = (int)((key >> GSUM_SHIFT) & 63);
    int gmax = (int)((key >> GMAX_SHIFT) & 15);
    const i64 *others[3];
    int n_others = 0;
    for (int t = 0; t < 4; t++) {
        if (t == suit) continue;
        int st = (int)((key >> (t * SUIT_BITS)) & SUIT_MASK);
        int32_t fi = t < suit ? get_bound(p, t, rank, st)
                              : get_waived(p, t, rank - 1, st);
        if (!fi) { /* cannot happen: every state on a path has bounds */
            p->err_msg = "missing bound";
            p->error = 1;
            return NEG;
        }
        others[n_others++] = vec_at(p, fi);
    }
    i64 rest[MAX_BUDGET];
    combine(others, n_others, left, rest);
    i64 base_score = score + p->joker_bound;
    Child *children = p->children + (size_t)step * MAX_CHILDREN;
    int n_children = 0;
    i64 result = NEG;
    Move *moves = (Move *)p->moves.data + span->start;
    for (int i = 0; i < span->count; i++) {
        Move *m = &moves[i];
        const i64 *future = vec_at(p, m->fut);
        i64 tail;
        if (!left) {
            if (m->w) continue;
            tail = rest[0] + future[0];
        } else {
            if (m->w > left) continue;
            int room = left - m->w;
            tail = NEG;
            for (int k = 0; k <= room; k++) {
                i64 value = rest[k] + future[room - k];
                if (value > tail) tail = value;
            }
        }
        if (tail <= DEAD) continue;
        i64 total = base_score + m->gain + tail;
        if (total <= p->threshold) {
            if (total > result) result = total;
            continue;
        }
        int ng = gsum + m->g;
        int nm = gmax >= m->g ? gmax : m->g;
        u64 nk;
        if (suit == 3) {
            if (ng > 63 || nm > 15 || !p->group_ok[nm][ng]) continue;
            nk = ((base & GROUP_CLEAR) | m->packed) + m->delta;
        } else {
            if (ng > 63 || nm > 15) {
                p->err_msg = "group counts overflow";
                p->error = 1;
                return NEG;
            }
            if (ng && !can_finish(p, rank, suit, nm, ng)) continue;
            nk = (base | m->packed) + m->delta + ((u64)m->g << GSUM_SHIFT);
            if (nm != gmax) nk += (u64)(nm - gmax) << GMAX_SHIFT;
        }
        if (n_children >= MAX_CHILDREN) {
            p->err_msg = "too many children";
            p->error = 1;
            return NEG;
        }
        Child c = {total, nk, m->gain, m->x, m->o, m->w, m->u, m->g, m->h};
        int j = n_children++;
        while (j > 0 && child_before(&c, &children[j - 1], p->unit)) {
            children[j] = children[j - 1];
            j--;
        }
        children[j] = c;
    }
    for (int i = 0; i < n_children; i++) {
        Child *c = &children[i];
        if (c->total <= p->threshold) {
            if (c->total > result) result = c->total;
            break;
        }
        int *entry = p->path[step];
        entry[0] = c->x; entry[1] = c->o; entry[2] = c->w;
        entry[3] = c->u; entry[4] = c->g; entry[5] = c->h;
        i64 found = visit(p, step + 1, c->key, score + c->gain);
        if (p->error || p->goal_reached) return NEG;
        if (found > result) result = found;
    }
    i64 future_bound = result - score;
    if (p->memo_size * 2 >= p->memo_cap) {
        if (memo_grow(p) < 0) { p->error = 1; return NEG; }
    }
    slot = memo_find(p, key, step);
    if (slot->step < 0) {
        slot->key = key;
        slot->step = step;
        slot->value = future_bound;
        p->memo_size++;
    } else if (future_bound < slot->value) {
        slot->value = future_bound;
    }
    return result;
}

/* ----------------------------------------------------------------- the type */

static PyObject *raise_error(RankDp *p) {
    if (p->err_msg)
        PyErr_SetString(Unsupported, p->err_msg);
    else
        PyErr_NoMemory();
    return NULL;
}

static void RankDp_dealloc(RankDp *self) {
    for (int i = 0; i < 14 * 4; i++) {
        free(self->raw_index[i].v);
        free(self->move_index[i].v);
        free(self->bound_index[i].v);
        free(self->waived_index[i].v);
    }
    free(self->raw_span_vec.data);
    free(self->opts.data);
    free(self->move_span_vec.data);
    free(self->moves.data);
    free(self->vecs.data);
    for (int s = 0; s < 4; s++)
        if (self->have_reach[s])
            for (int r = 0; r < 14; r++) free(self->reach[s][r].data);
    free(self->memo);
    free(self->children);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int read_ints(PyObject *seq, int *out, const char *name) {
    PyObject *fast = PySequence_Fast(seq, name);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != 52) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s must have 52 entries", name);
        return -1;
    }
    for (int i = 0; i < 52; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        if (v < 0 || v > (1 << 20)) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "%s out of range", name);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return 0;
}

static int RankDp_init(RankDp *self, PyObject *args, PyObject *Py_UNUSED(kwds)) {
    PyObject *real, *jokers, *real_ext, *cap, *hand, *weight, *in_runs, *in_groups, *in_high;
    int min_size, max_set, ace_low, ace_high, hand_jokers;
    long long joker_weight, unit;
    if (!PyArg_ParseTuple(args, "iippOOOOOiOLOOOL", &min_size, &max_set, &ace_low, &ace_high,
                          &real, &jokers, &real_ext, &cap, &hand, &hand_jokers, &weight,
                          &joker_weight, &in_runs, &in_groups, &in_high, &unit))
        return -1;
    RankDp *p = self;
    if (p->children) {
        PyErr_SetString(PyExc_RuntimeError, "a RankDp is initialised once");
        return -1;
    }
    if (min_size < 2 || min_size > 4 || max_set < min_size || max_set > 4) {
        PyErr_SetString(Unsupported, "rules outside the compiled limits");
        return -1;
    }
    p->min_size = min_size; p->max_set = max_set; p->ace_low = ace_low; p->ace_high = ace_high;
    p->hand_jokers = hand_jokers;
    p->joker_weight = joker_weight;
    p->unit = unit;
    if (unit <= 0 || joker_weight < 0 || joker_weight > ((i64)1 << 40)) {
        PyErr_SetString(Unsupported, "weights outside the compiled limits");
        return -1;
    }
    if (read_ints(real, p->real, "real") < 0 || read_ints(jokers, p->jokers, "jokers") < 0 ||
        read_ints(real_ext, p->real_ext, "real_ext") < 0 || read_ints(cap, p->cap, "cap") < 0 ||
        read_ints(hand, p->hand, "hand") < 0 || read_ints(in_runs, p->in_runs, "in_runs") < 0 ||
        read_ints(in_groups, p->in_groups, "in_groups") < 0 ||
        read_ints(in_high, p->in_high, "in_high") < 0)
        return -1;
    {
        PyObject *fast = PySequence_Fast(weight, "weight");
        if (!fast) return -1;
        if (PySequence_Fast_GET_SIZE(fast) != 52) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "weight must have 52 entries");
            return -1;
        }
        for (int i = 0; i < 52; i++) {
            long long v = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fast, i));
            if (v == -1 && PyErr_Occurred()) {
                Py_DECREF(fast);
                if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
                    PyErr_Clear();
                    PyErr_SetString(Unsupported, "weights outside the compiled limits");
                }
                return -1;
            }
            if (v < 0 || v > ((i64)1 << 40)) {
                Py_DECREF(fast);
                PyErr_SetString(Unsupported, "weights outside the compiled limits");
                return -1;
            }
            p->weight[i] = v;
        }
        Py_DECREF(fast);
    }
    int wild = hand_jokers;
    for (int f = 0; f < 52; f++) {
        int m = p->real[f] + p->real_ext[f] + p->hand[f];
        wild += p->jokers[f] < m ? p->jokers[f] : m;
    }
    if (wild + 1 > MAX_BUDGET || hand_jokers > 7) {
        PyErr_SetString(Unsupported, "too many jokers for the compiled solver");
        return -1;
    }
    p->wild_max = wild;
    p->budget = wild + 1;
    for (int f = 0; f < 52; f++) {
        int most = p->real[f] + p->jokers[f] + p->hand[f] + wild;
        if ((p->cap[f] < most ? p->cap[f] : most) > 7) {
            PyErr_SetString(Unsupported, "too many copies for the compiled solver");
            return -1;
        }
    }
    int size = min_size;
    for (int suit = 0; suit < 4; suit++) {
        p->high_cap[suit] = 0;
        if (!ace_high) continue;
        int reach = 1 << 12;
        for (int rank = 14 - size + 1; rank < 14; rank++) {
            int face = suit * 13 + rank - 1;
            int avail = p->real[face] + p->jokers[face] + p->hand[face] + wild;
            if (avail < reach) reach = avail;
            if (p->cap[face] < reach) reach = p->cap[face];
        }
        p->high_cap[suit] = reach;
    }
    for (int gmax = 0; gmax < 16; gmax++)
        for (int gsum = 0; gsum < 64; gsum++)
            p->group_ok[gmax][gsum] = (unsigned char)group_ok_calc(gmax, gsum, size, max_set);
    p->children = malloc((size_t)52 * MAX_CHILDREN * sizeof(Child));
    if (!p->children) {
        PyErr_NoMemory();
        return -1;
    }
    p->raw_span_vec.item = sizeof(Span);
    p->move_span_vec.item = sizeof(Span);
    p->opts.item = sizeof(Opt);
    p->moves.item = sizeof(Move);
    p->vecs.item = sizeof(i64);
    p->n_ids = 0;
    if (intern(p, 0) != 0) return -1;
    int groupable[4][14] = {{0}};
    for (int s = 0; s < 4; s++)
        for (int r = 1; r <= 13; r++) {
            int f = s * 13 + r - 1;
            int m = p->real[f] + p->jokers[f] + p->hand[f];
            groupable[s][r] = p->cap[f] < m ? p->cap[f] : m;
        }
    set_rooms(p, groupable);
    if (suit_bounds(p) < 0) {
        raise_error(p);
        return -1;
    }
    p->joker_bound = (i64)hand_jokers * joker_weight;
    return 0;
}

static PyObject *RankDp_upper_bound(RankDp *self, PyObject *Py_UNUSED(ignored)) {
    return PyLong_FromLongLong(upper_bound(self));
}

static PyObject *RankDp_depth_first(RankDp *self, PyObject *args) {
    long long floor, target;
    if (!PyArg_ParseTuple(args, "LL", &floor, &target)) return NULL;
    RankDp *p = self;
    i64 top = upper_bound(p);
    if (top < 0) Py_RETURN_NONE;
    i64 unit = p->unit;
    p->threshold = floor < 0 ? -1 : (floor + 1) * unit - 1;
    p->goal = target < 0 ? top / unit : (target < top / unit ? target : top / unit);
    if (p->goal <= floor) Py_RETURN_NONE;
    p->have_best = 0;
    p->goal_reached = 0;
    p->error = 0;
    p->nodes = 0;
    p->err_msg = NULL;
    free(p->memo);
    p->memo = NULL;
    p->memo_cap = 0;
    p->memo_size = 0;
    if (memo_grow(p) < 0) return PyErr_NoMemory();
    /* Aspiration: first look only for layouts reaching the bound (often one does, and
     * the search then never wanders through worse layouts on the way). The first
     * layout found is the one the plain search would stop at, since the subtrees it
     * skips hold no such layout. If none exists, the plain search follows, and the
     * remembered state bounds (true upper bounds whatever the threshold) carry over. */
    i64 plain = p->threshold;
    i64 aspire = p->goal * unit - 1;
    Py_BEGIN_ALLOW_THREADS  /* the search touches no Python object */
    if (aspire > plain) {
        p->threshold = aspire;
        visit(p, 0, 0, 0);
        if (!p->have_best && !p->error) {
            p->threshold = plain;
            visit(p, 0, 0, 0);
        }
    } else {
        visit(p, 0, 0, 0);
    }
    Py_END_ALLOW_THREADS
    if (p->error) return raise_error(p);
    if (!p->have_best) Py_RETURN_NONE;
    PyObject *choices = PyList_New(52);
    if (!choices) return NULL;
    for (int i = 0; i < 52; i++) {
        int *c = p->best_path[i];
        PyObject *item = Py_BuildValue("(iiiiiiii)", i / 4 + 1, i % 4, c[0], c[1], c[2], c[3],
                                       c[4], c[5]);
        if (!item) { Py_DECREF(choices); return NULL; }
        PyList_SET_ITEM(choices, i, item);
    }
    return Py_BuildValue("(LiiN)", (long long)p->best_score, p->best_used, p->best_freed,
                         choices);
}

static PyObject *RankDp_nodes(RankDp *self, PyObject *Py_UNUSED(ignored)) {
    return PyLong_FromLongLong(self->nodes);
}

static PyMethodDef RankDp_methods[] = {
    {"upper_bound", (PyCFunction)RankDp_upper_bound, METH_NOARGS,
     "The bound on the best total (negative when the table cannot be laid)."},
    {"depth_first", (PyCFunction)RankDp_depth_first, METH_VARARGS,
     "depth_first(floor, target) -> None or (score, used, freed, choices)."},
    {"nodes", (PyCFunction)RankDp_nodes, METH_NOARGS, "States the last search expanded."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject RankDpType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "rummykit.games.carousel._rank_dp.RankDp",
    .tp_basicsize = sizeof(RankDp),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The compiled rank DP of one placement problem.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)RankDp_init,
    .tp_dealloc = (destructor)RankDp_dealloc,
    .tp_methods = RankDp_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_rank_dp",
    "The compiled rank DP of rummykit.games.carousel.arrange (same results as PythonRankDp).",
    -1, NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__rank_dp(void) {
    if (PyType_Ready(&RankDpType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Unsupported = PyErr_NewException("rummykit.games.carousel._rank_dp.RankDpUnsupportedError", NULL, NULL);
    if (!Unsupported || PyModule_AddObjectRef(m, "RankDpUnsupportedError", Unsupported) < 0 ||
        PyModule_AddObjectRef(m, "RankDp", (PyObject *)&RankDpType) < 0) {
        Py_XDECREF(Unsupported);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
