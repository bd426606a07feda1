#!/usr/bin/env bash
# Installs what serving needs and is missing, builds the page, and serves the calculator on
# http://127.0.0.1:$PORT (8080). The native build and the test tools are scripts/test.sh's.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh serve
scripts/build.sh site
exec node scripts/serve.mjs dist/site
