#!/usr/bin/env bash
# Installs what traincalc needs and is missing: Debian packages (compilers, Emscripten, Catch2,
# nlohmann/json, clang's sanitizer and libFuzzer runtimes, Chromium for the browser tests) and the npm packages pinned in package-lock.json.
# Does nothing (quickly) when everything is there.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian package and a file that shows it is installed.
declare -A needs=(
  [cmake]=/usr/bin/cmake
  [ninja-build]=/usr/bin/ninja
  [g++]=/usr/bin/g++
  [emscripten]=/usr/bin/em++
  [catch2]=/usr/include/catch2/catch.hpp
  [nlohmann-json3-dev]=/usr/include/nlohmann/json.hpp
  [libbenchmark-dev]=/usr/include/benchmark/benchmark.h
  [clang]=/usr/bin/clang++
  [libclang-rt-14-dev]='/usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a'
  [chromium]=/usr/bin/chromium
  [fonts-wqy-microhei]=/usr/share/fonts/truetype/wqy/wqy-microhei.ttc
)
missing=()
for package in "${!needs[@]}"; do
  compgen -G "${needs[$package]}" >/dev/null || missing+=("$package")
done
# Node.js 20 and npm may come from Debian or elsewhere; only install them when absent.
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" -lt 20 ]; then
  echo "setup: Node.js $(node --version) is too old; traincalc needs Node.js 20 or newer." >&2
  exit 1
fi

# npm packages exactly as locked; playwright-core drives Debian's Chromium and downloads nothing.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm packages from package-lock.json"
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error
fi
