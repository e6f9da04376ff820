/* ivycheck.runtime._speedups: the runtime's hottest paths in C.
 *
 * A call of ``x[1:5]`` or ``astype(x, "float64")`` costs NumPy about 100 ns; in Python, one
 * frame and one new ``Array`` already cost more than that (benchmarks/runtime_overhead.py:
 * "the floor of any wrapper"), so no Python wrapper can be within 2x of the native call.
 * This module does those few steps in C and nothing else; every decision it takes is one
 * ``dispatch/public.py`` takes the same way in Python, which stays the reference (and the
 * whole runtime when this module is not built or IVYCHECK_PURE_PYTHON is set):
 *
 * - ``ArrayBase``: the storage of ``ivy.Array`` (``_data``, ``_geometry``, weak references)
 *   and ``x[key]`` where the backend's native indexing already makes the view (NumPy): a key
 *   of plain values goes straight to the native array, as ``direct_item`` does.
 * - ``PublicFunction``: the public function of one array argument (``ivy.abs``,
 *   ``ivy.astype`` ...): one ``Array`` and no keyword goes to the backend's native function,
 *   as the arity-1 hot tier of ``public_function`` does; every other call goes to that
 *   Python function, unchanged.
 *
 * A backend error raised on these paths is converted by the backend's ``error`` and raised
 * ``from`` the original, as ``raise error(e) from e`` does.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

/* ------------------------------------------------------------------------------------ */
/* ArrayBase                                                                            */

typedef struct {
    PyObject_HEAD
    PyObject *data;
    PyObject *geometry;
    PyObject *weakreflist;
    /* TensorFlow's out path (``fits_by_token``): the layout token of ``layout_of``, true of
     * ``data`` while ``data`` is ``layout_of``; dropped by ``forget_layout`` where Python
     * replaces ``data`` (else the old data would stay alive here) */
    PyObject *layout_of;
    PyObject *layout;
} ArrayObject;

/* How ``x[key]`` is answered (``configure_item``). ``item_native_set`` NULL: every key goes to
 * ``item_fallback(x, key)``; else a key of plain values is handed to the native array. */
static PyTypeObject *item_array_type = NULL; /* ``ivy.Array``: the type of the results */
static PyObject *item_fallback = NULL;
static PyObject *item_plain = NULL;
static PyObject *item_native_set = NULL;
static PyObject *item_error = NULL;
static PyObject *item_wrap = NULL;

static int
array_traverse(ArrayObject *self, visitproc visit, void *arg)
{
    Py_VISIT(self->data);
    Py_VISIT(self->geometry);
    Py_VISIT(self->layout_of);
    Py_VISIT(self->layout);
    return 0;
}

static int
array_clear(ArrayObject *self)
{
    Py_CLEAR(self->data);
    Py_CLEAR(self->geometry);
    Py_CLEAR(self->layout_of);
    Py_CLEAR(self->layout);
    return 0;
}

