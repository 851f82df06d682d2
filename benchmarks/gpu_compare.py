"""Check rocm-doctor's benchmark figures against an independent measurement, on the same device, in one run.

1. Times ``run_bench(level="quick")`` and checks its GPU-time budget (< 10 s after import and init).
2. Runs the ``standard`` level.
3. Measures the same quantities independently in the target interpreter: the GEMMs with
   ``torch.utils.benchmark.Timer.blocked_autorange`` (same N and dtype as the doctor's run),
   the copies with a plain ``copy_`` loop between ``synchronize()`` calls (same sizes).
4. Prints both figures and their ratio; the target is agreement within 10%.
5. Writes ``benchmarks/results/<device>-<date>.json``.

Exit code 0 when every figure agrees within 10% and the quick level met its budget, else 1.

    python benchmarks/gpu_compare.py --python /path/to/venv/bin/python            # GPU (CUDA or ROCm)
    python benchmarks/gpu_compare.py --python /tmp/torchvenv/bin/python --device cpu

The independent half runs as ``python gpu_compare.py --independent-child`` in the target
interpreter and imports only torch, so the doctor's process never imports torch.
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import subprocess
import sys
import time
from pathlib import Path

AGREEMENT = 0.10
QUICK_BUDGET_S = 10.0
MiB = 1 << 20
GiB = 1 << 30
RESULTS = Path(__file__).resolve().parent / "results"


def independent(device: str, gemm_n: dict, copy_bytes: int, d2d_bytes: int) -> dict:
    """Figures measured without any rocm-doctor code (runs in the target interpreter)."""
    import torch
    import torch.utils.benchmark as benchmark

    torch.backends.cuda.matmul.allow_tf32 = False
    gpu = device != "cpu"

    def sync() -> None:
        if gpu:
            torch.cuda.synchronize()

    out: dict = {}
    dtypes = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}
    for label, n in gemm_n.items():
        a = torch.randn(n, n, device=device, dtype=dtypes[label])
        b = torch.randn(n, n, device=device, dtype=dtypes[label])
        timer = benchmark.Timer(stmt="a @ b", globals={"a": a, "b": b})
        seconds = timer.blocked_autorange(min_run_time=1.0).median
        out[f"gemm.{label}_tflops"] = 2.0 * n**3 / seconds / 1e12

    def copy_rate(dst, src, counted: int, reps: int = 20) -> float:
        for _ in range(3):
            dst.copy_(src, non_blocking=True)
        sync()
        begin = time.perf_counter()
        for _ in range(reps):
            dst.copy_(src, non_blocking=True)
        sync()
        return counted * reps / (time.perf_counter() - begin) / 1e9

    if gpu:
        host = torch.empty(copy_bytes, dtype=torch.uint8).pin_memory()
        dev = torch.empty(copy_bytes, dtype=torch.uint8, device=device)
        out["bandwidth.h2d_pinned_gbs"] = copy_rate(dev, host, copy_bytes)
        out["bandwidth.d2h_pinned_gbs"] = copy_rate(host, dev, copy_bytes)
    src = torch.randn(d2d_bytes // 4, device=device)
    dst = torch.empty_like(src)
    out["bandwidth.d2d_gbs"] = copy_rate(dst, src, 2 * d2d_bytes)
    return out


def _child_main(argv: list) -> int:
    spec = json.loads(argv[0])
    sys.stdout.write(json.dumps(independent(**spec)) + "\n")
    return 0


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower() or "device"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--python", default=sys.executable, help="target interpreter with torch")
    parser.add_argument("--device", default="cuda", choices=("cuda", "cpu"))
    parser.add_argument("--level", default="standard", choices=("standard", "extended"))
    args = parser.parse_args()

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from rocm_doctor.bench import run_bench
    from rocm_doctor.bench.results import flat_results, run_dict

    started = time.monotonic()
    quick = run_bench(args.python, "quick", args.device, None)
    quick_wall = time.monotonic() - started
    init = quick.tests.get("init")
    setup = sum(init.metrics.get(k, 0.0) for k in ("import_torch_seconds", "device_init_seconds")) if init else 0.0
    quick_gpu = quick_wall - setup
    print(f"quick level: {quick_wall:.1f} s wall, {quick_gpu:.1f} s after import and init "
          f"(budget {QUICK_BUDGET_S:g} s): {'ok' if quick_gpu < QUICK_BUDGET_S else 'OVER BUDGET'}")

    run = run_bench(args.python, args.level, args.device, None)
    flat = flat_results(run)
    for name, test in run.tests.items():
        print(f"  {name:18} {test.status:8} {test.reason or ''}")
    gpu = run.device != "cpu"
    gemm_n = {d: flat[f"gemm.{d}_n"] for d in ("fp32", "fp16", "bf16") if f"gemm.{d}_n" in flat}
    spec = {
        "device": run.device,
        "gemm_n": gemm_n,
        "copy_bytes": 256 * MiB,
        "d2d_bytes": GiB if gpu else 256 * MiB,  # the worker caps the CPU device at 256 MiB
    }
    child = subprocess.run(
        [args.python, str(Path(__file__).resolve()), "--independent-child", json.dumps(spec)],
        capture_output=True, text=True, timeout=900,
    )
    if child.returncode != 0:
        print(child.stderr[-3000:], file=sys.stderr)
        return 1
    reference = json.loads(child.stdout.strip().splitlines()[-1])

    rows, agree = [], True
    print(f"\n{'figure':32} {'rocm-doctor':>12} {'independent':>12} {'ratio':>7}")
    for key, value in reference.items():
        mine = flat.get(key)
        ratio = mine / value if mine is not None and value else None
        ok = ratio is not None and abs(ratio - 1) <= AGREEMENT
        agree &= ok
        rows.append({"figure": key, "doctor": mine, "independent": value, "ratio": ratio, "within_10pct": ok})
        shown = f"{mine:12.3f}" if mine is not None else f"{'missing':>12}"
        print(f"{key:32} {shown} {value:12.3f} {ratio if ratio is not None else float('nan'):7.3f} {'ok' if ok else 'DISAGREE'}")
    name = run.info.get("name") or run.device
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"{_slug(str(name))}-{datetime.date.today().isoformat()}.json"
    document = {
        "device": name,
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "agreement_target": AGREEMENT,
        "quick": {"wall_seconds": quick_wall, "after_init_seconds": quick_gpu, "budget_seconds": QUICK_BUDGET_S},
        "comparison": rows,
        "run": run_dict(run),
    }
    path.write_text(json.dumps(document, indent=2, default=str) + "\n", encoding="utf-8")
    print(f"\nwrote {path}")
    within_budget = quick_gpu < QUICK_BUDGET_S
    print(f"agreement within {AGREEMENT:.0%}: {'yes' if agree else 'NO'}; quick budget: {'met' if within_budget else 'MISSED'}")
    return 0 if agree and within_budget else 1


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--independent-child":
        sys.exit(_child_main(sys.argv[2:]))
    sys.exit(main())
