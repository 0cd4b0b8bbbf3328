/* The rank DP's depth-first branch and bound with a transposition table, over the
 * tables of _rank_dp_tables.c; it touches no Python object (it runs without the GIL).
 */
#include "_rank_dp.h"

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
    SlotTable *index = slots_of(p, suit, rank - 1);
    int32_t idx = sid < index->size ? index->v[sid].move : 0;
    if (idx) return &((Span *)p->move_span_vec.data)[idx - 1];
    size_t start = p->moves.size;
    if (get_waived(p, suit, rank - 1, sid)) {
        Span *span = rdp_raw_options(p, rank, suit, sid);
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
    Slot *slot = slot_at(index, sid);
    if (!slot) { p->error = 1; return NULL; }
    slot->move = (int32_t)(first + 1);
    return &((Span *)p->move_span_vec.data)[first];
}

static int can_finish(RankDp *p, int rank, int suit, int gmax, int gsum) {
    u64 bit = (u64)1 << (rank * 4 + suit);
    if (!(p->finish_ready & bit)) {
        memset(p->finish[rank][suit], 0, sizeof p->finish[rank][suit]);
        p->finish_ready |= bit;
    }
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

i64 rdp_upper_bound(RankDp *p) {
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

/* Multiplicative hashing: the table's index is the product's top bits. */
static inline MemoSlot *memo_find(RankDp *p, u64 key, int step) {
    size_t mask = p->memo_cap - 1;
    u64 h = (key ^ ((u64)step * 0x9E3779B97F4A7C15ULL)) * 0xBF58476D1CE4E5B9ULL;
    size_t i = (size_t)(h >> p->memo_shift);
    while (p->memo[i].search == p->search) {
        if (p->memo[i].key == key && p->memo[i].step == step) return &p->memo[i];
        i = (i + 1) & mask;
    }
    return &p->memo[i];
}

/* Twice the table: a fresh buffer, the old entries rehashed into it. */
int rdp_memo_grow(RankDp *p) {
    size_t old_cap = p->memo_cap;
    MemoSlot *old = p->memo;
    size_t cap = old_cap * 2;
    MemoSlot *fresh = malloc(cap * sizeof(MemoSlot));
    if (!fresh) return -1;
    for (size_t i = 0; i < cap; i++) fresh[i].search = 0;
    p->memo = fresh;
    p->memo_cap = p->memo_alloc = cap;
    p->memo_shift--;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].search == p->search) *memo_find(p, old[i].key, old[i].step) = old[i];
    free(old);
    return 0;
}

/* An empty table for a new search, in the buffer of the last one when it is large
 * enough: a new search number empties it without clearing it. */
int rdp_memo_start(RankDp *p) {
    if (p->memo_alloc < MEMO_START) {
        free(p->memo);
        p->memo = calloc(MEMO_START, sizeof(MemoSlot));
        p->memo_alloc = p->memo ? MEMO_START : 0;
        if (!p->memo) return -1;
    }
    if (++p->search == 0) { /* numbers wrapped: clear the buffer once */
        for (size_t i = 0; i < p->memo_alloc; i++) p->memo[i].search = 0;
        p->search = 1;
    }
    p->memo_cap = MEMO_START;
    p->memo_shift = 64 - MEMO_START_BITS;
    p->memo_size = 0;
    return 0;
}

static inline int child_before(const Child *a, const Child *b) {
    if (a->primary != b->primary) return a->primary > b->primary;
    if (a->w != b->w) return a->w < b->w;
    if (a->tie != b->tie) return a->tie > b->tie;
    return a->total > b->total;
}

/* above: the parent's bound vectors of the other suits (NULL at the root). */
static i64 visit(RankDp *p, int step, u64 key, i64 score, const i64 *const *above) {
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
    int known_present = slot->search == p->search;
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
    /* The other suits' bounds: the suits before this one are at rank, the others
     * before it. Within a rank, they are the parent's but for the parent's suit. */
    const i64 *others[3];
    int n_others = 0;
    if (above) { /* suit > 0 */
        int t = suit - 1;
        int st = (int)((key >> (t * SUIT_BITS)) & SUIT_MASK);
        int32_t fi = get_bound(p, t, rank, st);
        if (!fi) {
            p->err_msg = "missing bound";
            p->error = 1;
            return NEG;
        }
        others[0] = above[0];
        others[1] = above[1];
        others[2] = above[2];
        others[t] = vec_at(p, fi);
        n_others = 3;
    }
    for (int t = 0; t < 4 && !above; t++) {
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
    if (!left)
        rest[0] = others[0][0] + others[1][0] + others[2][0];
    else
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
        Child c;
        c.total = total;
        c.primary = total / p->unit;
        c.tie = m->gain % p->unit;
        c.key = nk;
        c.gain = m->gain;
        memcpy(&c.x, &m->x, 6);
        int j = n_children++;
        while (j > 0 && child_before(&c, &children[j - 1])) {
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
        memcpy(p->path[step], &c->x, 6);
        i64 found = visit(p, step + 1, c->key, score + c->gain, suit < 3 ? others : NULL);
        if (p->error || p->goal_reached) return NEG;
        if (found > result) result = found;
    }
    i64 future_bound = result - score;
    if (p->memo_size * 2 >= p->memo_cap) {
        if (rdp_memo_grow(p) < 0) { p->error = 1; return NEG; }
    }
    slot = memo_find(p, key, step);
    if (slot->search != p->search) {
        slot->key = key;
        slot->step = step;
        slot->search = p->search;
        slot->value = future_bound;
        p->memo_size++;
    } else if (future_bound < slot->value) {
        slot->value = future_bound;
    }
    return result;
}

i64 rdp_visit(RankDp *p, int step, u64 key, i64 score) {
    return visit(p, step, key, score, NULL);
}