static void
array_dealloc(ArrayObject *self)
{
    PyObject_GC_UnTrack(self);
    if (self->weakreflist != NULL) {
        PyObject_ClearWeakRefs((PyObject *)self);
    }
    array_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* A new ``type`` instance holding ``data`` (a reference stolen), no ``_geometry``: what
 * ``bare_array()`` followed by ``new._data = data`` makes. */
static PyObject *
new_array(PyTypeObject *type, PyObject *data)
{
    PyObject *new = type->tp_alloc(type, 0);
    if (new == NULL) {
        Py_DECREF(data);
        return NULL;
    }
    ((ArrayObject *)new)->data = data;
    return new;
}

/* ``raise error(e) from e`` for the exception being raised, when it is an ``Exception``
 * (a ``KeyboardInterrupt`` passes unchanged, as ``except Exception`` lets it); with
 * ``ivy_exception``, ``raise error(e) from (None if isinstance(e, ivy_exception) else e)``. */
static PyObject *
raise_converted(PyObject *error, PyObject *ivy_exception)
{
    PyObject *type, *value, *traceback;
    PyErr_Fetch(&type, &value, &traceback);
    PyErr_NormalizeException(&type, &value, &traceback);
    if (traceback != NULL) {
        PyException_SetTraceback(value, traceback);
    }
    if (error == NULL || !PyErr_GivenExceptionMatches(type, PyExc_Exception)) {
        PyErr_Restore(type, value, traceback);
        return NULL;
    }
    Py_DECREF(type);
    Py_XDECREF(traceback);
    PyObject *converted = PyObject_CallOneArg(error, value);
    if (converted == NULL) {
        Py_DECREF(value);
        return NULL;
    }
    if (!PyExceptionInstance_Check(converted)) {
        Py_DECREF(converted);
        Py_DECREF(value);
        PyErr_SetString(PyExc_TypeError, "exceptions must derive from BaseException");
        return NULL;
    }
    int from_none = 0;
    if (ivy_exception != NULL) {
        from_none = PyObject_IsInstance(value, ivy_exception);
        if (from_none < 0) {
            Py_DECREF(converted);
            Py_DECREF(value);
            return NULL;
        }
    }
    if (converted != value) {
        Py_INCREF(value);
        PyException_SetContext(converted, value); /* steals the new reference */
    }
    if (from_none) {
        PyException_SetCause(converted, NULL);
        Py_DECREF(value);
    }
    else {
        PyException_SetCause(converted, value); /* steals ``value`` */
    }
    PyObject *converted_type = (PyObject *)Py_TYPE(converted);
    Py_INCREF(converted_type);
    PyErr_Restore(converted_type, converted, PyException_GetTraceback(converted));
    return NULL;
}

/* ``type(ret) in native_set``: the result is wrapped bare; else by ``wrap`` (a scalar, a
 * tuple ...). Steals ``ret``. */
static PyObject *
wrap_result(PyTypeObject *array_type, PyObject *native_set, PyObject *wrap, PyObject *ret)
{
    int native = PySet_Contains(native_set, (PyObject *)Py_TYPE(ret));
    if (native < 0) {
        Py_DECREF(ret);
        return NULL;
    }
    if (native) {
        return new_array(array_type, ret);
    }
    PyObject *wrapped = PyObject_CallOneArg(wrap, ret);
    Py_DECREF(ret);
    return wrapped;
}

/* Whether ``value`` is plain (its type in ``plain``), or a tuple (``lists``: or a list) of
 * plain values. -1 on error. */
static int
plain_value(PyObject *value, PyObject *plain, int lists)
{
    PyTypeObject *type = Py_TYPE(value);
    if (type == &PyTuple_Type || (lists && type == &PyList_Type)) {
        Py_ssize_t n = PySequence_Fast_GET_SIZE(value);
        PyObject **items = PySequence_Fast_ITEMS(value);
        for (Py_ssize_t i = 0; i < n; i++) {
            int found = PySet_Contains(plain, (PyObject *)Py_TYPE(items[i]));
            if (found <= 0) {
                return found;
            }
        }
        return 1;
    }
    return PySet_Contains(plain, (PyObject *)type);
}

/* ``x[key]``'s test: a slice is plain whatever it holds (the native array reads its
 * bounds, as the general path's ``quick2`` does), else as ``plain_value``. */
static int
plain_key(PyObject *key, PyObject *plain)
{
    return Py_TYPE(key) == &PySlice_Type ? 1 : plain_value(key, plain, 0);
}

static PyObject *
array_subscript(ArrayObject *self, PyObject *key)
{
    if (item_fallback == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "ivycheck.runtime._speedups: x[key] not configured");
        return NULL;
    }
    if (item_native_set == NULL) {
        return PyObject_CallFunctionObjArgs(item_fallback, (PyObject *)self, key, NULL);
    }
    int plain = plain_key(key, item_plain);
    if (plain < 0) {
        return NULL;
    }
    if (!plain) {
        return PyObject_CallFunctionObjArgs(item_fallback, (PyObject *)self, key, NULL);
    }
    PyObject *ret;
    if (self->data == NULL) {
        PyErr_SetString(PyExc_AttributeError, "_data");
        ret = NULL;
    }
    else {
        PyObject *data = self->data;
        Py_INCREF(data);
        ret = PyObject_GetItem(data, key);
        Py_DECREF(data);
    }
    if (ret == NULL) {
        return raise_converted(item_error, NULL);
    }
    return wrap_result(item_array_type, item_native_set, item_wrap, ret);
}

static PyMemberDef array_members[] = {
    {"_data", T_OBJECT_EX, offsetof(ArrayObject, data), 0,
     "The native array of the backend in use."},
    {"_geometry", T_OBJECT_EX, offsetof(ArrayObject, geometry), 0,
     "Set only on the root of tracked views (views.py)."},
    {NULL},
};

static PyMappingMethods array_as_mapping = {
    .mp_subscript = (binaryfunc)array_subscript,
};

static PyTypeObject ArrayBaseType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ivycheck.runtime._speedups.ArrayBase",
    .tp_basicsize = sizeof(ArrayObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = PyDoc_STR("The storage of ivy.Array and x[key] in C."),
    .tp_new = PyType_GenericNew,
    .tp_dealloc = (destructor)array_dealloc,
    .tp_traverse = (traverseproc)array_traverse,
    .tp_clear = (inquiry)array_clear,
    .tp_weaklistoffset = offsetof(ArrayObject, weakreflist),
    .tp_members = array_members,
    .tp_as_mapping = &array_as_mapping,
};

/* Replace a configured reference, taking ``None`` for NULL. */
static void
set_ref(PyObject **slot, PyObject *value)
{
    PyObject *old = *slot;
    if (value == Py_None) {
        value = NULL;
    }
    Py_XINCREF(value);
    *slot = value;
    Py_XDECREF(old);
}

