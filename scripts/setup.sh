#!/usr/bin/env bash
# Installs what traincalc needs and is missing, and nothing more:
#   scripts/setup.sh serve   what building and serving the page needs: CMake, Ninja, Emscripten,
#                            nlohmann/json, Node.js and the npm packages (scripts/run.sh)
#   scripts/setup.sh         all of that, plus the native compiler, Catch2, toml++ and yaml-cpp (the
#                            command line's config readers), Google Benchmark, clang's
#                            sanitizer and libFuzzer runtimes, Chromium and a CJK font (scripts/test.sh)
# Does nothing (quickly) when everything is there.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-all}
# Debian package and a file that shows it is installed.
declare -A needs=(
  [cmake]=/usr/bin/cmake
  [ninja-build]=/usr/bin/ninja
  [emscripten]=/usr/bin/em++
  [nlohmann-json3-dev]=/usr/include/nlohmann/json.hpp
)
if [ "$mode" != serve ]; then
  needs+=(
    [g++]=/usr/bin/g++
    [catch2]=/usr/include/catch2/catch.hpp
    [libtomlplusplus-dev]=/usr/include/toml++/toml.h
    [libyaml-cpp-dev]=/usr/include/yaml-cpp/yaml.h
    [libbenchmark-dev]=/usr/include/benchmark/benchmark.h
    [clang]=/usr/bin/clang++
    [libclang-rt-14-dev]='/usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a'
    [chromium]=/usr/bin/chromium
    [fonts-wqy-microhei]=/usr/share/fonts/truetype/wqy/wqy-microhei.ttc
  )
fi
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
