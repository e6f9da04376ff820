"""Maps the four top-level folders onto the ``ivycheck`` namespace.

``pyproject.toml`` cannot express "every sub-package of ``runtime/`` installed as
``ivycheck.runtime.*``" without listing each one by hand, so the list is computed
here and everything else stays declarative in ``pyproject.toml``.
"""

import os

from setuptools import Extension, find_packages, setup

PARTS = ("runtime", "rules", "checker", "lsp")

packages = ["ivycheck"]
package_dir = {"ivycheck": "src/ivycheck"}
for part in PARTS:
    package_dir[f"ivycheck.{part}"] = part
    packages.append(f"ivycheck.{part}")
    packages.extend(f"ivycheck.{part}.{sub}" for sub in find_packages(where=part))

# The runtime's hottest paths in C (``runtime/_speedups.c``). Optional: without a compiler the
# build goes on and the runtime runs its Python paths, which are the same paths (slower).
# IVYCHECK_PURE_PYTHON=1 at build time skips it; at run time, it leaves it unused.
ext_modules = []
if not os.environ.get("IVYCHECK_PURE_PYTHON"):
    ext_modules.append(
        Extension("ivycheck.runtime._speedups", ["runtime/_speedups.c"], optional=True)
    )

setup(packages=packages, package_dir=package_dir, ext_modules=ext_modules)
