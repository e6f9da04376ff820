"""The tensorflow backend."""

from ivycheck.runtime.backends._common.package import export
from ivycheck.runtime.backends.tensorflow import (
    creation,
    elementwise,
    linear_algebra,
    manipulation,
    primitives,
    statistical,
)
from ivycheck.runtime.backends.tensorflow.api_dispatch import serialize_api_dispatch

serialize_api_dispatch()  # before any thread calls TensorFlow through the runtime

__all__ = ["primitives"]
__all__ += export(globals(), creation, elementwise, linear_algebra, manipulation, statistical)
from ivycheck.runtime.backends.tensorflow import data_type  # noqa: E402

__all__ += export(globals(), data_type)
from ivycheck.runtime.backends.tensorflow import indexing, searching, sorting, utility  # noqa: E402
from ivycheck.runtime.backends.tensorflow import set as set_functions  # noqa: E402

__all__ += export(globals(), indexing, searching, set_functions, sorting, utility)
from ivycheck.runtime.backends.tensorflow import fft_ext, linalg_ext  # noqa: E402

__all__ += export(globals(), fft_ext, linalg_ext)
