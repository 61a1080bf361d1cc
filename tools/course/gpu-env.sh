#!/usr/bin/env bash
# Runs a command with the CUDA toolkit on PATH and its libraries (runtime, CUPTI) on
# LD_LIBRARY_PATH. GitHub Classroom's autograding steps run their command with a stripped
# environment (PATH and HOME only), so every step on the GPU runner goes through this wrapper:
#
#   bash tools/course/gpu-env.sh python3 tools/course/grade.py lesson 01 --build-dir build/grade
#
# The toolkit is the first of: $CUDA_HOME, $CUDA_PATH, the nvcc on PATH, then the folders in
# $GPU_ENV_CUDA_DIRS (default: /usr/local/cuda /opt/cuda). A runner that needs more (a module
# system, a second toolkit) puts its lines in /etc/course-gpu-env, which is sourced first. That
# file must belong to root and be writable by root alone: nothing a graded program could have
# written (the runner's own home folder, for instance) is ever sourced.
set -euo pipefail

if [ $# -eq 0 ]; then
  echo "gpu-env.sh: give the command to run, e.g. gpu-env.sh ctest --test-dir build/grade" >&2
  exit 2
fi
site="${COURSE_GPU_ENV_FILE:-/etc/course-gpu-env}"
if [ -e "$site" ]; then
  # shellcheck disable=SC2012  # ls -ln is the portable way to read the owner and the mode
  read -r mode _ owner _ < <(ls -ln "$site")
  if [ ! -f "$site" ] || [ "$owner" != 0 ] || [ "${mode:5:1}" = w ] || [ "${mode:8:1}" = w ]; then
    echo "gpu-env.sh: refusing to source $site: it must be a regular file owned by root and" \
         "writable by root alone (chown root $site; chmod 644 $site)" >&2
    exit 2
  fi
  # shellcheck disable=SC1090
  . "$site"
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