static PyObject *
configure_item(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"array_type", "fallback", "plain", "native_set", "error", "wrap",
                               NULL};
    PyObject *array_type, *fallback, *plain = Py_None, *native_set = Py_None;
    PyObject *error = Py_None, *wrap = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!O|OOOO:configure_item", keywords,
                                     &PyType_Type, &array_type, &fallback, &plain, &native_set,
                                     &error, &wrap)) {
        return NULL;
    }
    if (!PyType_IsSubtype((PyTypeObject *)array_type, &ArrayBaseType)) {
        PyErr_SetString(PyExc_TypeError, "configure_item: array_type must subclass ArrayBase");
        return NULL;
    }
    int direct = native_set != Py_None;
    if (direct && (!PyAnySet_Check(plain) || !PyAnySet_Check(native_set) ||
                   !PyCallable_Check(error) || !PyCallable_Check(wrap))) {
        PyErr_SetString(PyExc_TypeError,
                        "configure_item: plain and native_set must be sets, error and wrap "
                        "callables");
        return NULL;
    }
    set_ref((PyObject **)&item_array_type, array_type);
    set_ref(&item_fallback, fallback);
    set_ref(&item_plain, direct ? plain : Py_None);
    set_ref(&item_error, direct ? error : Py_None);
    set_ref(&item_wrap, direct ? wrap : Py_None);
    set_ref(&item_native_set, native_set);
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------------------------------ */
/* PublicFunction                                                                       */

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    PyObject *dict;
    PyObject *weakreflist;
    PyObject *general;     /* the Python public function: every call C does not take */
    PyTypeObject *array_type;
    int arity;             /* array parameters: 0 (``zeros``), 1 (``abs``), 2 (``add``) */
    /* bound per backend (``bind``); NULL where the backend has no such path */
    PyObject *quick;       /* the native function of the arrays (arity 0: of one value) */
    PyObject *quick2;      /* ... of them and one more plain value */
    PyObject *plain;       /* frozenset: the types passed to a native function unchanged */
    PyObject *native_set;
    PyObject *wrap;
    PyObject *error;
    PyObject *ivy_exception; /* raised ``from None`` where Python does (arity 0, ``write``) */
    PyObject *dtype;       /* arity 0: the native default dtype passed as ``dtype=`` */
    PyObject *cast_type;   /* ``astype``: the native type whose cast is ``cast_call`` */
    PyObject *cast_call;
    PyObject *cast_known;  /* dict: a dtype argument already answered -> the native dtype */
    /* ``f(x, out=o)``, ``f(x1, x2, out=o)``: ``Built.out_quick`` (dispatch/build.py) */
    int out_mode;          /* OUT_NONE, or NATIVE / REBIND / ASK as in build.py */
    PyObject *out_call;    /* NATIVE: f(*arrays, out=); REBIND: the native function; ASK: check */
    PyObject *out_kind;    /* REBIND: the immutable native type; ASK: the native type */
    PyObject *out_same;    /* REBIND: same_layout(ret, data) */
    PyObject *out_write;   /* REBIND: write(out, ret) where the layouts differ */
    PyObject *out_key;     /* REBIND: an attribute equal by identity when layouts agree */
    PyObject *out_target;  /* ASK: the backend function asked about */
    PyObject *no_keywords; /* ASK of one array: the empty keywords passed to check */
    PyObject *out_token;   /* REBIND: primitives.layout, where the result layout follows
                            * from the inputs' (else NULL: ``out_same`` decides) */
    PyObject *memo_in[2];  /* the inputs' layout tokens of the last call read ... */
    PyObject *memo_result; /* ... and its result's */
} PublicFunctionObject;

enum { OUT_NONE = -1, OUT_NATIVE = 0, OUT_REBIND = 1, OUT_ASK = 2 };

static PyObject *dtype_keyword = NULL; /* ("dtype",) */

#define NOT_TAKEN ((PyObject *)&_Py_NotImplementedStruct)

/* A function of no array (``zeros((8,))``, ``full((8,), 2.0)``): plain values, a sequence
 * of them, no native array; else NOT_TAKEN (``concat([x, y])`` and the rest: Python). */
static PyObject *
call_of_values(PublicFunctionObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *a = args[0];
    PyTypeObject *type = Py_TYPE(a);
    int ok;
    if (type == &PyTuple_Type || type == &PyList_Type) {
        if (PySequence_Fast_GET_SIZE(a) > 0 &&
            Py_TYPE(PySequence_Fast_ITEMS(a)[0]) == self->array_type) {
            return NOT_TAKEN;
        }
        ok = plain_value(a, self->plain, 1);
    }
    else {
        ok = PySet_Contains(self->plain, (PyObject *)type);
        if (ok > 0) {
            int native = PySet_Contains(self->native_set, (PyObject *)type);
            ok = native < 0 ? -1 : !native;
        }
    }
    if (ok > 0 && nargs == 2) {
        ok = plain_value(args[1], self->plain, 1);
    }
    if (ok < 0) {
        return NULL;
    }
    if (!ok) {
        return NOT_TAKEN;
    }
    PyObject *ret;
    PyObject *fn = nargs == 1 ? self->quick : self->quick2;
    if (self->dtype == NULL) {
        ret = PyObject_Vectorcall(fn, args, nargs, NULL);
    }
    else {
        PyObject *call_args[3] = {args[0], nargs == 2 ? args[1] : self->dtype, self->dtype};
        ret = PyObject_Vectorcall(fn, call_args, nargs, dtype_keyword);
    }
    if (ret == NULL) {
        return raise_converted(self->error, self->ivy_exception);
    }
    return wrap_result(self->array_type, self->native_set, self->wrap, ret);
}

/* ``astype(x, dtype)``: ``x`` an ``Array`` of the native type the backend casts, a dtype it
 * has answered before: the native cast; else NOT_TAKEN. */
