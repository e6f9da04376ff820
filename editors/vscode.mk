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

.PHONY: vsix vsix-smoke vsix-clean

# `npm run package` is `vsce package`, whose prepublish step is `npm run compile`:
# `tsc --noEmit` (type check), then esbuild bundles src/ and vscode-languageclient
# into out/extension.js, so the .vsix needs no node_modules at run time.
vsix: $(VSCODE_EXT_DIR)/node_modules/.ivycheck-ci-stamp
	cd $(VSCODE_EXT_DIR) && rm -f ivycheck-*.vsix && $(VSCODE_NPM) run package
	@ls -l $(VSCODE_EXT_DIR)/ivycheck-*.vsix

# `npm ci` again only when the manifest or the lock file changes.
$(VSCODE_EXT_DIR)/node_modules/.ivycheck-ci-stamp: $(VSCODE_EXT_DIR)/package.json $(VSCODE_EXT_DIR)/package-lock.json
	cd $(VSCODE_EXT_DIR) && $(VSCODE_NPM) ci --no-fund --no-audit
	touch $@

# Loads the built bundle in node with a stub `vscode` module and runs it against
# a real `$(VSCODE_SMOKE_PYTHON) -m ivycheck lsp` (initialize, configuration, shutdown).
VSCODE_SMOKE_PYTHON ?= python3
vsix-smoke: vsix
	node $(VSCODE_EXT_DIR)/scripts/smoke.js $(VSCODE_SMOKE_PYTHON) $(VSCODE_EXT_DIR)/out/extension.js

vsix-clean:
	rm -rf $(VSCODE_EXT_DIR)/node_modules $(VSCODE_EXT_DIR)/out $(VSCODE_EXT_DIR)/ivycheck-*.vsix

ifneq ($(firstword $(MAKEFILE_LIST)),$(_VSCODE_MK))
.DEFAULT_GOAL := $(_VSCODE_PREV_DEFAULT_GOAL)
endif
