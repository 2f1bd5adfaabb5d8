#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages archbench builds and tests with. Works as root (no sudo
# needed, as in most GPU containers) and as a user with sudo. Installs only what dpkg does not
# already report as installed, so running it twice is harmless.
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: tools/install-deps.sh [--test-extras] [--dry-run] [-h|--help]

Installs with apt-get what archbench needs to build and run its tests:
  cmake ninja-build g++ git python3 libgtest-dev libbenchmark-dev nlohmann-json3-dev
  libcli11-dev libfmt-dev liblz4-dev libzstd-dev libarchive-dev libsqlite3-dev libpq-dev
  (libarchive lets `archbench scan` read wheels and container images; without it the build
  still works and scan reads directories and binaries only. SQLite is the history store;
  libpq lets it be a PostgreSQL database)
and, from PyPI, the headers of cudnn-frontend 1.32.0 (the cuDNN attention twins' graph API),
unpacked into ~/.cache/archbench/ (no Python environment is changed)

  --test-extras, --all  also install what a few optional tests use (they skip without it):
                        clang libclang-rt-14-dev (the libFuzzer tests), chromium (the
                        headless render of the HTML report) and postgresql (the server the
                        PostgreSQL store's test starts). .ci/run uses this.
  --dry-run             print what would be installed and the commands, change nothing
  -h, --help            this text

Runs apt-get directly as root, through sudo otherwise; stops with a message when it is
neither root nor able to use sudo. Packages dpkg reports as installed are skipped.

Not installed here (they come from NVIDIA, see README.md "Install"): the CUDA toolkit 13
(nvcc) and cuDNN 9 for CUDA 13. The script says at the end whether it found them.
EOF
}

base=(cmake ninja-build g++ git python3 libgtest-dev libbenchmark-dev nlohmann-json3-dev libcli11-dev
      libfmt-dev liblz4-dev libzstd-dev libarchive-dev libsqlite3-dev libpq-dev)
extras=(clang libclang-rt-14-dev chromium postgresql)

with_extras=0
dry_run=0
for arg in "$@"; do
  case "$arg" in
    --test-extras | --all) with_extras=1 ;;
    --dry-run) dry_run=1 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "install-deps.sh: unknown option '$arg' (see --help)" >&2; exit 2 ;;
  esac
done

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
  echo "install-deps.sh: this script needs apt-get and dpkg (Debian or Ubuntu); install the packages" \
       "listed by --help with your system's package manager" >&2
  exit 1
fi

packages=("${base[@]}")
if [ "$with_extras" -eq 1 ]; then packages+=("${extras[@]}"); fi

missing=()
for p in "${packages[@]}"; do
  # "install ok installed", not just known to dpkg: a removed package keeps a status entry.
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [ "$status" = "install ok installed" ] || missing+=("$p")
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-deps.sh: all ${#packages[@]} packages are installed"
else
  if [ "$(id -u)" -eq 0 ]; then
    as_root=()
  elif command -v sudo >/dev/null 2>&1; then
    as_root=(sudo)
  else
    echo "install-deps.sh: not root and no sudo: run it as root, or install these packages as root:" >&2
    echo "  apt-get update && apt-get install -y --no-install-recommends ${missing[*]}" >&2
    exit 1
  fi
  echo "install-deps.sh: installing ${missing[*]}"
  update=("${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq)
  install=("${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends
           "${missing[@]}")
  if [ "$dry_run" -eq 1 ]; then
    echo "dry run: ${update[*]}"
    echo "dry run: ${install[*]}"
  else
    "${update[@]}"
    "${install[@]}"
  fi
fi

# cudnn-frontend's headers (the cuDNN attention twins' graph API; header-only). PyPI's wheel holds
# them under include/; they are unpacked into the user's cache, where configure looks, so that no
# Python environment is modified (Debian's system Python refuses pip installs).
frontend_version=1.32.0
frontend_dir="${XDG_CACHE_HOME:-$HOME/.cache}/archbench/cudnn-frontend-$frontend_version"
if [ -f "$frontend_dir/include/cudnn_frontend.h" ]; then
  echo "install-deps.sh: cudnn-frontend headers: $frontend_dir/include"
elif [ "$dry_run" -eq 1 ]; then
  echo "dry run: python3 -m pip download --no-deps nvidia-cudnn-frontend==$frontend_version; unpack include/ into $frontend_dir"
else
  tmp=$(mktemp -d)
  if python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.11 --platform manylinux_2_28_x86_64 \
       "nvidia-cudnn-frontend==$frontend_version" -d "$tmp" &&
     python3 -m zipfile -e "$tmp"/nvidia_cudnn_frontend-*.whl "$tmp/wheel" && mkdir -p "$frontend_dir" &&
     rm -rf "$frontend_dir/include" && mv "$tmp/wheel/include" "$frontend_dir/include"; then
    echo "install-deps.sh: cudnn-frontend headers: $frontend_dir/include"
  else
    echo "install-deps.sh: note: cudnn-frontend $frontend_version could not be fetched from PyPI: configure stops" \
         "without its headers (pass -DARCHBENCH_CUDNN_FRONTEND_INCLUDE_DIR=<cudnn-frontend>/include)" >&2
  fi
  rm -rf "$tmp"
fi

# What this script cannot install: say whether configure will find it.
nvcc_path=$(command -v nvcc || true)
if [ -z "$nvcc_path" ] && [ -x /usr/local/cuda/bin/nvcc ]; then nvcc_path=/usr/local/cuda/bin/nvcc; fi
if [ -n "$nvcc_path" ]; then
  echo "install-deps.sh: CUDA toolkit: $nvcc_path"
else
  echo "install-deps.sh: note: no nvcc on PATH or in /usr/local/cuda/bin: install the CUDA toolkit 13 (README.md, Install)"
fi
cudnn_header=""
for d in /usr/local/cuda/include /usr/include/x86_64-linux-gnu /usr/include; do
  if [ -f "$d/cudnn_version.h" ]; then cudnn_header="$d/cudnn_version.h"; break; fi
done
if [ -n "$cudnn_header" ]; then
  echo "install-deps.sh: cuDNN headers: $cudnn_header"
else
  echo "install-deps.sh: note: no cudnn_version.h in the places configure looks: install cuDNN 9 for CUDA 13," \
       "or pass its paths to cmake (README.md, Install)"
fi