static PyObject *
cast(PublicFunctionObject *self, PyObject *x, PyObject *dtype)
{
    if (self->cast_type == NULL || Py_TYPE(x) != self->array_type) {
        return NOT_TAKEN;
    }
    PyObject *data = ((ArrayObject *)x)->data;
    if (data == NULL || (PyObject *)Py_TYPE(data) != self->cast_type) {
        return NOT_TAKEN;
    }
    PyObject *native_dtype = PyDict_GetItemWithError(self->cast_known, dtype);
    if (native_dtype == NULL) {
        if (PyErr_Occurred()) { /* ``except (KeyError, TypeError)``: an unhashable key */
            if (!PyErr_ExceptionMatches(PyExc_TypeError)) {
                return NULL;
            }
            PyErr_Clear();
        }
        return NOT_TAKEN;
    }
    PyObject *call_args[2] = {data, native_dtype};
    Py_INCREF(native_dtype); /* borrowed from a dict the call might change */
    Py_INCREF(data);
    PyObject *ret = PyObject_Vectorcall(self->cast_call, call_args, 2, NULL);
    Py_DECREF(native_dtype);
    Py_DECREF(data);
    if (ret == NULL) {
        return raise_converted(self->error, NULL);
    }
    /* the native cast's result is of the exact native type (``Built.table``) */
    return new_array(self->array_type, ret);
}

/* Arrays only, no keyword: the native function of their native arrays; ``f(x, y)`` with a
 * plain ``y`` (``reshape(x, (2, 4))``) too; else NOT_TAKEN. */
static PyObject *
call_of_arrays(PublicFunctionObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    PyTypeObject *array_type = self->array_type;
    if (Py_TYPE(args[0]) != array_type) {
        return NOT_TAKEN;
    }
    PyObject *first = ((ArrayObject *)args[0])->data;
    if (first == NULL) {
        return NOT_TAKEN;
    }
    PyObject *ret;
    if (self->arity == 2) {
        if (nargs != 2 || Py_TYPE(args[1]) != array_type) {
            return NOT_TAKEN;
        }
        PyObject *second = ((ArrayObject *)args[1])->data;
        if (second == NULL) {
            return NOT_TAKEN;
        }
        PyObject *call_args[2] = {first, second};
        Py_INCREF(first); /* held: the call could rebind an ``_data`` */
        Py_INCREF(second);
        ret = PyObject_Vectorcall(self->quick, call_args, 2, NULL);
        Py_DECREF(first);
        Py_DECREF(second);
    }
    else if (nargs == 1) {
        Py_INCREF(first);
        ret = PyObject_CallOneArg(self->quick, first);
        Py_DECREF(first);
    }
    else {
        PyObject *cast_result = cast(self, args[0], args[1]);
        if (cast_result != NOT_TAKEN) {
            return cast_result;
        }
        int plain = plain_value(args[1], self->plain, 0);
        if (plain <= 0) {
            return plain < 0 ? NULL : NOT_TAKEN;
        }
        PyObject *call_args[2] = {first, args[1]};
        Py_INCREF(first);
        ret = PyObject_Vectorcall(self->quick2, call_args, 2, NULL);
        Py_DECREF(first);
    }
    if (ret == NULL) {
        return raise_converted(self->error, NULL);
    }
    return wrap_result(array_type, self->native_set, self->wrap, ret);
}

static PyObject *out_keyword = NULL; /* ("out",) */

/* Whether a call's keywords are exactly ``out``. */
static int
only_out(PyObject *kwnames)
{
    if (PyTuple_GET_SIZE(kwnames) != 1) {
        return 0;
    }
    PyObject *name = PyTuple_GET_ITEM(kwnames, 0);
    PyObject *out = PyTuple_GET_ITEM(out_keyword, 0);
    return name == out || PyUnicode_Compare(name, out) == 0;
}

/* An exception that ``except Exception: pass`` swallows is cleared (1); others stay (0). */
static int
swallowed(void)
{
    if (PyErr_ExceptionMatches(PyExc_Exception)) {
        PyErr_Clear();
        return 1;
    }
    return 0;
}

/* ``f(*arrays, out=o)`` with every array and ``o`` an ``Array``: the backend's native ``out``
 * (NATIVE; ASK when its check says the result fits), or the result rebound into ``o`` when
 * the layouts agree (REBIND, immutable arrays); NOT_TAKEN leaves the rest to Python
 * (``with_out``), which tries the same first. */
/* ``array``'s data's layout as ``token`` (``layout_of`` holds that data). */
static void
keep_layout(ArrayObject *array, PyObject *tensor, PyObject *token)
{
    Py_INCREF(tensor);
    Py_INCREF(token);
    Py_XSETREF(array->layout_of, tensor);
    Py_XSETREF(array->layout, token);
}

/* The layout token of ``array``'s data: the one kept while that data is its data, else
 * ``out_token(data)`` (a reading of its dtype and shape), then kept. New reference. */
static PyObject *
array_token(PublicFunctionObject *self, ArrayObject *array)
{
    if (array->layout != NULL && array->layout_of == array->data) {
        return Py_NewRef(array->layout);
    }
    PyObject *token = PyObject_CallOneArg(self->out_token, array->data);
    if (token != NULL) {
        keep_layout(array, array->data, token);
    }
    return token;
}

