/* Optional C accelerator for the per-call best-of-seven lookup of suited dice (issue 13, section 5).
 *
 * The pure-Python path in suited.py is the specification: sort the seven die codes, add their colex-rank
 * terms, index the table of every seven-dice multiset.  This module does exactly that in C, because in
 * Python merely reading seven (face, suit) pairs costs about as much as a whole eval7 call.  It owns no
 * table: suited.py hands it a loader that returns the table (a buffer of int32) on first use, and a
 * fallback that gets any input which is not seven plain dice, so errors and the five/six-dice cases keep
 * their one Python implementation.  If this file cannot be compiled, suited.py runs without it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define CODES 24
#define DICE 7
#define SEVEN_MULTISETS 2035800 /* comb(CODES + 6, 7) */

static long rank_terms[DICE][CODES]; /* rank_terms[i][c] = comb(c + i, i + 1), as _RANK_TERMS in suited.py */
static PyObject *loader = NULL;      /* () -> buffer of SEVEN_MULTISETS int32 values */
static PyObject *fallback = NULL;    /* (dice) -> int: the checked Python path */
static Py_buffer table;
static const int32_t *values = NULL;

static long binomial(long n, long k) {
    long result = 1;
    for (long j = 1; j <= k; j++) result = result * (n - k + j) / j;
    return result;
}

static int load_table(void) {
    if (loader == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "dicepoker.dice._fast is not configured (suited.py configures it)");
        return -1;
    }
    PyObject *buffer = PyObject_CallNoArgs(loader); /* may release the GIL: another thread may load too */
    if (buffer == NULL) return -1;
    Py_buffer view;
    int failed = PyObject_GetBuffer(buffer, &view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT);
    Py_DECREF(buffer); /* the buffer view keeps its exporter alive */
    if (failed) return -1;
    if (view.itemsize != 4 || view.len != (Py_ssize_t)SEVEN_MULTISETS * 4) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "the best-of-seven table has the wrong shape");
        return -1;
    }
    if (values != NULL) { /* a thread that ran the loader at the same time got there first */
        PyBuffer_Release(&view);
        return 0;
    }
    table = view;
    values = (const int32_t *)table.buf;
    return 0;
}

/* Sorts seven codes (insertion sort: seven items, mostly a handful of compares) and looks the hand up. */
static PyObject *lookup(long *codes) {
    for (int i = 1; i < DICE; i++) {
        long item = codes[i];
        int j = i - 1;
        while (j >= 0 && codes[j] > item) {
            codes[j + 1] = codes[j];
            j--;
        }
        codes[j + 1] = item;
    }
    if (values == NULL && load_table() < 0) return NULL;
    long index = 0;
    for (int i = 0; i < DICE; i++) index += rank_terms[i][codes[i]];
    return PyLong_FromLong(values[index]);
}

/* A small exact int (int or IntEnum, never bool) in [low, high], else -1. */
static long small_int(PyObject *item, long low, long high) {
    if (!PyLong_Check(item) || PyBool_Check(item)) return -1;
    int overflow = 0;
    long value = PyLong_AsLongAndOverflow(item, &overflow);
    if (overflow || value < low || value > high) {
        PyErr_Clear();
        return -1;
    }
    return value;
}

/* A code 0..23 given as anything with __index__ (NumPy integers too), else -1 with an exception set. */
static long code_of(PyObject *item) {
    long value = small_int(item, 0, CODES - 1);
    if (value >= 0) return value;
    PyObject *index = PyLong_Check(item) ? NULL : PyNumber_Index(item);
    if (index != NULL) {
        value = small_int(index, 0, CODES - 1);
        Py_DECREF(index);
        if (value >= 0) return value;
    }
    PyErr_Clear();
    PyErr_Format(PyExc_IndexError, "die codes are 0..%d, got %R", CODES - 1, item);
    return -1;
}

