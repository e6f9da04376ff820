"""Maps the four top-level folders onto the ``ivycheck`` namespace.

``pyproject.toml`` cannot express "every sub-package of ``runtime/`` installed as
``ivycheck.runtime.*``" without listing each one by hand, so the list is computed
here and everything else stays declarative in ``pyproject.toml``.
"""

from setuptools import find_packages, setup

PARTS = ("runtime", "rules", "checker", "lsp")

packages = ["ivycheck"]
package_dir = {"ivycheck": "src/ivycheck"}
for part in PARTS:
    package_dir[f"ivycheck.{part}"] = part
    packages.append(f"ivycheck.{part}")
    packages.extend(f"ivycheck.{part}.{sub}" for sub in find_packages(where=part))

setup(packages=packages, package_dir=package_dir)