/* Whether ``ret``, this function's result for ``arrays[:n]``, has the layout of ``out``'s
 * data, without reading ``ret`` when the last call read had inputs of these layouts: the
 * result's layout follows from the inputs' (``RESULT_LAYOUT_FROM_INPUTS``). ``*ret_token``
 * gets ``ret``'s token (a new reference) for ``out`` to keep. 1, 0, or -1 on error. */
static int
fits_by_token(PublicFunctionObject *self, PyObject *const *arrays, Py_ssize_t n,
              PyObject *out, PyObject *ret, PyObject **ret_token)
{
    PyObject *inputs[2] = {NULL, NULL};
    PyObject *wanted = NULL, *token = NULL;
    int fits = -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        inputs[i] = array_token(self, (ArrayObject *)arrays[i]);
        if (inputs[i] == NULL) {
            goto done;
        }
    }
    wanted = array_token(self, (ArrayObject *)out);
    if (wanted == NULL) {
        goto done;
    }
    if (self->memo_result != NULL && self->memo_in[0] == inputs[0] &&
        self->memo_in[1] == inputs[1]) {
        token = Py_NewRef(self->memo_result);
    }
    else {
        token = PyObject_CallOneArg(self->out_token, ret);
        if (token == NULL) {
            goto done;
        }
        Py_XSETREF(self->memo_in[0], Py_XNewRef(inputs[0]));
        Py_XSETREF(self->memo_in[1], Py_XNewRef(inputs[1]));
        Py_XSETREF(self->memo_result, Py_NewRef(token));
    }
    fits = token == wanted ? 1 : PyObject_RichCompareBool(token, wanted, Py_EQ);
    if (fits >= 0) {
        *ret_token = token;
        token = NULL;
    }
done:
    Py_XDECREF(inputs[0]);
    Py_XDECREF(inputs[1]);
    Py_XDECREF(wanted);
    Py_XDECREF(token);
    return fits;
}

/* Whether ``ret`` has the layout of ``buffer``, both of the immutable type, by reading
 * them: the shared ``key`` attribute the same object (JAX's ``aval``), else
 * ``same_layout(ret, buffer)``. 1, 0, or -1 on error. */
static int
fits_by_reading(PublicFunctionObject *self, PyObject *ret, PyObject *buffer)
{
    if (self->out_key != NULL) {
        PyObject *mine = PyObject_GetAttr(ret, self->out_key);
        PyObject *theirs = mine ? PyObject_GetAttr(buffer, self->out_key) : NULL;
        int same_key = mine != NULL && mine == theirs;
        Py_XDECREF(mine);
        Py_XDECREF(theirs);
        if (PyErr_Occurred()) {
            return -1;
        }
        if (same_key) {
            return 1;
        }
    }
    PyObject *same = PyObject_CallFunctionObjArgs(self->out_same, ret, buffer, NULL);
    int fits = same == NULL ? -1 : PyObject_IsTrue(same);
    Py_XDECREF(same);
    return fits;
}

static PyObject *
native_out(PublicFunctionObject *self, PyObject *const *arrays, PyObject **data, Py_ssize_t n,
           PyObject *out)
{
    PyObject *buffer = data[n];
    if (self->out_mode == OUT_REBIND) {
        PyObject *ret = PyObject_Vectorcall(self->out_call, data, n, NULL);
        if (ret == NULL) {
            return raise_converted(self->error, NULL);
        }
        int fits = 0;
        PyObject *kind = self->out_kind;
        /* tokens only where every tensor is of the immutable type (a ``tf.Variable`` of
         * unknown shape may change it) */
        int immutable = self->out_token != NULL;
        for (Py_ssize_t i = 0; i < n && immutable; i++) {
            immutable = (PyObject *)Py_TYPE(data[i]) == kind;
        }
        PyObject *ret_token = NULL;
        if ((PyObject *)Py_TYPE(ret) == kind && (PyObject *)Py_TYPE(buffer) == kind) {
            fits = immutable ? fits_by_token(self, arrays, n, out, ret, &ret_token)
                             : fits_by_reading(self, ret, buffer);
            if (fits < 0) {
                Py_DECREF(ret);
                return NULL;
            }
        }
        if (fits) {
            if (ret_token != NULL) {
                keep_layout((ArrayObject *)out, ret, ret_token);
            }
            Py_XDECREF(ret_token);
            Py_SETREF(((ArrayObject *)out)->data, ret);
            Py_INCREF(out);
            return out;
        }
        Py_XDECREF(ret_token);
        PyObject *written = PyObject_CallFunctionObjArgs(self->out_write, out, ret, NULL);
        Py_DECREF(ret);
        if (written == NULL) {
            return raise_converted(self->error, self->ivy_exception);
        }
        return written;
    }
    PyObject *native = self->out_call;
    if (self->out_mode == OUT_ASK) {
        if ((PyObject *)Py_TYPE(buffer) != self->out_kind) {
            return NOT_TAKEN;
        }
        if (n == 2) {
            PyObject *ask[4] = {self->out_target, data[0], data[1], buffer};
            native = PyObject_Vectorcall(self->out_call, ask, 4, NULL);
        }
        else {
            PyObject *one = PyTuple_Pack(1, data[0]);
            if (one == NULL) {
                return NULL;
            }
            PyObject *ask[4] = {self->out_target, one, self->no_keywords, buffer};
            native = PyObject_Vectorcall(self->out_call, ask, 3, out_keyword);
            Py_DECREF(one);
        }
        if (native == NULL) {
            return swallowed() ? NOT_TAKEN : NULL;
        }
        if (native == Py_None) {
            Py_DECREF(native);
            return NOT_TAKEN;
        }
    }
    else {
        Py_INCREF(native);
    }
    PyObject *ret = PyObject_Vectorcall(native, data, n, out_keyword);
    Py_DECREF(native);
    if (ret == NULL) {
        return swallowed() ? NOT_TAKEN : NULL;
    }
    Py_DECREF(ret);
    Py_INCREF(out);
    return out;
}

