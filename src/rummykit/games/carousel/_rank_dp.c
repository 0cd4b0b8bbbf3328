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
 *   RankDp(*problem[, order])   problem as built by rank_dp_select.compiled_arguments;
 *                               order: the suits in the order the search visits them
 *                               (rank_dp_select.suit_order), default 0, 1, 2, 3
 *   .upper_bound() -> int       -1 when the table cannot be laid out
 *   .depth_first(floor, target) -> None or (score, used, freed, choices)
 *       target < 0 means "no target"; choices is a list of 52 8-tuples
 *       (rank, suit, x, o, w, u, g, h), in the caller's suits, by rank then suit.
 */
#include "_rank_dp.h"

static PyObject *Unsupported;

/* ----------------------------------------------------------------- the tables' pool */

#define POOL_MAX 4                       /* emptied tables kept for the next problems */
#define KEEP_BYTES ((size_t)1 << 18)     /* larger buffers are freed, not kept */

static RankDp *pool[POOL_MAX];           /* touched only under the GIL */
static int pool_size;

static void vec_empty(Vec *v) {
    v->size = 0;
    if (v->cap * v->item > KEEP_BYTES) {
        free(v->data);
        v->data = NULL;
        v->cap = 0;
    }
}

static void dp_free(RankDp *p) {
    for (int i = 0; i < 4 * 14; i++) free(p->slots[i].v);
    for (int f = 0; f < 52; f++) free(p->class_raw[f].v);
    free(p->raw_span_vec.data);
    free(p->opts.data);
    free(p->move_span_vec.data);
    free(p->moves.data);
    free(p->vecs.data);
    for (int s = 0; s < 4; s++)
        for (int r = 0; r < 14; r++) free(p->reach[s][r].data);
    free(p->memo);
    free(p->children);
    free(p);
}

/* Back to the state of fresh tables, clearing only what the problem wrote. */
static void dp_empty(RankDp *p) {
    for (int id = 0; id < p->n_ids; id++) p->code_keys[p->code_slot[id]] = 0;
    memset(p->seen, 0, (size_t)p->n_ids);
    p->n_ids = 0;
    for (int i = 0; i < 4 * 14; i++) {
        SlotTable *t = &p->slots[i];
        if (t->used) memset(t->v, 0, (size_t)t->used * sizeof(Slot));
        t->used = 0;
        if ((size_t)t->size * sizeof(Slot) > KEEP_BYTES) {
            free(t->v);
            t->v = NULL;
            t->size = 0;
        }
    }
    for (int f = 0; f < 52; f++) {
        IdTable *t = &p->class_raw[f];
        if (t->used) memset(t->v, 0, (size_t)t->used * sizeof(int32_t));
        t->used = 0;
    }
    vec_empty(&p->raw_span_vec);
    vec_empty(&p->opts);
    vec_empty(&p->move_span_vec);
    vec_empty(&p->moves);
    vec_empty(&p->vecs);
    for (int s = 0; s < 4; s++) {
        for (int r = 0; r < 14; r++) vec_empty(&p->reach[s][r]);
        p->have_reach[s] = 0;
    }
    if (p->memo_alloc * sizeof(MemoSlot) > KEEP_BYTES) {
        free(p->memo);
        p->memo = NULL;
        p->memo_alloc = p->memo_cap = 0;
    }
}

/* Empty tables for a new problem (the problem's fields are the caller's to fill). */
static RankDp *dp_acquire(void) {
    RankDp *p;
    if (pool_size) {
        p = pool[--pool_size];
    } else {
        p = calloc(1, sizeof *p);
        if (!p) return NULL;
        p->children = malloc((size_t)52 * MAX_CHILDREN * sizeof(Child));
        if (!p->children) {
            free(p);
            return NULL;
        }
        p->raw_span_vec.item = sizeof(Span);
        p->move_span_vec.item = sizeof(Span);
        p->opts.item = sizeof(Opt);
        p->moves.item = sizeof(Move);
        p->vecs.item = sizeof(i64);
        for (int s = 0; s < 4; s++)
            for (int r = 0; r < 14; r++) p->reach[s][r].item = sizeof(int32_t);
    }
    memset(p->group_room, 0, sizeof p->group_room);
    memset(p->charge, 0, sizeof p->charge);
    p->finish_ready = 0;
    p->memo_size = 0;
    p->have_best = p->goal_reached = p->error = 0;
    p->nodes = 0;
    p->err_msg = NULL;
    return p;
}

