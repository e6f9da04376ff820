# Two entry points, both idempotent on a fresh clone: `make demo` and `make test`.
PYTHON ?= python3.11
VENV ?= .venv
BIN := $(VENV)/bin
EDITABLE := --config-settings editable_mode=strict
export PIP_DISABLE_PIP_VERSION_CHECK := 1
# setuptools prints a banner on every editable install (a BuildBackendWarning that pip shows
# even with --quiet); silenced by its message, for pip's build subprocess only.
PIP_INSTALL := PYTHONWARNINGS="ignore:Editable installation" $(BIN)/python -m pip install --quiet
# The distribution was called "ivycheck" (an unrelated project on PyPI) before "ivycheck-lint":
# an old editable install of that name would link a second, stale copy of the package.
DROP_OLD_DIST := $(BIN)/python -m pip uninstall --quiet --yes ivycheck 2>/dev/null || true

.PHONY: demo test test-explore lint typecheck dogfood pytest test-slow install-dev relink clean vsix bench-deps \
	conformance conformance-numpy conformance-torch conformance-jax conformance-tensorflow ecosystem \
	verify-fixes

include editors/vscode.mk

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Full dependency install only when pyproject.toml changes; the cheap --no-deps
# editable re-install below runs every time so that new modules are linked.
$(VENV)/.demo-deps: pyproject.toml setup.py | $(BIN)/python
	$(DROP_OLD_DIST)
	$(PIP_INSTALL) -e . $(EDITABLE)
	touch $@

$(VENV)/.dev-deps: pyproject.toml setup.py | $(BIN)/python
	$(DROP_OLD_DIST)
	$(PIP_INSTALL) -e ".[dev,backends,runtime,conformance,dask]" $(EDITABLE)
	touch $@ $(VENV)/.demo-deps

relink:
	$(PIP_INSTALL) --no-deps -e . $(EDITABLE)

demo: $(VENV)/.demo-deps
	$(MAKE) --no-print-directory relink
	$(BIN)/ivycheck --no-cache --exit-zero examples/

install-dev: $(VENV)/.dev-deps
	$(MAKE) --no-print-directory relink

lint: install-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: install-dev
	$(BIN)/mypy

dogfood: install-dev
	$(BIN)/ivycheck runtime/ rules/ checker/ lsp/

pytest: install-dev
	$(BIN)/pytest -q -m "not slow" -n auto --maxprocesses 4

# The runtime's hot paths run in C where the extension is built (runtime/_speedups.c); their
# tests run again on the Python paths, which are the whole runtime without a compiler.
HOT_PATH_TESTS := tests/runtime/test_hot_paths.py tests/runtime/test_speed_paths.py \
	tests/runtime/test_speed_shortcuts.py tests/runtime/test_wrapper_results.py \
	tests/runtime/test_exceptions.py tests/runtime/test_array_object.py

# The language server's Neovim check (tests/lsp/test_neovim.py: the README's snippet, the
# quick fix with the cursor anywhere on the flagged line) needs a real Neovim: Debian's is
# installed where it is missing and apt can; without one that test is skipped, saying why.
.PHONY: neovim
neovim:
	@command -v nvim >/dev/null || (apt-get update -qq && apt-get install -y -qq neovim >/dev/null) \
		|| echo "make: no Neovim and apt-get could not install it: tests/lsp/test_neovim.py will be skipped"

test: install-dev neovim
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/ivycheck runtime/ rules/ checker/ lsp/
	$(BIN)/pytest -q -m "not slow" -n auto --maxprocesses 4
	IVYCHECK_PURE_PYTHON=1 $(BIN)/pytest -q -m "not slow" -n auto --maxprocesses 4 $(HOT_PATH_TESTS)

test-slow: install-dev
	$(BIN)/pytest -q -m slow

# --fix and --add-noqa killed (SIGKILL, through strace) at every write-side system call, on a
# shrinking and a growing fix: the file must be whole, old or new (tests/reliability/
# test_fix_kill.py; ~4 min on 2 cores). strace is installed first where it is missing.
.PHONY: test-reliability
test-reliability: install-dev
	command -v strace >/dev/null || (apt-get update -qq && apt-get install -y -qq strace)
	$(BIN)/pytest -q -m slow -p no:randomly tests/reliability/test_fix_kill.py

# The C paths (runtime/_speedups.c) under AddressSanitizer and UndefinedBehaviorSanitizer:
# built into build/sanitize (the installed build is untouched) and loaded from there
# (IVYCHECK_SPEEDUPS_BUILD); every Python object allocated by malloc (PYTHONMALLOC), so that
# a freed one read is reported, not hidden in pymalloc's arenas; any report ends the process,
# which fails its test. The runtime suite, with the re-entrancy and threads suite
# (tests/runtime/test_reentrancy.py, whose subprocesses inherit all this). CPython leaks by
# design: leaks are not reported. libstdc++ is preloaded with ASan, whose interceptor of C++
# throws (PyTorch's argument parser throws) needs it loaded first. ~3x slower than without.
SANITIZE_DIR := build/sanitize
SANITIZE_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	-fno-omit-frame-pointer -g
.PHONY: test-sanitize
test-sanitize: install-dev
	rm -rf $(SANITIZE_DIR)
	CC=gcc CFLAGS="$(SANITIZE_FLAGS)" LDFLAGS="$(SANITIZE_FLAGS)" $(BIN)/python setup.py -q \
		build_ext --build-lib $(SANITIZE_DIR) --build-temp $(SANITIZE_DIR)/tmp
	so=$$(ls $(SANITIZE_DIR)/ivycheck/runtime/_speedups*.so) && \
	LD_PRELOAD="$$(gcc -print-file-name=libasan.so) $$(gcc -print-file-name=libstdc++.so)" \
	ASAN_OPTIONS=detect_leaks=0 \
	UBSAN_OPTIONS=print_stacktrace=1 PYTHONMALLOC=malloc IVYCHECK_SPEEDUPS_BUILD=$$so \
		$(BIN)/pytest -q -m "not slow" -n 2 -p no:randomly tests/runtime

