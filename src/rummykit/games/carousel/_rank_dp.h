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
#define MEMO_START_BITS 12
#define MEMO_START (1 << MEMO_START_BITS) /* transposition table slots a search starts with */

typedef struct {
    int32_t ns;  /* new suit-state id */
    int8_t g, w, x, o, u, h;
    i64 gain;
} Opt;

typedef struct {
    u64 packed;  /* ns << (suit * SUIT_BITS) */
    u64 delta;   /* (w << USED_SHIFT) + (x << FREED_SHIFT) */
    int32_t fut; /* index of the new state's bound vector */
    int8_t x, o, w, u, g, h;     /* in the order of a Child's and a path entry's */
    i64 gain;
} Move;

typedef struct {
    i64 total;
    i64 primary;  /* total / unit */
    i64 tie;      /* gain % unit */
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

/* A transposition-table entry, in use when `search` is the current search's number
 * (so a new search starts from a full table without clearing it). */
typedef struct { u64 key; int32_t step; uint32_t search; i64 value; } MemoSlot;

/* What is known of one suit state at one (suit, r), r = 0..13, the state holding the
 * suit's runs after rank r: indexes + 1 into the pools, 0 = absent. */
typedef struct {
    int32_t raw;    /* raw options of face r + 1 from the state (raw_span_vec) */
    int32_t move;   /* the first of its moves' spans (move_span_vec) */
    int32_t bound;  /* its bound vector (vecs) */
    int32_t waived; /* its bound vector with the group charges waived (vecs) */
} Slot;

/* Make room for entry `id` of a table indexed by suit-state id (`item` bytes an entry;
 * grown on demand, doubling from 32, new entries zero) and mark it used: `used` is one
 * past the highest id written, so that emptying the table for the next problem clears
 * only that much. Returns the table's entries, NULL when out of memory. */
static inline void *table_room(void *v, int *size, int *used, int id, size_t item) {
    if (id >= *size) {
        int grown = *size ? *size : 32;
        while (grown <= id) grown *= 2;
        char *data = realloc(v, (size_t)grown * item);
        if (!data) return NULL;
        memset(data + (size_t)*size * item, 0, (size_t)(grown - *size) * item);
        v = data;
        *size = grown;
    }
    if (id >= *used) *used = id + 1;
    return v;
}

/* Slots by suit-state id (see table_room). */
typedef struct { Slot *v; int size, used; } SlotTable;

static inline Slot *slot_at(SlotTable *t, int id) {
    Slot *v = table_room(t->v, &t->size, &t->used, id, sizeof(Slot));
    return v ? &(t->v = v)[id] : NULL;
}

/* Span indexes + 1 by suit-state id (0 = absent; see table_room). */
typedef struct { int32_t *v; int size, used; } IdTable;

static inline int32_t *id_at(IdTable *t, int id) {
    int32_t *v = table_room(t->v, &t->size, &t->used, id, sizeof(int32_t));
    return v ? &(t->v = v)[id] : NULL;
}

#define CODE_SLOTS 4096         /* open addressing, load kept under a half */

/* One problem's tables and search state. The Python object holds a pointer to one;
 * released ones are kept (a few, emptied, their buffers still allocated) for the next
 * problems: most problems are small, and allocating and zeroing the tables anew would
 * cost more than solving them. */
typedef struct RankDp {
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
    int groupable[4][14];       /* the counts group_room and charge were set from */
    int group_room[4][14];
    int charge[4][14][MAX_ROOM + 1];
    i64 joker_bound;
    /* suit states; code_keys is all zero between problems (only the slots recorded
     * in code_slot are written) */
    uint32_t code_keys[CODE_SLOTS]; /* code + 1 (0 = empty) */
    int16_t code_ids[CODE_SLOTS];
    int16_t code_slot[MAX_IDS];
    uint32_t codes[MAX_IDS];
    int n_ids;
    unsigned char seen[MAX_IDS]; /* reach sets' marks, all zero between uses */
    /* per (suit, r): the raw options, moves and bounds of each state (see Slot) */
    SlotTable slots[4 * 14];
    /* faces whose options are the same from every state (same counts, limits and,
     * when the hand has some, weight): their class, the first such face, and per
     * class the raw options already built from each state */
    int face_class[52];
    IdTable class_raw[52];
    Vec raw_span_vec;
    Vec opts;
    Vec move_span_vec;
    Vec moves;
    Vec vecs;                   /* i64 vectors of `budget` entries, end to end */
    /* reach sets: per suit and rank 0..13, lists of ids */
    Vec reach[4][14];
    int have_reach[4];
    /* finish cache: (rank, suit, gmax, gsum) -> 0 unknown, 1 no, 2 yes; the block of
     * a (rank, suit) is zeroed when first used (bit rank * 4 + suit of finish_ready) */
    u64 finish_ready;
    unsigned char finish[14][4][16][64];
    /* search */
    MemoSlot *memo;
    Child *children;            /* 52 x MAX_CHILDREN, one buffer per depth */
    size_t memo_cap, memo_alloc, memo_size;
    uint32_t search;            /* the current search's number, from 1 */
    int memo_shift;             /* 64 - log2(memo_cap) */
    int8_t path[52][6];         /* per step: x, o, w, u, g, h (as in Child) */
    int8_t best_path[52][6];
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

static inline SlotTable *slots_of(RankDp *p, int suit, int r) {
    return &p->slots[suit * 14 + r];
}

static inline int32_t get_bound(RankDp *p, int suit, int rank, int id) {
    const SlotTable *t = slots_of(p, suit, rank);
    return id < t->size ? t->v[id].bound : 0;
}

static inline int32_t get_waived(RankDp *p, int suit, int rank, int id) {
    const SlotTable *t = slots_of(p, suit, rank);
    return id < t->size ? t->v[id].waived : 0;
}

/* A bound vector, by the index + 1 of its first entry in vecs. */
static inline i64 *vec_at(RankDp *p, int32_t index1) {
    return ((i64 *)p->vecs.data) + (index1 - 1);
}

/* _rank_dp_tables.c: suit states, face options, group rooms and chain bounds */
int rdp_intern(RankDp *p, uint32_t code);
void rdp_face_classes(RankDp *p);
const unsigned char (*rdp_group_table(int size, int max_set))[64];
int rdp_set_rooms(RankDp *p, int groupable[4][14], int top[4], int ranks);
int rdp_suit_bounds(RankDp *p);
Span *rdp_build_options(RankDp *p, int rank, int suit, int sid);

/* The raw options of face (rank, suit) from state sid, built once. */
static inline Span *rdp_raw_options(RankDp *p, int rank, int suit, int sid) {
    const SlotTable *t = slots_of(p, suit, rank - 1);
    int32_t idx = sid < t->size ? t->v[sid].raw : 0;
    if (idx) return &((Span *)p->raw_span_vec.data)[idx - 1];
    return rdp_build_options(p, rank, suit, sid);
}

/* _rank_dp_search.c: the depth-first branch and bound */
i64 rdp_upper_bound(RankDp *p);
int rdp_memo_grow(RankDp *p);
int rdp_memo_start(RankDp *p);
i64 rdp_visit(RankDp *p, int step, u64 key, i64 score);

#endif