/* ``call_with_out`` of the arrays' native data, each held for the call: a native function
 * may call back into Python (``__array_function__``...), which could rebind an ``_data``. */
static PyObject *
call_with_out(PublicFunctionObject *self, PyObject *const *arrays, Py_ssize_t n,
              PyObject *out)
{
    PyObject *data[3];
    for (Py_ssize_t i = 0; i <= n; i++) {
        PyObject *array = i < n ? arrays[i] : out;
        if (Py_TYPE(array) != self->array_type || ((ArrayObject *)array)->data == NULL) {
            return NOT_TAKEN;
        }
        data[i] = ((ArrayObject *)array)->data;
    }
    for (Py_ssize_t i = 0; i <= n; i++) {
        Py_INCREF(data[i]);
    }
    PyObject *ret = native_out(self, arrays, data, n, out);
    for (Py_ssize_t i = 0; i <= n; i++) {
        Py_DECREF(data[i]);
    }
    return ret;
}

static PyObject *
public_vectorcall(PublicFunctionObject *self, PyObject *const *args, size_t nargsf,
                  PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (kwnames == NULL && nargs >= 1 && nargs <= 2) {
        PyObject *ret = NOT_TAKEN;
        if (self->quick != NULL) {
            ret = self->arity == 0 ? call_of_values(self, args, nargs)
                                   : call_of_arrays(self, args, nargs);
        }
        else if (nargs == 2) { /* no quick path (a view to make): a cast table still answers */
            ret = cast(self, args[0], args[1]);
        }
        if (ret != NOT_TAKEN) {
            return ret;
        }
    }
    else if (kwnames != NULL && nargs == self->arity && self->out_mode != OUT_NONE &&
             only_out(kwnames)) {
        PyObject *ret = call_with_out(self, args, nargs, args[nargs]);
        if (ret != NOT_TAKEN) {
            return ret;
        }
    }
    return PyObject_Vectorcall(self->general, args, nargsf, kwnames);
}

static void
public_clear_bound(PublicFunctionObject *self)
{
    Py_CLEAR(self->quick);
    Py_CLEAR(self->quick2);
    Py_CLEAR(self->plain);
    Py_CLEAR(self->native_set);
    Py_CLEAR(self->wrap);
    Py_CLEAR(self->error);
    Py_CLEAR(self->ivy_exception);
    Py_CLEAR(self->dtype);
    Py_CLEAR(self->cast_type);
    Py_CLEAR(self->cast_call);
    Py_CLEAR(self->cast_known);
    self->out_mode = OUT_NONE;
    Py_CLEAR(self->out_call);
    Py_CLEAR(self->out_kind);
    Py_CLEAR(self->out_same);
    Py_CLEAR(self->out_write);
    Py_CLEAR(self->out_key);
    Py_CLEAR(self->out_target);
    Py_CLEAR(self->no_keywords);
    Py_CLEAR(self->out_token);
    Py_CLEAR(self->memo_in[0]);
    Py_CLEAR(self->memo_in[1]);
    Py_CLEAR(self->memo_result);
}

static int
public_traverse(PublicFunctionObject *self, visitproc visit, void *arg)
{
    Py_VISIT(self->dict);
    Py_VISIT(self->general);
    Py_VISIT(self->array_type);
    Py_VISIT(self->quick);
    Py_VISIT(self->quick2);
    Py_VISIT(self->plain);
    Py_VISIT(self->native_set);
    Py_VISIT(self->wrap);
    Py_VISIT(self->error);
    Py_VISIT(self->ivy_exception);
    Py_VISIT(self->dtype);
    Py_VISIT(self->cast_type);
    Py_VISIT(self->cast_call);
    Py_VISIT(self->cast_known);
    Py_VISIT(self->out_call);
    Py_VISIT(self->out_kind);
    Py_VISIT(self->out_same);
    Py_VISIT(self->out_write);
    Py_VISIT(self->out_key);
    Py_VISIT(self->out_target);
    Py_VISIT(self->no_keywords);
    Py_VISIT(self->out_token);
    Py_VISIT(self->memo_in[0]);
    Py_VISIT(self->memo_in[1]);
    Py_VISIT(self->memo_result);
    return 0;
}

static int
public_clear(PublicFunctionObject *self)
{
    Py_CLEAR(self->dict);
    Py_CLEAR(self->general);
    Py_CLEAR(self->array_type);
    public_clear_bound(self);
    return 0;
}

