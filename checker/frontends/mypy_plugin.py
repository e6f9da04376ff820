"""The mypy plugin: native arrays passed as ``out``, seen through types (``ivy-native-out``).

IVY007 sees ``out=x.data`` or ``out=np.zeros(3)`` in the text; it cannot see
``out=buffers[0]`` or ``out=make_buffer()``. mypy can: this plugin looks at every call of
a runtime function (``ivycheck.runtime.*``, ``ivy.*``) and of an ``Array`` method, and
reports the call when the inferred type of its ``out`` argument is (or, in a union, may be)
a native array: ``numpy.ndarray``, ``torch.Tensor``, ``jax.Array``, ``tf.Tensor``,
``tf.Variable``, or ``ivy.NativeArray``. The runtime raises on such a call; mypy now says so
before it runs.

It also gives ``ivy.NativeArray`` a type. At run time it is the class of the backend in use;
for mypy without the plugin it is ``Any``. With the plugin it is the union of the native
array classes of the configured backends (or the one class, when one backend is
configured), so code that passes native arrays around type-checks under each backend::

    [tool.ivycheck-mypy]            # pyproject.toml ([ivycheck-mypy] in mypy.ini/setup.cfg)
    backends = ["torch"]            # default: numpy and every installed typed backend

``IVYCHECK_MYPY_BACKENDS=numpy,jax`` overrides the file. TensorFlow counts only with its
stubs (``types-tensorflow``): TensorFlow itself ships no types.
"""

from __future__ import annotations

import configparser
import os
import sys
import tomllib
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from mypy.errorcodes import ErrorCode
from mypy.nodes import ARG_NAMED, ARG_NAMED_OPT, Context, Expression, MypyFile, TypeInfo
from mypy.options import Options
from mypy.plugin import (
    AnalyzeTypeContext,
    FunctionContext,
    FunctionSigContext,
    MethodContext,
    MethodSigContext,
    Plugin,
    ReportConfigContext,
)
from mypy.typeanal import TypeAnalyser
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    NoneType,
    Type,
    TypeOfAny,
    UnionType,
    get_proper_type,
)

from ivycheck.checker.project.selectors import did_you_mean

IVY_NATIVE_OUT = ErrorCode(
    "ivy-native-out", "A native array is passed as `out` to a runtime function", "ivycheck"
)

BACKEND_CLASSES: dict[str, tuple[str, ...]] = {
    "numpy": ("numpy.ndarray",),
    "torch": ("torch._tensor.Tensor",),
    "jax": ("jax._src.basearray.Array",),
    "tensorflow": ("tensorflow.Tensor", "tensorflow.Variable"),
}
"""The classes ``ivy.NativeArray`` stands for, per backend (where mypy defines them)."""

_TOP_MODULES = {"numpy": "numpy", "torch": "torch", "jax": "jax", "tensorflow": "tensorflow"}
_DEPENDENCIES = {
    "numpy": "numpy",
    "torch": "torch._tensor",
    "jax": "jax._src.basearray",
    "tensorflow": "tensorflow",
}

NATIVE_CLASSES = frozenset(
    {
        *(name for names in BACKEND_CLASSES.values() for name in names),
        "torch._C.TensorBase",
        "torch._C._TensorBase",
        "jaxlib.xla_extension.ArrayImpl",
        "jaxlib._jax.ArrayImpl",
        "tensorflow.python.framework.tensor.Tensor",
        "tensorflow.python.framework.ops.Tensor",
        "tensorflow.python.framework.ops.EagerTensor",
        "tensorflow.python.ops.variables.Variable",
        "tensorflow.python.ops.resource_variable_ops.ResourceVariable",
        "ivy.NativeArray",
        "ivy.data_classes.array.array.NativeArray",
    }
)
"""A type whose class has one of these in its MRO is a native array."""

NATIVE_ARRAY_ALIASES = frozenset(
    {"ivycheck.runtime.NativeArray", "ivycheck.runtime.native.NativeArray", "ivy.NativeArray"}
)
RUNTIME_PREFIXES = ("ivycheck.runtime.", "ivy.")
TO_NATIVE = frozenset(
    {"ivycheck.runtime.functional.general.to_native", "ivycheck.runtime.to_native", "ivy.to_native"}
)
"""``to_native``: returns the native array inside an ``Array``."""
ARRAY_CLASSES = frozenset({"ivycheck.runtime.array.Array", "ivy.data_classes.array.array.Array"})
_RUNTIME_MODULES = frozenset({"ivycheck.runtime", "ivycheck.runtime.native", "ivy"})


def _has_stubs(package: str) -> bool:
    return any((Path(entry) / f"{package}-stubs").is_dir() for entry in sys.path if entry)


