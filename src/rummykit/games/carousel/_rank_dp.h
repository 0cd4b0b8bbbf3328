/* The compiled rank DP's problem, tables and search state, shared by its sources:
 * _rank_dp.c (the Python type), _rank_dp_tables.c (suit states, face options and the
 * per-suit bounds built once per problem) and _rank_dp_search.c (the search).
 */
#ifndef RUMMYKIT_RANK_DP_H
#define RUMMYKIT_RANK_DP_H

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
#define MAX_CHILDREN 256        /* moves kept per search step */

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

static inline int vec_reserve(Vec *v, size_t extra) {
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

static inline int id_set(IdTable *t, int id, int32_t value) {
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
    int order[4];               /* suit k of the arrays is the caller's suit order[k] */
    i64 joker_weight, unit;
    /* derived */
    int wild_max, budget;
    int high_cap[4];
    const unsigned char (*group_ok)[64]; /* [gmax][gsum], shared per rules */
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

/* ------------------------------------------------ shared by the three sources */

static inline int32_t get_bound(RankDp *p, int suit, int rank, int id) {
    return id_get(&p->bound_index[suit * 14 + rank], id);
}

static inline int32_t get_waived(RankDp *p, int suit, int rank, int id) {
    return id_get(&p->waived_index[suit * 14 + rank], id);
}

/* Forget an id's entry; an id beyond the table has none (id_get reads 0). */
static inline void id_clear(IdTable *t, int id) {
    if (id < t->size) t->v[id] = 0;
}

static inline i64 *vec_at(RankDp *p, int32_t index1) {
    return ((i64 *)p->vecs.data) + (size_t)(index1 - 1) * p->budget;
}

/* _rank_dp_tables.c: suit states, face options, group rooms and chain bounds */
int rdp_intern(RankDp *p, uint32_t code);
const unsigned char (*rdp_group_table(int size, int max_set))[64];
int rdp_set_rooms(RankDp *p, int groupable[4][14]);
int rdp_suit_bounds(RankDp *p);
Span *rdp_raw_options(RankDp *p, int rank, int suit, int sid);

/* _rank_dp_search.c: the depth-first branch and bound */
i64 rdp_upper_bound(RankDp *p);
int rdp_memo_grow(RankDp *p);
i64 rdp_visit(RankDp *p, int step, u64 key, i64 score);

#endif
