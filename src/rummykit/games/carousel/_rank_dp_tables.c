/* The rank DP's tables, built once per problem: interned suit states, the per-face
 * options with the layout tie-break, and the per-suit relaxed chain bounds with group
 * rooms and joker charges (PythonRankDp's counterparts in rank_dp.py and
 * rank_dp_moves.py say what each part means).
 */
#include "_rank_dp.h"

/* ----------------------------------------------------------------- suit states */

static inline int code_hi(uint32_t code) { return (int)(code & 7); }
static inline int code_count(uint32_t code, int k) { return (int)((code >> (3 + 3 * (k - 1))) & 7); }

int rdp_intern(RankDp *p, uint32_t code) {
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
    p->code_slot[id] = (int16_t)i;
    return id;
}

/* The open runs after u = 0..umax items of one suit join the runs of `code` at rank
 * (2-13): state[u] is 0 (the new code in out[u]), 1 (no such split) or 2 (too many
 * open runs to encode). Whatever u is, the short runs move up a class (no class can
 * overflow then: each receives one class's count); the u - shorts other items extend
 * the runs of class size, then size + 1, then open runs of class 1. */
enum { SPLIT_OK, SPLIT_NONE, SPLIT_OVERFLOW };

static void run_steps(RankDp *p, uint32_t code, int umax, int rank, uint32_t *out,
                      unsigned char *state) {
    int size = p->min_size;
    int hi = code_hi(code);
    int last = hi ? 14 : 13;
    int top = (hi && rank == size) ? size + 1 : size; /* where class size - 1 goes */
    uint32_t base = (uint32_t)hi;
    int shorts = 0;
    for (int k = 1; k < size; k++) {
        int count = code_count(code, k);
        shorts += count;
        base += (uint32_t)count << (3 * (k + 1 < size ? k + 1 : top));
    }
    int at_size = code_count(code, size), at_next = code_count(code, size + 1);
    int moved_size = top == size ? code_count(code, size - 1) : 0;
    int moved_next = top == size ? 0 : code_count(code, size - 1);
    for (int u = 0; u <= umax; u++) {
        state[u] = SPLIT_NONE;
        if (u < shorts) continue;
        int rest = u - shorts;
        int e1 = rest < at_size ? rest : at_size;
        rest -= e1;
        int e2 = rest < at_next ? rest : at_next;
        rest -= e2;
        if (rest && rank + size - 1 > last) continue;
        if (moved_size + e1 > 7 || moved_next + e2 > 7 || rest > 7) {
            state[u] = SPLIT_OVERFLOW;
            continue;
        }
        out[u] = base + ((uint32_t)e1 << (3 * size)) + ((uint32_t)e2 << (3 * (size + 1))) +
                 ((uint32_t)rest << 3);
        state[u] = SPLIT_OK;
    }
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

/* Whether gsum group items, gmax of them at one face, split into groups: the table
 * depends on the rules only, so it is built once per (min_size, max_set) and shared
 * (under the GIL: only constructors fill it). */
static unsigned char group_tables[5][5][16][64];
static unsigned char group_tables_ready[5][5];

const unsigned char (*rdp_group_table(int size, int max_set))[64] {
    if (!group_tables_ready[size][max_set]) {
        for (int gmax = 0; gmax < 16; gmax++)
            for (int gsum = 0; gsum < 64; gsum++)
                group_tables[size][max_set][gmax][gsum] =
                    (unsigned char)group_ok_calc(gmax, gsum, size, max_set);
        group_tables_ready[size][max_set] = 1;
    }
    return (const unsigned char (*)[64])group_tables[size][max_set];
}

/* ----------------------------------------------------------------- face options */

#define MAX_ITEMS 8             /* items of a face: the constructor refuses more than 7 */

/* One option: t items of the face split into u run items, h high-run items (rank 1)
 * and g = t - u - h group items, leading to suit state ns. */
static inline void add_option(RankDp *p, int32_t ns, int t, int u, int h, int x, int o, int w,
                             i64 base_gain, int kept, int in_groups, int runs_kept,
                             int in_high) {
    int g = t - u - h;
    int keep = kept + (g < in_groups ? g : in_groups);
    keep += (u < runs_kept ? u : runs_kept) + (h < in_high ? h : in_high);
    Opt *all = (Opt *)p->opts.data;
    all[p->opts.size++] = (Opt){ns, (int8_t)g, (int8_t)w, (int8_t)x, (int8_t)o,
                                (int8_t)u, (int8_t)h, base_gain + keep};
}

/* The id of a split's new state, interned when first met (so ids are given in the
 * order the options meet them). */
static inline int32_t split_id(RankDp *p, int32_t *cached, uint32_t code) {
    if (*cached < 0) *cached = rdp_intern(p, code);
    return *cached;
}

/* The raw options of one face from one suit state (as PythonRankDp.raw_options), when
 * rdp_raw_options has not met them: those of the face's class from the same state if
 * built, else built in PythonRankDp's order (x, o, w, then the splits of
 * t = forced + o + w). No option's (ns, g, w, x) repeats another's: the new code's
 * open runs number u (or give h and u, at rank 1), so ns fixes the split, hence t
 * and o; the Python class's merging of equal options never applies. */
Span *rdp_build_options(RankDp *p, int rank, int suit, int sid) {
    SlotTable *index = slots_of(p, suit, rank - 1);
    int face = suit * 13 + rank - 1;
    IdTable *shared = &p->class_raw[p->face_class[face]];
    int32_t known = sid < shared->size ? shared->v[sid] : 0;
    if (known) {
        Slot *slot = slot_at(index, sid);
        if (!slot) { p->error = 1; return NULL; }
        slot->raw = known;
        return &((Span *)p->raw_span_vec.data)[known - 1];
    }
    int kept_max = p->jokers[face];
    int real = p->real[face];
    int hand = p->hand[face];
    int cap = p->cap[face];
    int most = real + kept_max + hand + p->wild_max;
    if (most < cap) cap = most;
    if (cap >= MAX_ITEMS) { p->err_msg = "too many run splits"; p->error = 1; return NULL; }
    int real_ext = p->real_ext[face] < kept_max ? p->real_ext[face] : kept_max;
    int in_runs = p->in_runs[face], in_groups = p->in_groups[face], in_high = p->in_high[face];
    int runs_kept = in_runs - in_high;
    i64 weight = p->weight[face];
    uint32_t code = p->codes[sid];
    size_t start = p->opts.size;
    /* rank > 1: the split of u items; rank 1: code h + (u << 3) (never overflows) */
    uint32_t ucode[MAX_ITEMS];
    unsigned char ustate[MAX_ITEMS];
    int32_t ids[MAX_ITEMS][MAX_ITEMS];
    memset(ids, 0xFF, sizeof ids);
    int overflow_from = MAX_ITEMS;  /* the least u whose split overflows */
    int hcap = 0;
    if (rank > 1) {
        run_steps(p, code, cap, rank, ucode, ustate);
        for (int u = cap; u >= 0; u--)
            if (ustate[u] == SPLIT_OVERFLOW) overflow_from = u;
    } else if (p->ace_high) {
        hcap = p->high_cap[suit];
    }
    for (int x = 0; x <= kept_max; x++) {
        int forced = real + kept_max - x;
        if (forced > cap) continue;
        for (int o = 0; o <= hand; o++) {
            if (x > real + real_ext + o) continue;
            i64 base_gain = (i64)o * weight;
            for (int w = 0; w <= p->wild_max; w++) {
                int t = forced + o + w;
                if (t > cap) break;
                if (overflow_from <= t) {
                    p->err_msg = "too many open runs";
                    p->error = 1;
                    return NULL;
                }
                if (vec_reserve(&p->opts, (size_t)(t + 1) * (t + 1)) < 0) {
                    p->error = 1;
                    return NULL;
                }
                if (rank > 1) {
                    for (int u = 0; u <= t; u++) {
                        if (ustate[u] != SPLIT_OK) continue;
                        int32_t ns = split_id(p, &ids[0][u], ucode[u]);
                        if (ns < 0) return NULL;
                        add_option(p, ns, t, u, 0, x, o, w, base_gain, kept_max - x,
                                   in_groups, runs_kept, in_high);
                    }
                    continue;
                }
                int hmax = t < hcap ? t : hcap;
                for (int h = 0; h <= hmax; h++) {
                    int umax = p->ace_low ? t - h : 0;
                    for (int u = 0; u <= umax; u++) {
                        int32_t ns = split_id(p, &ids[h][u], (uint32_t)h | ((uint32_t)u << 3));
                        if (ns < 0) return NULL;
                        add_option(p, ns, t, u, h, x, o, w, base_gain, kept_max - x,
                                   in_groups, runs_kept, in_high);
                    }
                }
            }
        }
    }
    if (vec_reserve(&p->raw_span_vec, 1) < 0) { p->error = 1; return NULL; }
    Span *spans = (Span *)p->raw_span_vec.data;
    spans[p->raw_span_vec.size] = (Span){(int32_t)start, (int32_t)(p->opts.size - start)};
    int32_t made = (int32_t)(++p->raw_span_vec.size);
    Slot *slot = slot_at(index, sid);
    int32_t *again = id_at(shared, sid);
    if (!slot || !again) { p->error = 1; return NULL; }
    slot->raw = *again = made;
    return &spans[made - 1];
}

/* What a face's raw options depend on besides the state: its counts and limits, the
 * weight of its hand cards (when it has some), and its rank only through the run
 * rules (rank 1 opens runs; rank min_size may close a high run; late ranks cannot
 * open runs). */
typedef struct { u64 v[4]; } FaceSig;

static FaceSig face_sig(RankDp *p, int face) {
    int rank = face % 13 + 1, suit = face / 13;
    int kept_max = p->jokers[face], real = p->real[face], hand = p->hand[face];
    int cap = p->cap[face];
    int most = real + kept_max + hand + p->wild_max;
    int size = p->min_size;
    u64 rules;
    if (rank == 1)
        rules = 1 | (u64)p->high_cap[suit] << 4;
    else
        rules = 2 | (rank == size) << 2 | (rank + size - 1 > 13) << 3 |
                (rank + size - 1 > 14) << 4;
    /* counts are at most 1 << 20 (read_ints), high_cap at most 1 << 12 */
    FaceSig sig = {{(u64)kept_max | (u64)real << 21 | (u64)hand << 42,
                    (u64)(cap < most ? cap : most) |
                        (u64)(p->real_ext[face] < kept_max ? p->real_ext[face] : kept_max) << 21 |
                        (u64)p->in_runs[face] << 42,
                    (u64)p->in_groups[face] | (u64)p->in_high[face] << 21 | rules << 42,
                    hand ? (u64)p->weight[face] : 0}};
    return sig;
}

void rdp_face_classes(RankDp *p) {
    FaceSig sigs[52];
    int8_t table[128];          /* open addressing: face + 1 of each class, 0 = empty */
    memset(table, 0, sizeof table);
    for (int f = 0; f < 52; f++) {
        FaceSig sig = sigs[f] = face_sig(p, f);
        u64 h = ((sig.v[0] * 0x9E3779B97F4A7C15ULL ^ sig.v[1]) * 0xBF58476D1CE4E5B9ULL ^
                 sig.v[2]) * 0x94D049BB133111EBULL ^ sig.v[3];
        h *= 0x9E3779B97F4A7C15ULL;
        size_t i = (size_t)(h >> 57);
        while (table[i]) {
            const FaceSig *other = &sigs[table[i] - 1];
            if (other->v[0] == sig.v[0] && other->v[1] == sig.v[1] &&
                other->v[2] == sig.v[2] && other->v[3] == sig.v[3])
                break;
            i = (i + 1) & 127;
        }
        if (!table[i]) table[i] = (int8_t)(f + 1);
        p->face_class[f] = table[i] - 1;
    }
}

/* ----------------------------------------------------------------- bounds */

static int set_bound(RankDp *p, int suit, int rank, int id, int32_t value) {
    Slot *slot = slot_at(slots_of(p, suit, rank), id);
    if (!slot) { p->error = 1; return -1; }
    slot->bound = value;
    return 0;
}

static int32_t new_vec(RankDp *p, const i64 *values) {
    if (vec_reserve(&p->vecs, p->budget) < 0) { p->error = 1; return 0; }
    size_t at = p->vecs.size;
    i64 *dst = ((i64 *)p->vecs.data) + at;
    for (int k = 0; k < p->budget; k++) dst[k] = values[k] > DEAD ? values[k] : NEG;
    p->vecs.size += p->budget;
    return (int32_t)(at + 1);
}

static int reach_add(Vec *v, int id, unsigned char *seen) {
    if (seen[id]) return 0;
    seen[id] = 1;
    if (vec_reserve(v, 1) < 0) return -1;
    ((int32_t *)v->data)[v->size++] = id;
    return 0;
}

/* Group rooms and joker charges of the ranks in `ranks` (bit r: rank r), which
 * depend on the rank's groupable counts only; returns a bit mask of the suits that
 * changed, and sets top[suit] to the highest rank of the suit that changed (0: none). */
int rdp_set_rooms(RankDp *p, int groupable[4][14], int top[4], int ranks) {
    int size = p->min_size;
    int jokers = p->wild_max;
    int changed = 0;
    for (int suit = 0; suit < 4; suit++) top[suit] = 0;
    for (int rank = 1; rank <= 13; rank++) {
        if (!(ranks & (1 << rank))) continue;
        for (int suit = 0; suit < 4; suit++) {
            p->groupable[suit][rank] = groupable[suit][rank];
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
            if (room != p->group_room[suit][rank] ||
                memcmp(charges, p->charge[suit][rank], sizeof charges)) {
                p->group_room[suit][rank] = room;
                memcpy(p->charge[suit][rank], charges, sizeof charges);
                changed |= 1 << suit;
                top[suit] = rank;
            }
        }
    }
    return changed;
}

/* The suit's reach sets (once) and its bounds at ranks below `from` (14: all), those
 * above staying as they are: a bound depends on the rooms and charges of the ranks
 * after its own only. */
static int suit_chain(RankDp *p, int suit, int from) {
    int budget = p->budget;
    int fresh = !p->have_reach[suit]; /* no bounds yet to clear */
    if (fresh) {
        unsigned char *seen = p->seen;
        if (reach_add(&p->reach[suit][0], 0, seen) < 0) { p->error = 1; return -1; }
        for (int rank = 1; rank <= 13; rank++) {
            int room = p->group_room[suit][rank];
            int *charge = p->charge[suit][rank];
            Vec *prev = &p->reach[suit][rank - 1];
            /* seen holds exactly the previous rank's ids: unmark them */
            for (size_t i = 0; i < prev->size; i++) seen[((int32_t *)prev->data)[i]] = 0;
            for (size_t i = 0; i < prev->size; i++) {
                int sid = ((int32_t *)prev->data)[i];
                Span *span = rdp_raw_options(p, rank, suit, sid);
                if (!span) return -1;
                for (int j = 0; j < span->count; j++) {
                    Opt *o = &((Opt *)p->opts.data)[span->start + j];
                    if (o->g <= room && o->w + charge[o->g] < budget)
                        if (reach_add(&p->reach[suit][rank], o->ns, seen) < 0) {
                            p->error = 1;
                            return -1;
                        }
                }
            }
        }
        Vec *last = &p->reach[suit][13];
        for (size_t i = 0; i < last->size; i++) seen[((int32_t *)last->data)[i]] = 0;
        p->have_reach[suit] = 1;
    }
    /* Clear the suit's old bounds. */
    for (int rank = 0; !fresh && rank < from; rank++) {
        Vec *r = &p->reach[suit][rank];
        for (size_t i = 0; i < r->size; i++) {
            int sid = ((int32_t *)r->data)[i];
            SlotTable *t = slots_of(p, suit, rank);
            if (sid < t->size) t->v[sid].bound = t->v[sid].waived = 0;
        }
    }
    i64 zero[MAX_BUDGET] = {0};
    Vec *last = &p->reach[suit][13];
    for (size_t i = 0; from == 14 && i < last->size; i++) {
        int sid = ((int32_t *)last->data)[i];
        if (final_ok(p, p->codes[sid])) {
            int32_t v = new_vec(p, zero);
            if (!v) return -1;
            if (set_bound(p, suit, 13, sid, v) < 0) return -1;
        }
    }
    for (int rank = from < 14 ? from : 13; rank >= 1; rank--) {
        int room = p->group_room[suit][rank];
        int *charge = p->charge[suit][rank];
        Vec *here = &p->reach[suit][rank - 1];
        const SlotTable *next = slots_of(p, suit, rank);
        SlotTable *own = slots_of(p, suit, rank - 1);
        for (size_t i = 0; i < here->size; i++) {
            int sid = ((int32_t *)here->data)[i];
            Span *span = rdp_raw_options(p, rank, suit, sid);
            if (!span) return -1;
            i64 top[MAX_BUDGET], freev[MAX_BUDGET];
            for (int k = 0; k < budget; k++) top[k] = freev[k] = NEG;
            const Opt *opts = (const Opt *)p->opts.data + span->start;
            int charged = 0;
            for (int j = 0; j < span->count; j++) {
                const Opt *o = &opts[j];
                if (o->g > room || o->ns >= next->size) continue;
                int32_t fi = next->v[o->ns].bound;
                if (!fi) continue;
                const i64 *future = vec_at(p, fi);
                if (budget == 1) { /* no jokers: no charges (see rdp_set_rooms) */
                    i64 value = o->gain + future[0];
                    if (value > top[0]) top[0] = freev[0] = value;
                    continue;
                }
                charged |= charge[o->g];
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
            /* the charges often change nothing: then one vector serves both */
            int has_top = top[budget - 1] > DEAD, has_free = freev[budget - 1] > DEAD;
            if (!has_top && !has_free) continue;
            Slot *slot = slot_at(own, sid);
            if (!slot) { p->error = 1; return -1; }
            int32_t v = 0;
            if (has_top) {
                if (!(v = new_vec(p, top))) return -1;
                slot->bound = v;
            }
            if (has_free) {
                int same = has_top;
                for (int k = 0; same && charged && k < budget; k++) same = top[k] == freev[k];
                if (!same && !(v = new_vec(p, freev))) return -1;
                slot->waived = v;
            }
        }
    }
    return 0;
}

int rdp_suit_bounds(RankDp *p) {
    int stale = 0xF;
    int upto[4] = {13, 13, 13, 13}; /* per suit, the highest rank whose bounds changed */
    int groupable[4][14];
    memcpy(groupable, p->groupable, sizeof groupable);
    for (int suit = 0; suit < 4; suit++)
        if (suit_chain(p, suit, 14) < 0) return -1;
    for (int round = 0; round < 1000; round++) {
        int ranks = 0; /* the ranks whose groupable counts changed */
        for (int suit = 0; suit < 4; suit++) {
            if (!(stale & (1 << suit))) continue;
            /* above upto, neither the bounds nor the rooms changed */
            for (int rank = 1; rank <= upto[suit]; rank++) {
                int room = p->group_room[suit][rank];
                int *charge = p->charge[suit][rank];
                int top = 0;
                Vec *prev = &p->reach[suit][rank - 1];
                for (size_t i = 0; i < prev->size; i++) {
                    int sid = ((int32_t *)prev->data)[i];
                    if (!get_bound(p, suit, rank - 1, sid)) continue;
                    Span *span = rdp_raw_options(p, rank, suit, sid);
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
                if (groupable[suit][rank] != top) {
                    groupable[suit][rank] = top;
                    ranks |= 1 << rank;
                }
            }
        }
        stale = rdp_set_rooms(p, groupable, upto, ranks);
        if (!stale) return 0;
        for (int suit = 0; suit < 4; suit++)
            if (stale & (1 << suit))
                if (suit_chain(p, suit, upto[suit]) < 0) return -1;
    }
    p->err_msg = "group rooms did not settle";
    p->error = 1;
    return -1;
}