static void
public_dealloc(PublicFunctionObject *self)
{
    PyObject_GC_UnTrack(self);
    if (self->weakreflist != NULL) {
        PyObject_ClearWeakRefs((PyObject *)self);
    }
    public_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
public_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"general", "array_type", "arity", NULL};
    PyObject *general, *array_type;
    int arity;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO!i:PublicFunction", keywords, &general,
                                     &PyType_Type, &array_type, &arity)) {
        return NULL;
    }
    if (!PyCallable_Check(general) ||
        !PyType_IsSubtype((PyTypeObject *)array_type, &ArrayBaseType) || arity < 0 ||
        arity > 2) {
        PyErr_SetString(PyExc_TypeError,
                        "PublicFunction(general, array_type, arity): a callable, a subclass of "
                        "ArrayBase and 0, 1 or 2");
        return NULL;
    }
    PublicFunctionObject *self = (PublicFunctionObject *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->vectorcall = (vectorcallfunc)public_vectorcall;
    self->arity = arity;
    self->out_mode = OUT_NONE;
    Py_INCREF(general);
    self->general = general;
    Py_INCREF(array_type);
    self->array_type = (PyTypeObject *)array_type;
    return (PyObject *)self;
}

static PyObject *
public_bind(PublicFunctionObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"quick", "quick2", "plain", "native_set", "wrap", "error",
                               "ivy_exception", "dtype", "cast_type", "cast_call",
                               "cast_known", "out_quick", "out_native", "no_keywords", NULL};
    PyObject *quick = Py_None, *quick2 = Py_None, *plain = Py_None, *native_set = Py_None;
    PyObject *wrap = Py_None, *error = Py_None, *ivy_exception = Py_None, *dtype = Py_None;
    PyObject *cast_type = Py_None, *cast_call = Py_None, *cast_known = Py_None;
    PyObject *out_quick = Py_None, *out_native = Py_None, *no_keywords = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|$OOOOOOOOOOOOOO:bind", keywords, &quick,
                                     &quick2, &plain, &native_set, &wrap, &error,
                                     &ivy_exception, &dtype, &cast_type, &cast_call,
                                     &cast_known, &out_quick, &out_native, &no_keywords)) {
        return NULL;
    }
    int out_mode = OUT_NONE;
    if (out_quick != Py_None) {
        Py_ssize_t size = PyTuple_Check(out_quick) ? PyTuple_GET_SIZE(out_quick) : 0;
        out_mode = size ? (int)PyLong_AsLong(PyTuple_GET_ITEM(out_quick, 0)) : -2;
        if ((out_mode == OUT_NATIVE && size != 2) || (out_mode == OUT_ASK && size != 4) ||
            (out_mode == OUT_REBIND && size != 5 && size != 6) || out_mode < OUT_NATIVE ||
            out_mode > OUT_ASK || !PyCallable_Check(error) || !PyDict_Check(no_keywords) ||
            (out_mode == OUT_REBIND && !PyCallable_Check(out_native))) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_TypeError,
                                "bind: out_quick is (NATIVE, f), (ASK, check, type, target) "
                                "or (REBIND, type, same_layout, write, key[, token]), with error "
                                "callable, no_keywords a dict and out_native callable");
            }
            return NULL;
        }
    }
    int fast = quick != Py_None;
    int casts = cast_type != Py_None;
    if ((fast || casts) && !PyCallable_Check(error)) {
        PyErr_SetString(PyExc_TypeError, "bind: error must be callable");
        return NULL;
    }
    if (fast && (!PyCallable_Check(quick) || !PyCallable_Check(quick2) ||
                 !PyAnySet_Check(plain) || !PyAnySet_Check(native_set) ||
                 !PyCallable_Check(wrap))) {
        PyErr_SetString(PyExc_TypeError,
                        "bind: quick, quick2 and wrap callables, plain and native_set sets");
        return NULL;
    }
    if (casts && (!PyType_Check(cast_type) || !PyCallable_Check(cast_call) ||
                  !PyDict_Check(cast_known))) {
        PyErr_SetString(PyExc_TypeError, "bind: cast_type a type, cast_call callable, "
                                         "cast_known a dict");
        return NULL;
    }
    if (ivy_exception != Py_None && !PyType_Check(ivy_exception)) {
        PyErr_SetString(PyExc_TypeError, "bind: ivy_exception must be a type");
        return NULL;
    }
    public_clear_bound(self);
    set_ref(&self->error, (fast || casts) ? error : Py_None);
    set_ref(&self->ivy_exception, ivy_exception);
    if (fast) {
        set_ref(&self->quick, quick);
        set_ref(&self->quick2, quick2);
        set_ref(&self->plain, plain);
        set_ref(&self->native_set, native_set);
        set_ref(&self->wrap, wrap);
        set_ref(&self->dtype, dtype);
    }
    if (casts) {
        set_ref(&self->cast_type, cast_type);
        set_ref(&self->cast_call, cast_call);
        set_ref(&self->cast_known, cast_known);
    }
    if (out_mode != OUT_NONE) {
        self->out_mode = out_mode;
        set_ref(&self->error, error);
        set_ref(&self->no_keywords, no_keywords);
        if (out_mode == OUT_REBIND) {
            set_ref(&self->out_call, out_native); /* ``quick``: of the arrays */
            set_ref(&self->out_kind, PyTuple_GET_ITEM(out_quick, 1));
            set_ref(&self->out_same, PyTuple_GET_ITEM(out_quick, 2));
            set_ref(&self->out_write, PyTuple_GET_ITEM(out_quick, 3));
            PyObject *key = PyTuple_GET_ITEM(out_quick, 4);
            set_ref(&self->out_key, PyObject_IsTrue(key) == 1 ? key : Py_None);
            if (PyTuple_GET_SIZE(out_quick) == 6) {
                set_ref(&self->out_token, PyTuple_GET_ITEM(out_quick, 5));
            }
        }
        else {
            set_ref(&self->out_call, PyTuple_GET_ITEM(out_quick, 1));
        }
        if (out_mode == OUT_ASK) {
            set_ref(&self->out_kind, PyTuple_GET_ITEM(out_quick, 2));
            set_ref(&self->out_target, PyTuple_GET_ITEM(out_quick, 3));
        }
    }
    Py_RETURN_NONE;
}

