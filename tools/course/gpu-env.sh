#!/usr/bin/env bash
# Runs a command with the CUDA toolkit on PATH and its libraries (runtime, CUPTI) on
# LD_LIBRARY_PATH. GitHub Classroom's autograding steps run their command with a stripped
# environment (PATH and HOME only), so every step on the GPU runner goes through this wrapper:
#
#   bash tools/course/gpu-env.sh ctest --test-dir build/grade -L lesson01
#
# The toolkit is the first of: $CUDA_HOME, $CUDA_PATH, the nvcc on PATH, then the folders in
# $GPU_ENV_CUDA_DIRS (default: /usr/local/cuda /opt/cuda). A runner that needs more (a module system, a second toolkit) puts its lines in
# ~/.course-gpu-env, which is sourced first.
set -euo pipefail

if [ $# -eq 0 ]; then
  echo "gpu-env.sh: give the command to run, e.g. gpu-env.sh ctest --test-dir build/grade" >&2
  exit 2
fi
if [ -f "${HOME:-/nonexistent}/.course-gpu-env" ]; then
  # shellcheck disable=SC1091
  . "$HOME/.course-gpu-env"
fi

cuda=""
nvcc_on_path="$(command -v nvcc 2>/dev/null || true)"
# shellcheck disable=SC2086  # the default folders are a list
for dir in "${CUDA_HOME:-}" "${CUDA_PATH:-}" "${nvcc_on_path:+$(dirname "$(dirname "$nvcc_on_path")")}" \
           ${GPU_ENV_CUDA_DIRS:-/usr/local/cuda /opt/cuda}; do
  if [ -n "$dir" ] && [ -x "$dir/bin/nvcc" ]; then
    cuda="$dir"
    break
  fi
done
if [ -z "$cuda" ]; then
  echo "gpu-env.sh: no CUDA toolkit found (set CUDA_HOME, or install it in /usr/local/cuda)" >&2
  exit 2
fi

export CUDA_HOME="$cuda"
export PATH="$cuda/bin:$PATH"
libs=""
for dir in "$cuda/lib64" "$cuda/lib" "$cuda/extras/CUPTI/lib64" "$cuda/targets/$(uname -m)-linux/lib"; do
  if [ -d "$dir" ]; then
    libs="${libs:+$libs:}$dir"
  fi
done
export LD_LIBRARY_PATH="${libs}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
exec "$@"