def installed_backends() -> tuple[str, ...]:
    """numpy, and each other backend whose package (with types) is importable."""
    import importlib.util

    found = ["numpy"]
    for backend in ("torch", "jax"):
        if importlib.util.find_spec(_TOP_MODULES[backend]) is not None:
            found.append(backend)
    if _has_stubs("tensorflow"):
        found.append("tensorflow")
    return tuple(found)


def _parse_backends(value: Any, where: str) -> tuple[str, ...]:
    names = [v.strip() for v in value.split(",")] if isinstance(value, str) else value
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ValueError(f"{where}: backends must be a list of backend names")
    unknown = sorted(set(names) - set(BACKEND_CLASSES) - {""})
    if unknown:
        raise ValueError(
            f"{where}: unknown backend {unknown[0]!r}{did_you_mean(unknown[0], BACKEND_CLASSES)} "
            f"(expected {', '.join(BACKEND_CLASSES)})"
        )
    return tuple(n for n in names if n)


def configured_backends(options: Options) -> tuple[str, ...]:
    """From ``IVYCHECK_MYPY_BACKENDS``, else the mypy config file, else what is installed."""
    environment = os.environ.get("IVYCHECK_MYPY_BACKENDS")
    if environment is not None:
        return _parse_backends(environment, "IVYCHECK_MYPY_BACKENDS")
    config_file = options.config_file
    if config_file and os.path.isfile(config_file):
        if config_file.endswith(".toml"):
            with open(config_file, "rb") as handle:
                table = tomllib.load(handle).get("tool", {}).get("ivycheck-mypy", {})
            if "backends" in table:
                return _parse_backends(table["backends"], f"{config_file} [tool.ivycheck-mypy]")
        else:
            parser = configparser.ConfigParser()
            parser.read(config_file, encoding="utf-8")
            if parser.has_option("ivycheck-mypy", "backends"):
                value = parser.get("ivycheck-mypy", "backends")
                return _parse_backends(value, f"{config_file} [ivycheck-mypy]")
    return installed_backends()


def is_native(typ: Type) -> bool:
    """Whether ``typ`` is, or (as a union) may be, a native array."""
    proper = get_proper_type(typ)
    if isinstance(proper, UnionType):
        return any(is_native(item) for item in proper.items)
    if isinstance(proper, Instance):
        return any(base.fullname in NATIVE_CLASSES for base in proper.type.mro)
    return False


def _describe(typ: Type) -> str:
    proper = get_proper_type(typ)
    if isinstance(proper, UnionType):
        items = [item for item in proper.items if is_native(item)]
        return " | ".join(_describe(item) for item in items)
    if isinstance(proper, Instance):
        return proper.type.fullname.replace("torch._tensor.", "torch.").replace(
            "jax._src.basearray.", "jax."
        )
    return str(typ)


