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
 * - ``PublicFunction``: the public function of at most two arrays (``ivy.abs``, ``ivy.add``,
 *   ``ivy.astype`` ...): arrays only and no keyword go to the backend's native function, as
 *   the hot tier of ``public_function`` does; every other call goes to that Python function,
 *   unchanged.
 *
 * A backend error raised on these paths is converted by the backend's ``error`` and raised
 * ``from`` the original, as ``raise error(e) from e`` does.
 *
 * Ownership (why no backend switch can crash a call in flight). Any call into Python code
 * -- a native function, a ``__hash__``/``__eq__``/``__index__`` of an argument, a gc
 * callback, another thread taking the GIL -- may switch the backend (rebinding every public
 * function and ``x[key]``'s configuration) or rebind an ``Array``'s ``_data``. So:
 *
 * - A backend's values are ONE immutable object, a ``Binding`` (``x[key]``: one tuple); a
 *   switch swaps the pointer to it and never changes one in place. A call takes a strong
 *   reference to the binding at entry and uses that one for its checks and its native call:
 *   nothing it uses can be freed or become NULL meanwhile.
 * - After the native call, the call reads the binding in place NOW, as the Python body reads
 *   its closure variables anew after that call: where it changed (the backend was switched
 *   during the call), the error is converted by the new one and the result finished by the
 *   Python function's ``finish`` (the same lines in Python). A switch gives the old or the new
 *   backend's answer, the one the Python paths give.
 * - Every object passed to a call is held for its length (a borrowed ``x->data`` could be
 *   freed by a ``_data`` rebound in it), and ``x->data`` is read again where the Python body
 *   reads ``x._data`` again.
 * - A list is walked as ``for i in a`` walks it: its length read at each step, each item
 *   held while its type is looked up (a type's ``__hash__`` may shrink the list).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

static PyObject *dtype_keyword = NULL; /* ("dtype",) */
static PyObject *out_keyword = NULL;   /* ("out",) */

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

/* How ``x[key]`` is answered (``configure_item``): one tuple, replaced whole. Its
 * ``native_set`` None: every key goes to ``fallback(x, key)``; else a key of plain values is
 * handed to the native array. */
enum { ITEM_TYPE, ITEM_FALLBACK, ITEM_PLAIN, ITEM_NATIVE_SET, ITEM_ERROR, ITEM_WRAP, ITEM_SIZE };
static PyObject *item_config = NULL;
#define ITEM(config, field) PyTuple_GET_ITEM(config, field)

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

/* ``data`` (NULL: unchanged), ``layout_of`` and ``layout`` set together (new references
 * taken), and only then the old ones released: a release may run code (a finalizer), which
 * must find the three consistent. */
static void
set_data_and_layout(ArrayObject *array, PyObject *data, PyObject *tensor, PyObject *token)
{
    PyObject *old_data = NULL;
    if (data != NULL) {
        old_data = array->data;
        array->data = Py_NewRef(data);
    }
    PyObject *old_of = array->layout_of, *old_layout = array->layout;
    array->layout_of = Py_XNewRef(tensor);
    array->layout = Py_XNewRef(token);
    Py_XDECREF(old_data);
    Py_XDECREF(old_of);
    Py_XDECREF(old_layout);
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
 * ``ivy_exception``, ``raise error(e) from (None if isinstance(e, ivy_exception) else e)``.
 * The caller holds ``error`` and ``ivy_exception``. */
static PyObject *
raise_converted(PyObject *error, PyObject *ivy_exception)
{
    PyObject *type, *value, *traceback;
    PyErr_Fetch(&type, &value, &traceback);
    PyErr_NormalizeException(&type, &value, &traceback);
    if (traceback != NULL) {
        PyException_SetTraceback(value, traceback);
    }
    if (error == NULL || error == Py_None ||
        !PyErr_GivenExceptionMatches(type, PyExc_Exception)) {
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
    if (ivy_exception != NULL && ivy_exception != Py_None) {
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
 * tuple ...). Steals ``ret``; the caller holds ``native_set`` and ``wrap``. */
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
 * plain values, walked as ``for i in value`` walks it (see the top). -1 on error; the
 * caller holds ``value`` and ``plain``. */
static int
plain_value(PyObject *value, PyObject *plain, int lists)
{
    PyTypeObject *type = Py_TYPE(value);
    int tuple = type == &PyTuple_Type;
    if (tuple || (lists && type == &PyList_Type)) {
        for (Py_ssize_t i = 0; i < Py_SIZE(value); i++) {
            PyObject *item = tuple ? PyTuple_GET_ITEM(value, i) : PyList_GET_ITEM(value, i);
            Py_INCREF(item);
            int found = PySet_Contains(plain, (PyObject *)Py_TYPE(item));
            Py_DECREF(item);
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

/* ``x._data`` as Python reads it: a new reference, or the AttributeError Python raises. */
static PyObject *
read_data(PyObject *array)
{
    PyObject *data = ((ArrayObject *)array)->data;
    if (data == NULL) {
        return PyObject_GetAttrString(array, "_data");
    }
    return Py_NewRef(data);
}

/* ``direct_item`` (dispatch/public.py) in C: the configuration taken at entry for the test
 * of the key and the native call, the one in place after it for the rest. */
static PyObject *
array_subscript(ArrayObject *self, PyObject *key)
{
    PyObject *config = item_config;
    if (config == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "ivycheck.runtime._speedups: x[key] not configured");
        return NULL;
    }
    Py_INCREF(config);
    PyObject *ret = NULL;
    int plain = 0;
    if (ITEM(config, ITEM_NATIVE_SET) != Py_None) {
        plain = plain_key(key, ITEM(config, ITEM_PLAIN));
        if (plain < 0) {
            goto done;
        }
    }
    if (!plain) {
        ret = PyObject_CallFunctionObjArgs(ITEM(config, ITEM_FALLBACK), (PyObject *)self, key,
                                           NULL);
        goto done;
    }
    PyObject *data = read_data((PyObject *)self);
    if (data != NULL) {
        ret = PyObject_GetItem(data, key);
        Py_DECREF(data);
    }
    if (ITEM(item_config, ITEM_NATIVE_SET) != Py_None) { /* a switch: read as Python does */
        Py_SETREF(config, Py_NewRef(item_config));
    }
    if (ret == NULL) {
        raise_converted(ITEM(config, ITEM_ERROR), NULL);
        goto done;
    }
    ret = wrap_result((PyTypeObject *)ITEM(config, ITEM_TYPE), ITEM(config, ITEM_NATIVE_SET),
                      ITEM(config, ITEM_WRAP), ret);
done:
    Py_DECREF(config);
    return ret;
}

/* ``pickle`` with protocols 0 and 1 as with 2: ``copyreg``'s protocol-0 reduction makes the
 * first non-heap base (``ArrayBase``) of the array, which it cannot pickle; protocol 2's
 * ``__newobj__`` and ``Array.__getstate__`` are what the Python paths' ``Array`` (a base of
 * ``object``) is pickled by, and both load under every protocol. */
static PyObject *
array_reduce_ex(PyObject *self, PyObject *protocol_arg)
{
    long protocol = PyLong_AsLong(protocol_arg);
    if (protocol == -1 && PyErr_Occurred()) {
        return NULL;
    }
    return PyObject_CallMethod((PyObject *)&PyBaseObject_Type, "__reduce_ex__", "Ol", self,
                               protocol < 2 ? 2L : protocol);
}

static PyMethodDef array_methods[] = {
    {"__reduce_ex__", array_reduce_ex, METH_O, NULL},
    {NULL},
};

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
    .tp_methods = array_methods,
    .tp_members = array_members,
    .tp_as_mapping = &array_as_mapping,
};

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
    PyObject *config = direct ? PyTuple_Pack(ITEM_SIZE, array_type, fallback, plain, native_set,
                                             error, wrap)
                              : PyTuple_Pack(ITEM_SIZE, array_type, fallback, Py_None, Py_None,
                                             Py_None, Py_None);
    if (config == NULL) {
        return NULL;
    }
    Py_XSETREF(item_config, config);
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------------------------------ */
/* Binding: one backend's values of one public function (``bind``), never changed in place */

typedef struct {
    PyObject_HEAD
    /* NULL where the backend has no such path */
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
    PyObject *finish;      /* finish(ret, args): the Python body's end, for a switched call */
    /* ``f(x, out=o)``, ``f(x1, x2, out=o)``: ``Built.out_quick`` (dispatch/build.py) */
    int out_mode;          /* OUT_NONE, or NATIVE / REBIND / ASK as in build.py */
    PyObject *out_call;    /* NATIVE: f(*arrays, out=); REBIND: the native function; ASK: check */
    PyObject *out_kind;    /* REBIND: the immutable native type; ASK: the native type */
    PyObject *out_same;    /* REBIND: same_layout(ret, data) */
    PyObject *out_write;   /* REBIND: write(out, ret) where the layouts differ */
    PyObject *out_key;     /* REBIND: an attribute equal by identity when layouts agree */
    PyObject *out_target;  /* ASK: the backend function asked about */
    PyObject *no_keywords; /* the empty keywords passed to check and ``with_out`` */
    PyObject *out_token;   /* REBIND: primitives.layout, where the result layout follows
                            * from the inputs' (else NULL: ``out_same`` decides) */
    PyObject *with_out;    /* with_out(out, arrays' data, no_keywords): where the native out
                            * failed or was not asked */
    PyObject *out_guard;   /* NATIVE: a ContextVar (NumPy's error state), or NULL */
    PyObject *out_safe;    /* NATIVE: the set of its values under which the native out raises
                            * only before writing; any other value goes to ``with_out`` */
    /* The one field changed after ``bind``: the inputs' layout tokens of the last call read
     * and its result's, one tuple ``(in0, in1, result)`` replaced whole. */
    PyObject *memo;
} BindingObject;

enum { OUT_NONE = -1, OUT_NATIVE = 0, OUT_REBIND = 1, OUT_ASK = 2 };

#define BINDING_FIELDS(X)                                                                    \
    X(quick) X(quick2) X(plain) X(native_set) X(wrap) X(error) X(ivy_exception) X(dtype)     \
    X(cast_type) X(cast_call) X(cast_known) X(finish) X(out_call) X(out_kind) X(out_same)    \
    X(out_write) X(out_key) X(out_target) X(no_keywords) X(out_token) X(with_out) X(memo)   \
    X(out_guard) X(out_safe)

static int
binding_traverse(BindingObject *self, visitproc visit, void *arg)
{
#define VISIT(field) Py_VISIT(self->field);
    BINDING_FIELDS(VISIT)
#undef VISIT
    return 0;
}

static int
binding_clear(BindingObject *self)
{
#define CLEAR(field) Py_CLEAR(self->field);
    BINDING_FIELDS(CLEAR)
#undef CLEAR
    return 0;
}

static void
binding_dealloc(BindingObject *self)
{
    PyObject_GC_UnTrack(self);
    binding_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyTypeObject BindingType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ivycheck.runtime._speedups.Binding",
    .tp_basicsize = sizeof(BindingObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = PyDoc_STR("One backend's values of one public function (PublicFunction.bind)."),
    .tp_dealloc = (destructor)binding_dealloc,
    .tp_traverse = (traverseproc)binding_traverse,
    .tp_clear = (inquiry)binding_clear,
};

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
    BindingObject *binding; /* the backend's (``bind``); NULL before the first */
} PublicFunctionObject;

#define NOT_TAKEN ((PyObject *)&_Py_NotImplementedStruct)

/* The binding in place now, else ``held`` (new reference). */
static BindingObject *
binding_now(PublicFunctionObject *self, BindingObject *held)
{
    BindingObject *now = self->binding != NULL ? self->binding : held;
    Py_INCREF(now);
    return now;
}

/* A native call failed: its error converted as the Python body converts it, by ``error`` as
 * it is after the call. */
static PyObject *
raise_after(PublicFunctionObject *self, BindingObject *held, int ivy_from_none)
{
    BindingObject *now = binding_now(self, held);
    raise_converted(now->error, ivy_from_none ? now->ivy_exception : NULL);
    Py_DECREF(now);
    return NULL;
}

/* A native call returned ``ret`` (stolen) for the call of ``args``: wrapped by the binding
 * it was made with; if another binding is in place now (a switch during the call), by the
 * Python body's ``finish``, which reads its variables as they are now. */
static PyObject *
finish_call(PublicFunctionObject *self, BindingObject *held, PyObject *ret,
            PyObject *const *args, Py_ssize_t nargs)
{
    BindingObject *now = self->binding;
    if (now == held || now == NULL || now->finish == NULL) {
        return wrap_result(self->array_type, held->native_set, held->wrap, ret);
    }
    Py_INCREF(now);
    PyObject *call_args = PyTuple_New(nargs);
    PyObject *finished = NULL;
    if (call_args != NULL) {
        for (Py_ssize_t i = 0; i < nargs; i++) {
            PyTuple_SET_ITEM(call_args, i, Py_NewRef(args[i]));
        }
        finished = PyObject_CallFunctionObjArgs(now->finish, ret, call_args, NULL);
        Py_DECREF(call_args);
    }
    Py_DECREF(ret);
    Py_DECREF(now);
    return finished;
}

/* A function of no array (``zeros((8,))``, ``full((8,), 2.0)``): plain values, a sequence
 * of them, no native array; else NOT_TAKEN (``concat([x, y])`` and the rest: Python). Where
 * the test of the values switched the backend (a type's ``__hash__``), the call is left to
 * the Python body too, which reads its variables as they are now, as it would have read them
 * for the native call. */
static PyObject *
call_of_values(PublicFunctionObject *self, BindingObject *b, PyObject *const *args,
               Py_ssize_t nargs)
{
    PyObject *a = args[0];
    PyTypeObject *type = Py_TYPE(a);
    int ok;
    if (type == &PyTuple_Type || type == &PyList_Type) {
        if (Py_SIZE(a) > 0 && Py_TYPE(PySequence_Fast_ITEMS(a)[0]) == self->array_type) {
            return NOT_TAKEN;
        }
        ok = plain_value(a, b->plain, 1);
    }
    else {
        ok = PySet_Contains(b->plain, (PyObject *)type);
        if (ok > 0) {
            int native = PySet_Contains(b->native_set, (PyObject *)type);
            ok = native < 0 ? -1 : !native;
        }
    }
    if (ok > 0 && nargs == 2) {
        ok = plain_value(args[1], b->plain, 1);
    }
    if (ok < 0) {
        return NULL;
    }
    if (!ok || self->binding != b) { /* (a type's ``__hash__`` switched: see ``switched``) */
        return NOT_TAKEN;
    }
    PyObject *ret;
    PyObject *fn = nargs == 1 ? b->quick : b->quick2;
    if (b->dtype == NULL) {
        ret = PyObject_Vectorcall(fn, args, nargs, NULL);
    }
    else {
        PyObject *call_args[3] = {args[0], nargs == 2 ? args[1] : b->dtype, b->dtype};
        ret = PyObject_Vectorcall(fn, call_args, nargs, dtype_keyword);
    }
    if (ret == NULL) {
        return raise_after(self, b, 1);
    }
    return finish_call(self, b, ret, args, nargs);
}

/* ``astype(x, dtype)``: ``x`` an ``Array`` of the native type the backend casts, a dtype it
 * has answered before: the native cast; else NOT_TAKEN. As in Python, ``x._data`` is read
 * (and held) before the dtype is looked up, which may run its ``__hash__``/``__eq__``; an
 * error there that ``except (KeyError, TypeError)`` takes leaves the call to Python. */
static PyObject *
cast(PublicFunctionObject *self, BindingObject *b, PyObject *x, PyObject *dtype)
{
    if (b->cast_type == NULL || Py_TYPE(x) != self->array_type) {
        return NOT_TAKEN;
    }
    PyObject *data = ((ArrayObject *)x)->data;
    if (data == NULL || (PyObject *)Py_TYPE(data) != b->cast_type) {
        return NOT_TAKEN;
    }
    Py_INCREF(data);
    PyObject *native_dtype = PyDict_GetItemWithError(b->cast_known, dtype);
    if (native_dtype == NULL) {
        Py_DECREF(data);
        if (PyErr_Occurred()) { /* ``except (KeyError, TypeError)``: unhashable, or raised */
            if (!PyErr_ExceptionMatches(PyExc_TypeError) &&
                !PyErr_ExceptionMatches(PyExc_KeyError)) {
                return NULL;
            }
            PyErr_Clear();
        }
        return NOT_TAKEN;
    }
    Py_INCREF(native_dtype); /* borrowed from a dict the call might change */
    /* ``cast_call`` as it is after the lookup (which may have switched the backend) */
    BindingObject *now = binding_now(self, b);
    PyObject *call_args[2] = {data, native_dtype};
    PyObject *ret = PyObject_Vectorcall(now->cast_call ? now->cast_call : b->cast_call,
                                        call_args, 2, NULL);
    Py_DECREF(now);
    Py_DECREF(native_dtype);
    Py_DECREF(data);
    if (ret == NULL) {
        return raise_after(self, b, 0);
    }
    /* the native cast's result is of the exact native type (``Built.table``) */
    return new_array(self->array_type, ret);
}

/* Arrays only, no keyword: the native function of their native arrays; ``f(x, y)`` with a
 * plain ``y`` (``reshape(x, (2, 4))``) too; else NOT_TAKEN. */
static PyObject *
call_of_arrays(PublicFunctionObject *self, BindingObject *b, PyObject *const *args,
               Py_ssize_t nargs)
{
    PyTypeObject *array_type = self->array_type;
    if (Py_TYPE(args[0]) != array_type || ((ArrayObject *)args[0])->data == NULL) {
        return NOT_TAKEN;
    }
    PyObject *ret;
    if (self->arity == 2) {
        if (nargs != 2 || Py_TYPE(args[1]) != array_type ||
            ((ArrayObject *)args[1])->data == NULL) {
            return NOT_TAKEN;
        }
        PyObject *call_args[2] = {((ArrayObject *)args[0])->data,
                                  ((ArrayObject *)args[1])->data};
        Py_INCREF(call_args[0]); /* held: the call could rebind an ``_data`` */
        Py_INCREF(call_args[1]);
        ret = PyObject_Vectorcall(b->quick, call_args, 2, NULL);
        Py_DECREF(call_args[0]);
        Py_DECREF(call_args[1]);
    }
    else if (nargs == 1) {
        PyObject *first = Py_NewRef(((ArrayObject *)args[0])->data);
        ret = PyObject_CallOneArg(b->quick, first);
        Py_DECREF(first);
    }
    else {
        PyObject *cast_result = cast(self, b, args[0], args[1]);
        if (cast_result != NOT_TAKEN) {
            return cast_result;
        }
        int plain = plain_value(args[1], b->plain, 0);
        if (plain <= 0 || self->binding != b) { /* (see ``call_of_values``) */
            return plain < 0 ? NULL : NOT_TAKEN;
        }
        /* read again, as ``quick2(x._data, y)`` does: the tests above may have run code */
        PyObject *first = read_data(args[0]);
        if (first == NULL) {
            return raise_after(self, b, 0);
        }
        PyObject *call_args[2] = {first, args[1]};
        ret = PyObject_Vectorcall(b->quick2, call_args, 2, NULL);
        Py_DECREF(first);
    }
    if (ret == NULL) {
        return raise_after(self, b, 0);
    }
    return finish_call(self, b, ret, args, nargs);
}

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

/* The layout token of ``data``, ``array``'s data for this call (held by the caller): the one
 * ``array`` keeps while that data is its data, else ``out_token(data)`` (a reading of its dtype
 * and shape), then kept. New reference. */
static PyObject *
array_token(BindingObject *b, ArrayObject *array, PyObject *data)
{
    if (array->layout != NULL && array->layout_of == data) {
        return Py_NewRef(array->layout);
    }
    PyObject *token = PyObject_CallOneArg(b->out_token, data);
    if (token != NULL) {
        set_data_and_layout(array, NULL, data, token);
    }
    return token;
}

/* Whether ``ret``, this function's result for ``data[:n]`` (the arrays' data), has the layout
 * of ``data[n]`` (``out``'s), without reading ``ret`` when the last call read had inputs of
 * these layouts: the result's layout follows from the inputs' (``RESULT_LAYOUT_FROM_INPUTS``).
 * ``*ret_token`` gets ``ret``'s token (a new reference) for ``out`` to keep. 1, 0, or -1. */
static int
fits_by_token(BindingObject *b, PyObject *const *arrays, PyObject **data, Py_ssize_t n,
              PyObject *out, PyObject *ret, PyObject **ret_token)
{
    PyObject *inputs[2] = {NULL, NULL};
    PyObject *wanted = NULL, *token = NULL, *memo = NULL;
    int fits = -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        inputs[i] = array_token(b, (ArrayObject *)arrays[i], data[i]);
        if (inputs[i] == NULL) {
            goto done;
        }
    }
    wanted = array_token(b, (ArrayObject *)out, data[n]);
    if (wanted == NULL) {
        goto done;
    }
    memo = b->memo;
    if (memo != NULL && PyTuple_GET_ITEM(memo, 0) == inputs[0] &&
        PyTuple_GET_ITEM(memo, 1) == (inputs[1] ? inputs[1] : Py_None)) {
        token = Py_NewRef(PyTuple_GET_ITEM(memo, 2));
    }
    else {
        token = PyObject_CallOneArg(b->out_token, ret);
        if (token == NULL) {
            goto done;
        }
        memo = PyTuple_Pack(3, inputs[0], inputs[1] ? inputs[1] : Py_None, token);
        if (memo == NULL) {
            goto done;
        }
        Py_XSETREF(b->memo, memo);
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
fits_by_reading(BindingObject *b, PyObject *ret, PyObject *buffer)
{
    if (b->out_key != NULL) {
        PyObject *mine = PyObject_GetAttr(ret, b->out_key);
        PyObject *theirs = mine ? PyObject_GetAttr(buffer, b->out_key) : NULL;
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
    PyObject *same = PyObject_CallFunctionObjArgs(b->out_same, ret, buffer, NULL);
    int fits = same == NULL ? -1 : PyObject_IsTrue(same);
    Py_XDECREF(same);
    return fits;
}

/* ``with_out(out, (x._data, ...), NO_KEYWORDS)``, where the native ``out`` failed or was not
 * asked, as the Python body calls it: each ``_data`` read again, ``with_out`` as it is now
 * (never the native ``out`` a second time: a failed update may have written some values,
 * and a second try would read them). */
static PyObject *
call_with_out_python(PublicFunctionObject *self, BindingObject *held, PyObject *const *arrays,
                     Py_ssize_t n, PyObject *out)
{
    BindingObject *b = binding_now(self, held);
    if (b->with_out == NULL) {
        Py_SETREF(b, (BindingObject *)Py_NewRef(held));
    }
    PyObject *ret = NULL;
    PyObject *data = PyTuple_New(n);
    if (data == NULL) {
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = read_data(arrays[i]);
        if (item == NULL) {
            goto done;
        }
        PyTuple_SET_ITEM(data, i, item);
    }
    ret = PyObject_CallFunctionObjArgs(b->with_out, out, data, b->no_keywords, NULL);
    if (ret == NULL) {
        raise_converted(b->error, b->ivy_exception);
    }
done:
    Py_XDECREF(data);
    Py_DECREF(b);
    return ret;
}

/* ``f(*arrays, out=o)`` with every array and ``o`` an ``Array`` (``data``: their data, held):
 * the backend's native ``out`` (NATIVE; ASK when its check says the result fits), or the
 * result rebound into ``o`` when the layouts agree (REBIND, immutable arrays); what is left
 * goes to ``with_out``, as the Python body sends it. */
static PyObject *
native_out(PublicFunctionObject *self, BindingObject *b, PyObject *const *arrays,
           PyObject **data, Py_ssize_t n, PyObject *out)
{
    PyObject *buffer = data[n];
    if (b->out_mode == OUT_REBIND) {
        PyObject *ret = PyObject_Vectorcall(b->out_call, data, n, NULL);
        if (ret == NULL) {
            return raise_after(self, b, 0);
        }
        int fits = 0;
        PyObject *kind = b->out_kind;
        /* tokens only where every tensor is of the immutable type (a ``tf.Variable`` of
         * unknown shape may change it) */
        int immutable = b->out_token != NULL;
        for (Py_ssize_t i = 0; i < n && immutable; i++) {
            immutable = (PyObject *)Py_TYPE(data[i]) == kind;
        }
        PyObject *ret_token = NULL;
        if ((PyObject *)Py_TYPE(ret) == kind && (PyObject *)Py_TYPE(buffer) == kind) {
            fits = immutable ? fits_by_token(b, arrays, data, n, out, ret, &ret_token)
                             : fits_by_reading(b, ret, buffer);
            if (fits < 0) {
                Py_DECREF(ret);
                return NULL;
            }
        }
        if (fits) {
            set_data_and_layout((ArrayObject *)out, ret, ret_token ? ret : NULL, ret_token);
            Py_XDECREF(ret_token);
            Py_DECREF(ret);
            return Py_NewRef(out);
        }
        PyObject *written = PyObject_CallFunctionObjArgs(b->out_write, out, ret, NULL);
        Py_DECREF(ret);
        if (written == NULL) {
            return raise_converted(b->error, b->ivy_exception);
        }
        return written;
    }
    PyObject *native = b->out_call;
    if (b->out_mode == OUT_ASK) {
        if ((PyObject *)Py_TYPE(buffer) != b->out_kind) {
            return call_with_out_python(self, b, arrays, n, out);
        }
        if (n == 2) {
            PyObject *ask[4] = {b->out_target, data[0], data[1], buffer};
            native = PyObject_Vectorcall(b->out_call, ask, 4, NULL);
        }
        else {
            PyObject *one = PyTuple_Pack(1, data[0]);
            if (one == NULL) {
                return NULL;
            }
            PyObject *ask[4] = {b->out_target, one, b->no_keywords, buffer};
            native = PyObject_Vectorcall(b->out_call, ask, 3, out_keyword);
            Py_DECREF(one);
        }
        if (native == NULL) {
            return swallowed() ? call_with_out_python(self, b, arrays, n, out) : NULL;
        }
        if (native == Py_None) {
            Py_DECREF(native);
            return call_with_out_python(self, b, arrays, n, out);
        }
    }
    else if (b->out_guard != NULL) {
        /* NATIVE with a guard: only in an error state known not to raise after writing
         * (NumPy's ``np.seterr(all="raise")`` raises once ``out`` is written); ``with_out``
         * answers any other state, and records it when it is safe. */
        PyObject *state = NULL;
        if (PyContextVar_Get(b->out_guard, NULL, &state) < 0) {
            return NULL;
        }
        int safe = state != NULL ? PySet_Contains(b->out_safe, state) : 0;
        Py_XDECREF(state);
        if (safe < 0) {
            return NULL;
        }
        if (!safe) {
            return call_with_out_python(self, b, arrays, n, out);
        }
        Py_INCREF(native);
    }
    else {
        Py_INCREF(native);
    }
    PyObject *ret = PyObject_Vectorcall(native, data, n, out_keyword);
    Py_DECREF(native);
    if (ret == NULL) {
        return swallowed() ? call_with_out_python(self, b, arrays, n, out) : NULL;
    }
    Py_DECREF(ret);
    return Py_NewRef(out);
}

/* ``native_out`` of the arrays' native data, each held for the call: a native function
 * may call back into Python (``__array_function__``...), which could rebind an ``_data``. */
static PyObject *
call_with_out(PublicFunctionObject *self, BindingObject *b, PyObject *const *arrays,
              Py_ssize_t n, PyObject *out)
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
    PyObject *ret = native_out(self, b, arrays, data, n, out);
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
    BindingObject *b = self->binding;
    if (b != NULL) {
        PyObject *ret = NOT_TAKEN;
        Py_INCREF(b); /* held for the call: a switch during it cannot free what it uses */
        if (kwnames == NULL && nargs >= 1 && nargs <= 2) {
            if (b->quick != NULL) {
                ret = self->arity == 0 ? call_of_values(self, b, args, nargs)
                                       : call_of_arrays(self, b, args, nargs);
            }
            else if (nargs == 2) { /* no quick path (a view to make): a cast table answers */
                ret = cast(self, b, args[0], args[1]);
            }
        }
        else if (kwnames != NULL && nargs == self->arity && b->out_mode != OUT_NONE &&
                 only_out(kwnames)) {
            ret = call_with_out(self, b, args, nargs, args[nargs]);
        }
        Py_DECREF(b);
        if (ret != NOT_TAKEN) {
            return ret;
        }
    }
    return PyObject_Vectorcall(self->general, args, nargsf, kwnames);
}

static int
public_traverse(PublicFunctionObject *self, visitproc visit, void *arg)
{
    Py_VISIT(self->dict);
    Py_VISIT(self->general);
    Py_VISIT(self->array_type);
    Py_VISIT(self->binding);
    return 0;
}

static int
public_clear(PublicFunctionObject *self)
{
    Py_CLEAR(self->dict);
    Py_CLEAR(self->general);
    Py_CLEAR(self->array_type);
    Py_CLEAR(self->binding);
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
    self->general = Py_NewRef(general);
    self->array_type = (PyTypeObject *)Py_NewRef(array_type);
    return (PyObject *)self;
}

/* ``value`` for a binding's field: NULL for None. New reference. */
static PyObject *
field(PyObject *value)
{
    return value == Py_None ? NULL : Py_NewRef(value);
}

static PyObject *
public_bind(PublicFunctionObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"quick", "quick2", "plain", "native_set", "wrap", "error",
                               "ivy_exception", "dtype", "cast_type", "cast_call",
                               "cast_known", "out_quick", "out_native", "no_keywords",
                               "with_out", "finish", NULL};
    PyObject *quick = Py_None, *quick2 = Py_None, *plain = Py_None, *native_set = Py_None;
    PyObject *wrap = Py_None, *error = Py_None, *ivy_exception = Py_None, *dtype = Py_None;
    PyObject *cast_type = Py_None, *cast_call = Py_None, *cast_known = Py_None;
    PyObject *out_quick = Py_None, *out_native = Py_None, *no_keywords = Py_None;
    PyObject *with_out = Py_None, *finish = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|$OOOOOOOOOOOOOOOO:bind", keywords, &quick,
                                     &quick2, &plain, &native_set, &wrap, &error,
                                     &ivy_exception, &dtype, &cast_type, &cast_call,
                                     &cast_known, &out_quick, &out_native, &no_keywords,
                                     &with_out, &finish)) {
        return NULL;
    }
    int out_mode = OUT_NONE;
    if (out_quick != Py_None) {
        Py_ssize_t size = PyTuple_Check(out_quick) ? PyTuple_GET_SIZE(out_quick) : 0;
        out_mode = size ? (int)PyLong_AsLong(PyTuple_GET_ITEM(out_quick, 0)) : -2;
        PyObject *guard = out_mode == OUT_NATIVE && size == 3 ? PyTuple_GET_ITEM(out_quick, 2)
                                                             : Py_None;
        if ((out_mode == OUT_NATIVE && size != 2 && size != 3) ||
            (guard != Py_None &&
             (!PyTuple_Check(guard) || PyTuple_GET_SIZE(guard) != 2 ||
              !PyContextVar_CheckExact(PyTuple_GET_ITEM(guard, 0)) ||
              !PySet_CheckExact(PyTuple_GET_ITEM(guard, 1)))) ||
            (out_mode == OUT_ASK && size != 4) ||
            (out_mode == OUT_REBIND && size != 5 && size != 6) || out_mode < OUT_NATIVE ||
            out_mode > OUT_ASK || !PyCallable_Check(error) || !PyDict_Check(no_keywords) ||
            !PyCallable_Check(with_out) ||
            (out_mode == OUT_REBIND && !PyCallable_Check(out_native))) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_TypeError,
                                "bind: out_quick is (NATIVE, f[, None or (contextvar, set)]), "
                                "(ASK, check, type, target) "
                                "or (REBIND, type, same_layout, write, key[, token]), with error "
                                "and with_out callable, no_keywords a dict and out_native "
                                "callable");
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
    if (finish != Py_None && !PyCallable_Check(finish)) {
        PyErr_SetString(PyExc_TypeError, "bind: finish must be callable");
        return NULL;
    }
    BindingObject *b = PyObject_GC_New(BindingObject, &BindingType);
    if (b == NULL) {
        return NULL;
    }
#define ZERO(name) b->name = NULL;
    BINDING_FIELDS(ZERO)
#undef ZERO
    b->out_mode = OUT_NONE;
    /* ``error`` and ``finish`` whatever the paths: a call in flight on another binding may
     * end by this one's (``raise_after``, ``finish_call``) */
    b->error = PyCallable_Check(error) ? field(error) : NULL;
    b->ivy_exception = field(ivy_exception);
    b->finish = field(finish);
    if (fast) {
        b->quick = field(quick);
        b->quick2 = field(quick2);
        b->plain = field(plain);
        b->native_set = field(native_set);
        b->wrap = field(wrap);
        b->dtype = field(dtype);
    }
    if (casts) {
        b->cast_type = field(cast_type);
        b->cast_call = field(cast_call);
        b->cast_known = field(cast_known);
    }
    if (out_mode != OUT_NONE) {
        b->out_mode = out_mode;
        b->no_keywords = field(no_keywords);
        b->with_out = field(with_out);
        if (out_mode == OUT_REBIND) {
            b->out_call = field(out_native); /* ``quick``: of the arrays */
            b->out_kind = field(PyTuple_GET_ITEM(out_quick, 1));
            b->out_same = field(PyTuple_GET_ITEM(out_quick, 2));
            b->out_write = field(PyTuple_GET_ITEM(out_quick, 3));
            PyObject *key = PyTuple_GET_ITEM(out_quick, 4);
            int truth = PyObject_IsTrue(key);
            if (truth < 0) {
                Py_DECREF(b);
                return NULL;
            }
            b->out_key = truth ? field(key) : NULL;
            if (PyTuple_GET_SIZE(out_quick) == 6) {
                b->out_token = field(PyTuple_GET_ITEM(out_quick, 5));
            }
        }
        else {
            b->out_call = field(PyTuple_GET_ITEM(out_quick, 1));
        }
        if (out_mode == OUT_NATIVE && PyTuple_GET_SIZE(out_quick) == 3 &&
            PyTuple_GET_ITEM(out_quick, 2) != Py_None) {
            PyObject *guard = PyTuple_GET_ITEM(out_quick, 2);
            b->out_guard = field(PyTuple_GET_ITEM(guard, 0));
            b->out_safe = field(PyTuple_GET_ITEM(guard, 1));
        }
        if (out_mode == OUT_ASK) {
            b->out_kind = field(PyTuple_GET_ITEM(out_quick, 2));
            b->out_target = field(PyTuple_GET_ITEM(out_quick, 3));
        }
    }
    PyObject_GC_Track(b);
    /* the swap: a call in flight keeps the binding it took */
    Py_XSETREF(self->binding, b);
    Py_RETURN_NONE;
}

/* As a function is: ``Array.astype`` is the function itself, ``x.astype`` a bound method. */
static PyObject *
public_descr_get(PyObject *self, PyObject *obj, PyObject *type)
{
    if (obj == NULL || obj == Py_None) {
        return Py_NewRef(self);
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
               "cast_type, cast_call, cast_known, out_quick, out_native, no_keywords, "
               "with_out, finish): the backend's paths, None where it has none; one new "
               "binding, swapped in whole (a call in flight keeps the one it took).")},
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
        set_data_and_layout((ArrayObject *)array, NULL, NULL, NULL);
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
    if (PyType_Ready(&ArrayBaseType) < 0 || PyType_Ready(&BindingType) < 0 ||
        PyType_Ready(&PublicFunctionType) < 0) {
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