/* As a function is: ``Array.astype`` is the function itself, ``x.astype`` a bound method. */
static PyObject *
public_descr_get(PyObject *self, PyObject *obj, PyObject *type)
{
    if (obj == NULL || obj == Py_None) {
        Py_INCREF(self);
        return self;
    }
    return PyMethod_New(self, obj);
}

static PyObject *
public_repr(PublicFunctionObject *self)
{
    PyObject *name = self->dict ? PyDict_GetItemString(self->dict, "__qualname__") : NULL;
    if (name == NULL || !PyUnicode_Check(name)) {
        return PyUnicode_FromFormat("<public function at %p>", self);
    }
    return PyUnicode_FromFormat("<function %U at %p>", name, self);
}

/* Pickled by name, as a module-level function is. */
static PyObject *
public_reduce(PublicFunctionObject *self, PyObject *Py_UNUSED(ignored))
{
    return PyObject_GetAttrString((PyObject *)self, "__qualname__");
}

static PyMethodDef public_methods[] = {
    {"bind", (PyCFunction)(void (*)(void))public_bind, METH_VARARGS | METH_KEYWORDS,
     PyDoc_STR("bind(*, quick, quick2, plain, native_set, wrap, error, ivy_exception, dtype, "
               "cast_type, cast_call, cast_known): the backend's paths; None where it has "
               "none.")},
    {"__reduce__", (PyCFunction)public_reduce, METH_NOARGS, NULL},
    {NULL},
};

static PyMemberDef public_members[] = {
    {"__ivy_general__", T_OBJECT, offsetof(PublicFunctionObject, general), READONLY,
     "The Python public function: every call the C paths do not take."},
    {NULL},
};

static PyGetSetDef public_getset[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict},
    {NULL},
};

static PyTypeObject PublicFunctionType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ivycheck.runtime._speedups.PublicFunction",
    .tp_basicsize = sizeof(PublicFunctionObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL |
                Py_TPFLAGS_METHOD_DESCRIPTOR,
    .tp_doc = PyDoc_STR("A public function with its hot tier in C (dispatch/public.py)."),
    .tp_new = public_new,
    .tp_dealloc = (destructor)public_dealloc,
    .tp_traverse = (traverseproc)public_traverse,
    .tp_clear = (inquiry)public_clear,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(PublicFunctionObject, vectorcall),
    .tp_descr_get = public_descr_get,
    .tp_dictoffset = offsetof(PublicFunctionObject, dict),
    .tp_weaklistoffset = offsetof(PublicFunctionObject, weakreflist),
    .tp_repr = (reprfunc)public_repr,
    .tp_methods = public_methods,
    .tp_members = public_members,
    .tp_getset = public_getset,
};

/* ------------------------------------------------------------------------------------ */

static PyObject *
forget_layout(PyObject *module, PyObject *array)
{
    if (PyObject_TypeCheck(array, &ArrayBaseType)) {
        Py_CLEAR(((ArrayObject *)array)->layout_of);
        Py_CLEAR(((ArrayObject *)array)->layout);
    }
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"forget_layout", forget_layout, METH_O,
     PyDoc_STR("forget_layout(x): drop the layout kept for x's data (its data was replaced).")},
    {"configure_item", (PyCFunction)(void (*)(void))configure_item,
     METH_VARARGS | METH_KEYWORDS,
     PyDoc_STR("configure_item(array_type, fallback, plain=None, native_set=None, error=None, "
               "wrap=None): how x[key] is answered; native_set None sends every key to "
               "fallback(x, key).")},
    {NULL},
};

static struct PyModuleDef speedups_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "ivycheck.runtime._speedups",
    .m_doc = PyDoc_STR("The runtime's hottest paths in C (see dispatch/public.py)."),
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    if (PyType_Ready(&ArrayBaseType) < 0 || PyType_Ready(&PublicFunctionType) < 0) {
        return NULL;
    }
    dtype_keyword = Py_BuildValue("(s)", "dtype");
    out_keyword = Py_BuildValue("(s)", "out");
    if (dtype_keyword == NULL || out_keyword == NULL) {
        return NULL;
    }
    PyObject *module = PyModule_Create(&speedups_module);
    if (module == NULL) {
        return NULL;
    }
    if (PyModule_AddObjectRef(module, "ArrayBase", (PyObject *)&ArrayBaseType) < 0 ||
        PyModule_AddObjectRef(module, "PublicFunction", (PyObject *)&PublicFunctionType) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
