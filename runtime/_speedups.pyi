"""Types of ``runtime/_speedups.c`` (see ``runtime/speedups.py``)."""

from collections.abc import Callable
from typing import Any

class ArrayBase:
    _data: Any
    _geometry: Any
    def __getitem__(self, key: Any, /) -> Any: ...
    def __reduce_ex__(self, protocol: Any, /) -> Any: ...

class PublicFunction:
    __ivy_general__: Callable[..., Any]
    def __init__(
        self, general: Callable[..., Any], array_type: type[ArrayBase], arity: int
    ) -> None: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any: ...
    def bind(
        self,
        *,
        quick: Callable[..., Any] | None = ...,
        quick2: Callable[..., Any] | None = ...,
        plain: frozenset[type] | None = ...,
        native_set: frozenset[type] | None = ...,
        wrap: Callable[[Any], Any] | None = ...,
        error: Callable[[Exception], Exception] | None = ...,
        ivy_exception: type[BaseException] | None = ...,
        dtype: Any = ...,
        cast_type: type | None = ...,
        cast_call: Callable[[Any, Any], Any] | None = ...,
        cast_known: dict[Any, Any] | None = ...,
        out_quick: tuple[Any, ...] | None = ...,
        out_native: Callable[..., Any] | None = ...,
        no_keywords: dict[str, Any] | None = ...,
        with_out: Callable[[Any, Any, dict[str, Any]], Any] | None = ...,
        finish: Callable[[Any, tuple[Any, ...]], Any] | None = ...,
    ) -> None: ...

def forget_layout(array: object, /) -> None: ...
def configure_item(
    array_type: type[ArrayBase],
    fallback: Callable[[Any, Any], Any],
    plain: frozenset[type] | None = ...,
    native_set: frozenset[type] | None = ...,
    error: Callable[[Exception], Exception] | None = ...,
    wrap: Callable[[Any], Any] | None = ...,
) -> None: ...