static PyObject *call_fallback(PyObject *dice) {
    if (fallback == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "dicepoker.dice._fast is not configured (suited.py configures it)");
        return NULL;
    }
    return PyObject_CallOneArg(fallback, dice);
}

/* best_value(dice): seven (face, suit) tuples; anything else goes to the Python fallback. */
static PyObject *best_value(PyObject *module, PyObject *dice) {
    if (!(PyTuple_CheckExact(dice) || PyList_CheckExact(dice)) || PySequence_Fast_GET_SIZE(dice) != DICE)
        return call_fallback(dice);
    PyObject **items = PySequence_Fast_ITEMS(dice);
    long codes[DICE];
    for (int i = 0; i < DICE; i++) {
        PyObject *die = items[i];
        if (!PyTuple_CheckExact(die) || PyTuple_GET_SIZE(die) != 2) return call_fallback(dice);
        long face = small_int(PyTuple_GET_ITEM(die, 0), 1, 6);
        long suit = small_int(PyTuple_GET_ITEM(die, 1), 0, 3);
        if (face < 0 || suit < 0) return call_fallback(dice);
        codes[i] = (face - 1) * 4 + suit;
    }
    return lookup(codes);
}

/* seven_code_value(codes): seven die codes 0..23 in any order, in any sequence. */
static PyObject *seven_code_value(PyObject *module, PyObject *sequence) {
    PyObject *fast = PySequence_Fast(sequence, "seven_code_value needs a sequence of seven die codes");
    if (fast == NULL) return NULL;
    if (PySequence_Fast_GET_SIZE(fast) != DICE) {
        Py_DECREF(fast);
        return PyErr_Format(PyExc_ValueError, "seven_code_value needs seven die codes, got %zd",
                            PySequence_Fast_GET_SIZE(sequence));
    }
    PyObject **items = PySequence_Fast_ITEMS(fast);
    long codes[DICE];
    for (int i = 0; i < DICE; i++) {
        codes[i] = code_of(items[i]);
        if (codes[i] < 0) {
            Py_DECREF(fast);
            return NULL;
        }
    }
    Py_DECREF(fast);
    return lookup(codes);
}

static PyObject *configure(PyObject *module, PyObject *args) {
    PyObject *new_loader, *new_fallback;
    if (!PyArg_ParseTuple(args, "OO:configure", &new_loader, &new_fallback)) return NULL;
    if (!PyCallable_Check(new_loader) || !PyCallable_Check(new_fallback)) {
        PyErr_SetString(PyExc_TypeError, "configure(loader, fallback) takes two callables");
        return NULL;
    }
    Py_INCREF(new_loader);
    Py_INCREF(new_fallback);
    Py_XSETREF(loader, new_loader);
    Py_XSETREF(fallback, new_fallback);
    Py_RETURN_NONE;
}

static PyObject *forget(PyObject *module, PyObject *unused) {
    if (values != NULL) {
        values = NULL;
        PyBuffer_Release(&table);
    }
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"forget", forget, METH_NOARGS, "Let go of the table: the next lookup asks the loader again."},
    {"configure", configure, METH_VARARGS,
     "configure(loader, fallback): where the table comes from, and who handles other inputs."},
    {"best_value", best_value, METH_O, "Best-of-seven value of seven (face, suit) dice; others go to the fallback."},
    {"seven_code_value", seven_code_value, METH_O, "Best-of-seven value of seven die codes 0..23, any order."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_definition = {
    PyModuleDef_HEAD_INIT, "dicepoker.dice._fast", "C accelerator of suited.best_value (optional).", -1, methods,
};

PyMODINIT_FUNC PyInit__fast(void) {
    for (int i = 0; i < DICE; i++)
        for (int c = 0; c < CODES; c++) rank_terms[i][c] = binomial(c + i, i + 1);
    PyObject *module = PyModule_Create(&module_definition);
    if (module != NULL && PyModule_AddIntConstant(module, "INTERFACE", 1) < 0) Py_CLEAR(module);
    return module;
}
