#!/bin/sh
# The shared-memory layouts tilefit emits (`tilefit layout --emit c`),
# compiled as CUDA by nvcc for the architecture of the machine they were
# proved on: every shipped workset on one machine of each architecture it
# models, its default answer, in a kernel that takes the struct over its
# dynamic shared memory and a host function that sets the kernel's opt-in
# to the struct's size (docs/emit.md, "Checked with nvcc").  Compiles only:
# nothing is launched.  Not part of `make test` (CI has no CUDA toolkit);
# `make check-nvcc` runs it, and says so and succeeds when nvcc is missing.
set -eu
BIN=${TILEFIT_BIN:-./tilefit}
NVCC=${NVCC:-nvcc}
if ! command -v "$NVCC" >/dev/null 2>&1; then
  echo "check-nvcc: no $NVCC on PATH; skipped" >&2
  exit 0
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/tilefit-nvcc.XXXXXX")
trap 'rm -rf "$dir"' EXIT INT TERM

# one machine per architecture, NVIDIA only (nvcc compiles no gfx target)
machines=$(for m in $("$BIN" machines --json | python3 -c '
import json, sys
print(" ".join(m["name"] for m in json.load(sys.stdin)["machines"]))'); do
  "$BIN" machines "$m" --json
done | python3 -c '
import json, sys
seen = {}
for m in (json.loads(line) for line in sys.stdin if line.strip()):  # one object a line
    arch = next(f["value"] for f in m["fields"] if f["field"] == "arch")
    if arch.startswith("sm_") and arch not in seen:
        seen[arch] = m["name"]
print(" ".join("%s:%s" % (n, a) for a, n in seen.items()))')
worksets=$("$BIN" worksets --json | python3 -c '
import json, sys
print(" ".join(w["name"] for w in json.load(sys.stdin)["worksets"]))')

n=0 bad=0 control=0 last_arch=
for w in $worksets; do
  for ma in $machines; do
    m=${ma%%:*} arch=${ma#*:}
    # a workset that does not model this architecture is refused: skipped
    "$BIN" layout -m "$m" -w "$w" --emit c > "$dir/layout.h" 2>/dev/null || continue
    ident=$(echo "$w" | tr -c 'A-Za-z0-9\n' '_')
    cat > "$dir/k.cu" <<CU
#include "layout.h"
extern "C" __global__ void touch(unsigned *out) {
  extern __shared__ __align__(1024) unsigned char smem[];
  struct tf_${ident}_smem *s = reinterpret_cast<struct tf_${ident}_smem *>(smem);
  out[threadIdx.x] = (unsigned)sizeof(*s) + smem[threadIdx.x];
}
cudaError_t opt_in(void) {
  return cudaFuncSetAttribute(touch, cudaFuncAttributeMaxDynamicSharedMemorySize,
                              (int)sizeof(struct tf_${ident}_smem));
}
CU
    n=$((n + 1))
    if "$NVCC" -std=c++17 -arch="$arch" -c "$dir/k.cu" -o "$dir/k.o" 2> "$dir/err.txt"; then
      echo "ok    $w on $m ($arch)"
      cp "$dir/layout.h" "$dir/last.h"
      sed 's/"layout.h"/"edited.h"/' "$dir/k.cu" > "$dir/edited.cu"
      last_arch=$arch
    else
      bad=$((bad + 1))
      echo "FAIL  $w on $m ($arch)"
      sed 's/^/      /' "$dir/err.txt"
    fi
  done
done
# the control: nvcc checks the asserts, so the last header that compiled,
# with its "used" figure one byte off, must not
if [ -s "$dir/last.h" ]; then
  sed 's/== \([0-9]*\), "smem used/== \1 + 1, "smem used/' "$dir/last.h" > "$dir/edited.h"
  if cmp -s "$dir/last.h" "$dir/edited.h" ||
     "$NVCC" -std=c++17 -arch="$last_arch" -c "$dir/edited.cu" -o "$dir/k.o" 2>/dev/null; then
    echo "check-nvcc: the control (a header one byte off) compiled" >&2
    control=1
  fi
fi
version=$("$NVCC" --version | sed -n 's/.*release \([0-9.]*\), \(V[0-9.]*\).*/nvcc \1 (\2)/p')
echo "check-nvcc: $((n - bad)) of $n emitted layouts compile with $version; the control one byte off $([ "$control" -eq 0 ] && echo does not || echo DOES)"
[ "$bad" -eq 0 ] && [ "$control" -eq 0 ]
