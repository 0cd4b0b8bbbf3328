/* The rank DP's tables, built once per problem: interned suit states, the per-face
 * options with the layout tie-break, and the per-suit relaxed chain bounds with group
 * rooms and joker charges (PythonRankDp's counterparts in rank_dp.py and
 * rank_dp_moves.py say what each part means).
 */
#include "_rank_dp.h"

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
Span *rdp_raw_options(RankDp *p, int rank, int suit, int sid) {
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
                    int ns = rdp_intern(p, sp[i].code);
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

static int set_bound(RankDp *p, int suit, int rank, int id, int32_t value) {
    return id_set(&p->bound_index[suit * 14 + rank], id, value);
}

static int set_waived(RankDp *p, int suit, int rank, int id, int32_t value) {
    return id_set(&p->waived_index[suit * 14 + rank], id, value);
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
int rdp_set_rooms(RankDp *p, int groupable[4][14]) {
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
            int room = p->group_room[suit][rank];
            int *charge = p->charge[suit][rank];
            Vec *prev = &p->reach[suit][rank - 1];
            /* seen holds exactly the previous rank's ids: unmark them */
            for (size_t i = 0; i < prev->size; i++) seen[((int32_t *)prev->data)[i]] = 0;
            for (size_t i = 0; i < prev->size; i++) {
                int sid = ((int32_t *)prev->data)[i];
                Span *span = rdp_raw_options(p, rank, suit, sid);
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
            id_clear(&p->bound_index[suit * 14 + rank], sid);
            id_clear(&p->waived_index[suit * 14 + rank], sid);
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
            Span *span = rdp_raw_options(p, rank, suit, sid);
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

int rdp_suit_bounds(RankDp *p) {
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
                groupable[suit][rank] = top;
            }
        }
        stale = rdp_set_rooms(p, groupable);
        if (!stale) return 0;
        for (int suit = 0; suit < 4; suit++)
            if (stale & (1 << suit))
                if (suit_chain(p, suit) < 0) return -1;
    }
    p->err_msg = "group rooms did not settle";
    p->error = 1;
    return -1;
}