static void dp_release(RankDp *p) {
    if (pool_size < POOL_MAX) {
        dp_empty(p);
        pool[pool_size++] = p;
    } else {
        dp_free(p);
    }
}

/* ----------------------------------------------------------------- the type */

typedef struct {
    PyObject_HEAD
    RankDp *dp;                 /* NULL until initialised */
} RankDpObject;

static PyObject *raise_error(RankDp *p) {
    if (p->err_msg)
        PyErr_SetString(Unsupported, p->err_msg);
    else
        PyErr_NoMemory();
    return NULL;
}

static void RankDp_dealloc(RankDpObject *self) {
    if (self->dp) dp_release(self->dp);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static RankDp *initialised(RankDpObject *self) {
    if (!self->dp) PyErr_SetString(PyExc_RuntimeError, "the RankDp is not initialised");
    return self->dp;
}

static int read_ints(PyObject *seq, int *out, const char *name) {
    if (PyBytes_CheckExact(seq)) { /* one count per byte, as Regions builds them */
        if (PyBytes_GET_SIZE(seq) != 52) {
            PyErr_Format(PyExc_ValueError, "%s must have 52 entries", name);
            return -1;
        }
        const unsigned char *bytes = (const unsigned char *)PyBytes_AS_STRING(seq);
        for (int i = 0; i < 52; i++) out[i] = bytes[i];
        return 0;
    }
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

/* The suit order (a permutation of 0-3; None: unchanged). */
static int read_order(PyObject *order, int *out) {
    for (int k = 0; k < 4; k++) out[k] = k;
    if (order == Py_None) return 0;
    PyObject *fast = PySequence_Fast(order, "order");
    if (!fast) return -1;
    int seen = 0;
    int ok = PySequence_Fast_GET_SIZE(fast) == 4;
    for (int k = 0; ok && k < 4; k++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, k));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        ok = v >= 0 && v < 4 && !(seen & (1 << v));
        seen |= 1 << (ok ? v : 0);
        out[k] = (int)v;
    }
    Py_DECREF(fast);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "order must be a permutation of 0, 1, 2, 3");
        return -1;
    }
    return 0;
}

/* Rename suit order[k] as k in every per-face array (faces are suit-major), as
 * rank_dp_select.relabel does. */
static void relabel_suits(RankDp *p) {
    if (p->order[0] == 0 && p->order[1] == 1 && p->order[2] == 2) return;
    int *arrays[] = {p->real, p->jokers, p->real_ext, p->cap, p->hand,
                     p->in_runs, p->in_groups, p->in_high};
    for (size_t a = 0; a < sizeof arrays / sizeof arrays[0]; a++) {
        int old[52];
        memcpy(old, arrays[a], sizeof old);
        for (int k = 0; k < 4; k++)
            memcpy(arrays[a] + 13 * k, old + 13 * p->order[k], 13 * sizeof(int));
    }
    i64 old[52];
    memcpy(old, p->weight, sizeof old);
    for (int k = 0; k < 4; k++)
        memcpy(p->weight + 13 * k, old + 13 * p->order[k], 13 * sizeof(i64));
}

/* Read and check the problem, then build its tables (-1 with an exception set). */
static int set_up(RankDp *p, PyObject *args) {
    PyObject *real, *jokers, *real_ext, *cap, *hand, *weight, *in_runs, *in_groups, *in_high;
    PyObject *order = Py_None;
    int min_size, max_set, ace_low, ace_high, hand_jokers;
    long long joker_weight, unit;
    if (!PyArg_ParseTuple(args, "iippOOOOOiOLOOOL|O", &min_size, &max_set, &ace_low, &ace_high,
                          &real, &jokers, &real_ext, &cap, &hand, &hand_jokers, &weight,
                          &joker_weight, &in_runs, &in_groups, &in_high, &unit, &order))
        return -1;
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
    if (read_order(order, p->order) < 0) return -1;
    relabel_suits(p);
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
    p->group_ok = rdp_group_table(size, max_set);
    rdp_face_classes(p);
    if (rdp_intern(p, 0) != 0) return -1;
    int groupable[4][14] = {{0}};
    for (int s = 0; s < 4; s++)
        for (int r = 1; r <= 13; r++) {
            int f = s * 13 + r - 1;
            int m = p->real[f] + p->jokers[f] + p->hand[f];
            groupable[s][r] = p->cap[f] < m ? p->cap[f] : m;
        }
    int top[4];
    rdp_set_rooms(p, groupable, top, 0x3FFE);
    if (rdp_suit_bounds(p) < 0) {
        raise_error(p);
        return -1;
    }
    p->joker_bound = (i64)hand_jokers * joker_weight;
    return 0;
}