test-explore: install-dev
	$(BIN)/pytest -q -m "not slow" -n auto --maxprocesses 4 --hypothesis-profile=explore

clean:
	rm -rf $(VENV) build *.egg-info .ivycheck_cache .mypy_cache .pytest_cache .ruff_cache

# Peers (Fixit) and a profiler for the hand-run benchmarks in benchmarks/; not needed by `make test`.
bench-deps: install-dev
	$(PIP_INSTALL) -e ".[dev,backends,runtime,conformance,dask,bench]" $(EDITABLE)

# The Array API standard's test suite (../shared/array-api-tests) per backend, 20 examples, as
# PROVENANCE.md runs it, at 2025.12 (the version the namespace implements; other versions:
# `scripts/conformance.py --backend B --version 2023.12 --show-failures`): pass/fail/skip per
# backend, and a failure not named in tests/conformance/<backend>-xfails.txt fails the target.
# From ~0.5 min (NumPy) to ~15 min (JAX) per backend on 2 cores (docs/conformance.md);
# `make test` runs a fixed subset (tests/conformance/test_conformance.py).
CONFORMANCE := $(BIN)/python scripts/conformance.py --check
conformance: install-dev
	$(CONFORMANCE)

# A static pattern rule: make looks for no implicit rule for a .PHONY target, so a plain
# `conformance-%` rule never ran ("Nothing to be done").
CONFORMANCE_BACKENDS := conformance-numpy conformance-torch conformance-jax conformance-tensorflow
$(CONFORMANCE_BACKENDS): conformance-%: install-dev
	$(CONFORMANCE) --backend $*

# The Dask backend (issue 40), only when asked: the suite on it, checked against
# tests/conformance/dask-xfails.txt, then array-api-compat's dask.array wrapper with the same
# command, for comparison (figures: docs/conformance.md). Dask ~6 min on 2 cores beside other
# work; the wrapper much longer (its failures are shrunk by Hypothesis).
.PHONY: conformance-dask
conformance-dask: install-dev
	$(CONFORMANCE) --backend dask
	$(BIN)/python scripts/conformance.py --backend compat-dask

# ivycheck over both Ivy snapshots in ../shared (2023-09 and 2023-03), each compared with its
# reviewed findings; --probe: each snapshot's out-fate table against its own wrapper.
ecosystem: install-dev
	$(BIN)/python scripts/ecosystem_check.py --strict --probe

# Every front door against the JSON door on both Ivy snapshots in ../shared (issue 37):
# ivycheck's formats, flake8 --select IVY, the language server pushed and pulled, closed and
# opened files; exit 1 on any finding dropped, added or moved (docs/doors.md).
.PHONY: doors
doors: install-dev
	$(BIN)/python scripts/doors_agree.py

# Fix safety proven by execution (issue 23): --fix on a temporary copy of each Ivy snapshot in
# ../shared, each changed function run before and after on NumPy and PyTorch (JAX, TensorFlow,
# Paddle where they import), each correctness claim run; --unsafe: unsafe fixes too, none may
# make a call raise that returned before (issue 36); ~12 min on 2 cores for both snapshots
# (docs/verify-fixes.md).
verify-fixes: install-dev
	$(BIN)/python scripts/verify_fixes.py --unsafe

# make verify-fixes on JAX and TensorFlow (issue 23): the snapshot's own era of both backends,
# which the project's .venv cannot import, in build/verify-venv (Python 3.11; made on first use,
# ~1.7 GB, ~1.5 min; pins below), where the workers run (ivycheck itself runs in .venv);
# 2-4.5 min on 2 cores (docs/verify-fixes.md).
VERIFY_VENV := build/verify-venv
VERIFY_PINS := jax==0.4.13 jaxlib==0.4.13 tensorflow-cpu==2.13.0 tensorflow-probability==0.21.0 \
	numpy==1.24.3 scipy==1.11.4 ml_dtypes==0.2.0 packaging
.PHONY: verify-fixes-backends
verify-fixes-backends: install-dev
	test -x $(VERIFY_VENV)/bin/python || $(PYTHON) -m venv $(VERIFY_VENV)
	$(VERIFY_VENV)/bin/python -m pip install --quiet $(VERIFY_PINS)
	$(BIN)/python scripts/verify_fixes.py --backend jax --backend tensorflow \
		--worker-python $(VERIFY_VENV)/bin/python

# The Array API's real clients as a gate (scripts/clients.py): scikit-learn, SciPy, einops,
# array-api-strict and array-api-extra installed into the venv (array-api-extra's tests from
# its sdist, unpacked in .clients/), then sklearn's array-API tests and array-api-extra's suite
# run on this namespace, one backend after the other (figures: docs/conformance.md). Heavy on
# 2 cores: `scripts/clients.py --backend B --client sklearn -- -x -k metrics` while developing.
.PHONY: clients
clients: install-dev
	$(BIN)/python scripts/clients.py --install
