#!/usr/bin/env bash
# Device check for `rocm-doctor ps` and `check --pid` (issue 24), for a machine with a GPU and
# torch installed (CUDA or ROCm). Run from the repository root; it takes under two minutes:
#
#   bash tools/device_check_ps.sh            # PYTHON=/path/to/python to choose the interpreter
#
# 1. installs this checkout with `pip install .` (offline: --no-build-isolation; when that is not
#    possible it runs the checkout in place with PYTHONPATH and says so);
# 2. starts a Python process that allocates a tensor on the GPU and waits;
# 3. prints `rocm-doctor ps --json` and `rocm-doctor check --pid <that pid> --json`;
# 4. stops the process by its pid and waits for it.
set -u
PYTHON=${PYTHON:-python3}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 2

if timeout 60 "$PYTHON" -m pip install -q --no-build-isolation . >/tmp/device_check_ps.pip.log 2>&1; then
    DOCTOR=("$PYTHON" -m rocm_doctor)
    echo "== installed with pip install . ($("$PYTHON" -m rocm_doctor --version))"
else
    export PYTHONPATH="$ROOT${PYTHONPATH:+:$PYTHONPATH}"
    DOCTOR=("$PYTHON" -m rocm_doctor)
    echo "== pip install . failed (see /tmp/device_check_ps.pip.log); running the checkout in place"
    tail -3 /tmp/device_check_ps.pip.log
fi

# The GPU process: allocates 256 MiB on device 0, prints its pid, waits for stdin to close.
coproc GPU { exec "$PYTHON" -c '
import os, sys, torch
x = torch.ones(64, 1024, 1024, device="cuda")
torch.cuda.synchronize()
print(os.getpid(), torch.__version__, torch.version.hip or torch.version.cuda, torch.cuda.get_device_name(0), flush=True)
sys.stdin.read()
'; }
CHILD=$GPU_PID
if ! read -r -t 90 -u "${GPU[0]}" PID VERSION RUNTIME NAME; then
    echo "== the GPU process did not start within 90 s"
    kill "$CHILD" 2>/dev/null; wait "$CHILD" 2>/dev/null
    exit 1
fi
echo "== GPU process $PID: torch $VERSION ($RUNTIME) on $NAME"

echo "== rocm-doctor ps --json"
timeout 30 "${DOCTOR[@]}" ps --json; echo "== exit $?"
echo "== rocm-doctor ps"
timeout 30 "${DOCTOR[@]}" ps; echo "== exit $?"
echo "== rocm-doctor check --pid $PID --json --timeout 45"
timeout 60 "${DOCTOR[@]}" check --pid "$PID" --json --timeout 45; echo "== exit $?"

eval "exec ${GPU[1]}>&-"   # close its stdin: it exits
wait "$CHILD"
echo "== GPU process exited ($?)"
