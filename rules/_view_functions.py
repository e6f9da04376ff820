"""Which native calls, methods, attributes and subscripts return a view of their input, on
the backends that have views (NumPy, PyTorch): what IVY011 reads a backend implementation's
argument chains with (``FunctionSummary.argument_chains``).

Tree-free data with its sources; ``tests/rules/test_api_rules.py`` runs every entry against
the installed library and checks that the result shares memory with the input.
"""

from __future__ import annotations

from ivycheck.checker.rule_api import FunctionSummary

# Native functions that return a view of their input, by backend. Sources:
# - NumPy: the "Returns" section of each function's reference page ("a view of a",
#   "a new view object if possible"), https://numpy.org/doc/stable/reference/ ; the
#   functions below return views (reshape/ravel when the layout allows, as Ivy's reshape
#   assumes). Left out on purpose: functions that may return the input object itself
#   (asarray, atleast_1d/2d/3d), read-only broadcast views (broadcast_to: nothing can be
#   written through it), and real/imag (a view only for complex input).
# - PyTorch: "Tensor Views", https://pytorch.org/docs/stable/tensor_view.html (functional
#   forms only; methods such as ``x.view`` are not visible in the index). torch.flip,
#   rot90, flipud and fliplr are NOT views: PyTorch documents that they copy, unlike NumPy.
VIEW_FUNCTIONS: dict[str, frozenset[str]] = {
    "numpy": frozenset(
        f"numpy.{name}"
        for name in (
            "reshape",
            "ravel",
            "transpose",
            "permute_dims",
            "matrix_transpose",
            "linalg.matrix_transpose",
            "swapaxes",
            "moveaxis",
            "rollaxis",
            "expand_dims",
            "squeeze",
            "flip",
            "flipud",
            "fliplr",
            "rot90",
            "diagonal",
            "split",
            "array_split",
            "hsplit",
            "vsplit",
            "dsplit",
            "unstack",
            "lib.stride_tricks.as_strided",
            "lib.stride_tricks.sliding_window_view",
        )
    ),
    "torch": frozenset(
        f"torch.{name}"
        for name in (
            "reshape",
            "flatten",
            "ravel",
            "permute",
            "transpose",
            "swapaxes",
            "swapdims",
            "movedim",
            "moveaxis",
            "t",
            "adjoint",
            "squeeze",
            "unsqueeze",
            "unflatten",
            "diagonal",
            "narrow",
            "select",
            "as_strided",
            "split",
            "tensor_split",
            "hsplit",
            "vsplit",
            "dsplit",
            "chunk",
            "unbind",
        )
    ),
}
VIEW_LINKS: dict[str, frozenset[str]] = {
    "numpy": frozenset(
        (
            # ndarray methods and attributes documented to return a view ("a view of
            # the array", "same as self.transpose()"), in the summary's link notation.
            *(
                f".{name}()"
                for name in (
                    "reshape",
                    "ravel",
                    "transpose",
                    "swapaxes",
                    "squeeze",
                    "diagonal",
                    "view",
                )
            ),
            ".T",
            ".mT",
            FunctionSummary.BASIC_INDEX,
        )
    ),
    "torch": frozenset(
        (
            # Tensor methods and attributes listed under "Tensor Views" (source above).
            *(
                f".{name}()"
                for name in (
                    "view",
                    "view_as",
                    "reshape",
                    "reshape_as",
                    "flatten",
                    "permute",
                    "transpose",
                    "t",
                    "swapaxes",
                    "swapdims",
                    "movedim",
                    "moveaxis",
                    "squeeze",
                    "unsqueeze",
                    "unflatten",
                    "expand",
                    "expand_as",
                    "narrow",
                    "select",
                    "diagonal",
                    "as_strided",
                    "unfold",
                    "split",
                    "chunk",
                    "unbind",
                )
            ),
            ".T",
            ".mT",
            FunctionSummary.BASIC_INDEX,
        )
    ),
}
"""Links of a chain from an argument that keep its memory, besides ``VIEW_FUNCTIONS``:
methods through their receiver (``x.reshape(s)``), attributes (``x.T``) and basic
subscripts (``x[0, 1:]``). Basic indexing makes views in both libraries."""


def is_view(chain: tuple[str, ...], backend: str) -> bool:
    """Every link from the argument to the returned value keeps the argument's memory."""
    functions, links = VIEW_FUNCTIONS[backend], VIEW_LINKS[backend]
    return all(link in functions or link in links for link in chain)
