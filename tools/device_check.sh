#!/usr/bin/env bash
# One prepared run on a machine with a GPU and torch (the lead's device check, issues 19 and 24):
#   1. the GEMM/bandwidth benchmarks through `rocm-doctor bench` (human and --json): the device line
#      and the sustained-window wording of issue 19 item 18;
#   2. tools/device_check_ps.sh: `ps` and `check --pid` on a process holding a GPU context (issue 24).
# Wheels for packages the machine lacks may be given in .whl/ (installed to /tmp/site, no network).
# Writes bench.json, bench.txt and ps.txt under $OUT (or ./device-out).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 2
OUT=${OUT:-$ROOT/device-out}
mkdir -p "$OUT"
PYTHON=${PYTHON:-python3}
if ls .whl/*.whl >/dev/null 2>&1; then
    "$PYTHON" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 2
    export PYTHONPATH=/tmp/site
fi
export PYTHONPATH="$ROOT${PYTHONPATH:+:$PYTHONPATH}"
nvidia-smi -L 2>/dev/null | head -2
"$PYTHON" -m rocm_doctor --version || exit 2
echo "== bench (human)"
timeout 240 "$PYTHON" -m rocm_doctor bench --python "$(command -v "$PYTHON")" 2>&1 | tee "$OUT/bench.txt"; echo "== exit ${PIPESTATUS[0]}"
echo "== bench --json"
timeout 240 "$PYTHON" -m rocm_doctor bench --python "$(command -v "$PYTHON")" --json > "$OUT/bench.json"; echo "== exit $?"
"$PYTHON" - "$OUT/bench.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print("info:", d.get("info"))
for name, t in d["tests"].items():
    print(name, t["status"], {k: v for k, v in t.get("metrics", {}).items() if "tflops" in k or "gbps" in k or "window" in k or "seconds" in k})
PY
echo "== ps and check --pid"
PYTHON="$PYTHON" timeout 200 bash tools/device_check_ps.sh 2>&1 | tee "$OUT/ps.txt"