static int RankDp_init(RankDpObject *self, PyObject *args, PyObject *Py_UNUSED(kwds)) {
    if (self->dp) {
        PyErr_SetString(PyExc_RuntimeError, "a RankDp is initialised once");
        return -1;
    }
    RankDp *p = dp_acquire();
    if (!p) {
        PyErr_NoMemory();
        return -1;
    }
    if (set_up(p, args) < 0) {
        dp_release(p);
        return -1;
    }
    self->dp = p;
    return 0;
}

static PyObject *RankDp_upper_bound(RankDpObject *self, PyObject *Py_UNUSED(ignored)) {
    RankDp *p = initialised(self);
    return p ? PyLong_FromLongLong(rdp_upper_bound(p)) : NULL;
}

/* ----------------------------------------------------------------- choices */

#define CHOICE_SLOTS 4096               /* direct-mapped, by the choice's code */

/* Choice tuples already built: most searches end in the same few choices per face, and
 * a tuple is immutable, so the same one can go into every answer (touched only under
 * the GIL). */
static uint32_t choice_codes[CHOICE_SLOTS];
static PyObject *choice_tuples[CHOICE_SLOTS];

/* A new reference to the tuple of values[0..7] (rank, suit, x, o, w, u, g, h). */
static PyObject *choice_tuple(const int values[8]) {
    uint32_t code = 0;
    int small = 1;
    for (int k = 0; k < 8; k++) {
        small &= values[k] >= 0 && values[k] < 16;
        code = code << 4 | (uint32_t)(values[k] & 15);
    }
    size_t slot = (size_t)((code * 2654435761u) >> 20) & (CHOICE_SLOTS - 1);
    if (small && choice_tuples[slot] && choice_codes[slot] == code) {
        Py_INCREF(choice_tuples[slot]);
        return choice_tuples[slot];
    }
    PyObject *item = PyTuple_New(8);
    if (!item) return NULL;
    for (int k = 0; k < 8; k++) {
        PyObject *value = PyLong_FromLong(values[k]);
        if (!value) { Py_DECREF(item); return NULL; }
        PyTuple_SET_ITEM(item, k, value);
    }
    if (small) {
        Py_XDECREF(choice_tuples[slot]);
        Py_INCREF(item);
        choice_tuples[slot] = item;
        choice_codes[slot] = code;
    }
    return item;
}

static PyObject *RankDp_depth_first(RankDpObject *self, PyObject *args) {
    long long floor, target;
    if (!PyArg_ParseTuple(args, "LL", &floor, &target)) return NULL;
    RankDp *p = initialised(self);
    if (!p) return NULL;
    i64 top = rdp_upper_bound(p);
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
    if (rdp_memo_start(p) < 0) return PyErr_NoMemory();
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
        rdp_visit(p, 0, 0, 0);
        if (!p->have_best && !p->error) {
            p->threshold = plain;
            rdp_visit(p, 0, 0, 0);
        }
    } else {
        rdp_visit(p, 0, 0, 0);
    }
    Py_END_ALLOW_THREADS
    if (p->error) return raise_error(p);
    if (!p->have_best) Py_RETURN_NONE;
    PyObject *choices = PyList_New(52);
    if (!choices) return NULL;
    int step_of[4];  /* the search's suit of each caller's suit */
    for (int k = 0; k < 4; k++) step_of[p->order[k]] = k;
    for (int i = 0; i < 52; i++) {
        int rank = i / 4 + 1, suit = i % 4;
        const int8_t *c = p->best_path[(rank - 1) * 4 + step_of[suit]];
        int values[8] = {rank, suit, c[0], c[1], c[2], c[3], c[4], c[5]};
        PyObject *item = choice_tuple(values);
        if (!item) { Py_DECREF(choices); return NULL; }
        PyList_SET_ITEM(choices, i, item);
    }
    return Py_BuildValue("(LiiN)", (long long)p->best_score, p->best_used, p->best_freed,
                         choices);
}

static PyObject *RankDp_nodes(RankDpObject *self, PyObject *Py_UNUSED(ignored)) {
    RankDp *p = initialised(self);
    return p ? PyLong_FromLongLong(p->nodes) : NULL;
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
    .tp_basicsize = sizeof(RankDpObject),
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
