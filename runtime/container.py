"""``ivy.Container``: a nested mapping of arrays.

Nestable functions map over it leaf by leaf (``dispatch.build.map_nested``), so a whole model's
parameters can be updated with one call, and ``inplace_update`` of a container writes every
leaf and returns the same container object -- references held elsewhere stay valid.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any


class Container(dict[str, Any]):
    """A ``dict`` whose values are arrays or further containers; attribute access to keys."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for key, value in self.items():
            if isinstance(value, dict) and not isinstance(value, Container):
                self[key] = Container(value)

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def leaves(self) -> Iterator[tuple[tuple[str, ...], Any]]:
        """Every (key path, leaf) pair, depth first."""
        for key, value in self.items():
            if isinstance(value, Container):
                for path, leaf in value.leaves():
                    yield (key, *path), leaf
            else:
                yield (key,), value

    def cont_map(self, fn: Callable[[Any], Any]) -> Container:
        """A new container with ``fn`` applied to every leaf."""
        return Container(
            {k: v.cont_map(fn) if isinstance(v, Container) else fn(v) for k, v in self.items()}
        )