class IvycheckPlugin(Plugin):
    """Reports ``ivy-native-out``; types ``ivy.NativeArray``."""

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        try:
            self.backends = configured_backends(options)
        except ValueError as err:
            # mypy shows an exception from here as its own INTERNAL ERROR, without our
            # message: a configuration error is the user's to fix, stated and exit 2.
            sys.stderr.write(f"ivycheck mypy plugin: error: {err}\n")
            raise SystemExit(2) from None

    def report_config_data(self, ctx: ReportConfigContext) -> Any:
        """The backends are part of the cache key: changing them re-checks the runtime."""
        return {"backends": list(self.backends)}

    def get_additional_deps(self, file: MypyFile) -> list[tuple[int, str, int]]:
        """The runtime's ``NativeArray`` needs the backends' classes analysed first."""
        if file.fullname not in _RUNTIME_MODULES:
            return []
        return [(10, _DEPENDENCIES[backend], -1) for backend in self.backends]

    def get_type_analyze_hook(self, fullname: str) -> Callable[[AnalyzeTypeContext], Type] | None:
        if fullname in NATIVE_ARRAY_ALIASES:
            return self._native_array
        return None

    def _native_array(self, ctx: AnalyzeTypeContext) -> Type:
        items: list[Type] = []
        api = ctx.api
        for backend in self.backends:
            for name in BACKEND_CLASSES[backend]:
                node = (
                    api.api.lookup_fully_qualified_or_none(name)
                    if isinstance(api, TypeAnalyser)
                    else None
                )
                if node is not None and isinstance(node.node, TypeInfo):
                    info = node.node
                    args: list[Type] = [AnyType(TypeOfAny.special_form)] * len(info.defn.type_vars)
                    items.append(Instance(info, args))
        if not items:
            return AnyType(TypeOfAny.special_form)
        return UnionType.make_union(items)

    def get_function_signature_hook(
        self, fullname: str
    ) -> Callable[[FunctionSigContext], CallableType] | None:
        if fullname.startswith(RUNTIME_PREFIXES) and fullname not in TO_NATIVE:
            return lambda ctx: self._out_admits_native(ctx.default_signature)
        return None

    def get_method_signature_hook(
        self, fullname: str
    ) -> Callable[[MethodSigContext], CallableType] | None:
        owner = fullname.rpartition(".")[0]
        if owner.startswith(RUNTIME_PREFIXES) or self._is_array_class(owner):
            return lambda ctx: self._out_admits_native(ctx.default_signature)
        return None

    def _out_admits_native(self, signature: CallableType) -> CallableType:
        """``signature`` with native arrays added to its ``out`` parameter's type.

        Invariant: one error per problem. The runtime annotates ``out: Array | None``, so
        mypy itself would report a native ``out`` as ``arg-type`` before the call hook
        reports it as ``ivy-native-out`` (which says what happens and what to pass): the
        same line twice. Admitting native arrays here leaves the report to the call hook;
        any other wrong ``out`` (a number, a list) is still mypy's ``arg-type``."""
        if "out" not in signature.arg_names:
            return signature
        natives = self._native_instances(NATIVE_CLASSES)
        if not natives:
            return signature
        position = signature.arg_names.index("out")
        types = list(signature.arg_types)
        types[position] = UnionType.make_union([types[position], *natives])
        return signature.copy_modified(arg_types=types)

    def _native_instances(self, names: Iterable[str]) -> list[Type]:
        """An ``Instance`` (with ``Any`` type arguments) of each class of ``names`` mypy
        has analysed in this run."""
        items: list[Type] = []
        for name in names:
            node = self.lookup_fully_qualified(name)
            if node is not None and isinstance(node.node, TypeInfo):
                info = node.node
                args: list[Type] = [AnyType(TypeOfAny.special_form)] * len(info.defn.type_vars)
                items.append(Instance(info, args))
        return items

    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        if fullname in TO_NATIVE:
            return self._to_native
        if fullname.startswith(RUNTIME_PREFIXES):
            name = fullname.rsplit(".", 1)[-1]
            return lambda ctx: self._check_out(ctx, f"`{name}`")
        return None

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        owner, _, method = fullname.rpartition(".")
        if owner.startswith(RUNTIME_PREFIXES) or self._is_array_class(owner):
            return lambda ctx: self._check_out(ctx, f"`Array.{method}`")
        return None

    def _to_native(self, ctx: FunctionContext) -> Type:
        """``to_native(x)``: the native array class(es) for an ``Array``, else ``x``'s type.

        The runtime annotates it ``Any -> Any`` (non-arrays come back unchanged); without
        this a native array obtained from it and passed as ``out`` would go unreported.
        """
        if not ctx.arg_types or not ctx.arg_types[0]:
            return ctx.default_return_type
        argument = ctx.arg_types[0][0]
        proper = get_proper_type(argument)
        if not isinstance(proper, Instance) or not any(
            base.fullname in ARRAY_CLASSES for base in proper.type.mro
        ):
            return argument if not isinstance(proper, AnyType) else ctx.default_return_type
        items = self._native_instances(
            name for backend in self.backends for name in BACKEND_CLASSES[backend]
        )
        return UnionType.make_union(items) if items else ctx.default_return_type

    def _is_array_class(self, fullname: str) -> bool:
        node = self.lookup_fully_qualified(fullname)
        if node is None or not isinstance(node.node, TypeInfo):
            return False
        return any(
            base.fullname in ARRAY_CLASSES or base.fullname.startswith(RUNTIME_PREFIXES)
            for base in node.node.mro
        )

    def _check_out(self, ctx: FunctionContext | MethodContext, callee: str) -> Type:
        for formal, names in enumerate(ctx.arg_names):
            for actual, name in enumerate(names):
                kind = ctx.arg_kinds[formal][actual]
                if name != "out" or kind not in (ARG_NAMED, ARG_NAMED_OPT):
                    continue
                self._report(ctx, callee, ctx.arg_types[formal][actual], ctx.args[formal][actual])
        return ctx.default_return_type

    def _report(
        self,
        ctx: FunctionContext | MethodContext,
        callee: str,
        typ: Type,
        argument: Expression,
    ) -> None:
        if isinstance(get_proper_type(typ), NoneType) or not is_native(typ):
            return
        context: Context = argument
        ctx.api.fail(
            f"{callee} is given a native array ({_describe(typ)}) as `out`, which raises; "
            "pass an `ivy.Array`",
            context,
            code=IVY_NATIVE_OUT,
        )


def plugin(version: str) -> type[Plugin]:
    """mypy's entry point (``plugins = ["ivycheck.mypy"]``)."""
    return IvycheckPlugin


__all__: Sequence[str] = ["IVY_NATIVE_OUT", "IvycheckPlugin", "is_native", "plugin"]
