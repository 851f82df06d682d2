"""How reading a pasted report (``check --from``) grows with the size and shape of the text.

Generates reports of several shapes, from 1 KB to the 20 MiB paste cap, reads each
with :func:`rocm_doctor.ingest.ingest_text` in a fresh child process (so one size's
memory does not hide the next one's), and prints per shape the seconds, the
throughput (MB/s), the peak resident memory and the growth exponent: the slope of
log(time) against log(size) over the sizes of at least 1 MiB (smaller ones are
dominated by start-up costs). Targets (issue 10, item 9): exponent <= 1.1 and
throughput >= 5 MB/s for every shape. Exit code 1 when a target is missed.

    python benchmarks/ingest_scaling.py                  # every shape, 1 KB .. 20 MiB
    python benchmarks/ingest_scaling.py --shapes log --max-mib 4

Shapes:
  log       a training log: progress lines, warnings, one traceback per ~2,000 lines
  shell     a fenced shell transcript: prompts, commands, ``OS:`` / ``ROCm:`` lines, outputs
  devices   rocminfo agents followed by many ``lspci`` lines
  env       many environment lines: ``export``, ``$env:``, ``ENV``, ``env`` output
  mixed     collect_env, pip list, prose with GPU names, code spans and URLs, repeated
  newlines  nothing but newlines (the degenerate case of the byte cap)
  prose     sentences that never repeat
  longline  one line that never ends
  hexrun    one line of a-f without a digit (the number blanking was quadratic on it: issue 20)
  hexlines  lines of hashes and addresses: long hex runs, some with digits
  blanks    one line of spaces and tabs (the field reader was cubic on it)
  alternate two character classes alternating on one line ("a1a1...", "a a ...", "x-x-...")
  fieldrun  a field label followed by a long run of blanks and hex ("GPU:      ...")
  maprun    one line of ollama's ``env=map[`` opening again and again, never closed (0.06 MB/s before the map
            reader stopped at the next ``env=``)
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import textwrap
from typing import Callable, Dict, List, Tuple

KIB = 1024
MIB = 1024 * KIB
SIZES = [1 * KIB, 16 * KIB, 256 * KIB, 1 * MIB, 4 * MIB, 8 * MIB, 20 * MIB - 64 * KIB]
TARGET_EXPONENT = 1.1
TARGET_MB_PER_S = 5.0


def _log(i: int) -> str:
    if i % 2000 == 1999:
        return (
            "Traceback (most recent call last):\n"
            '  File "/home/user/train.py", line 42, in <module>\n'
            "    loss.backward()\n"
            "RuntimeError: HIP error: invalid device function\n"
        )
    if i % 97 == 0:
        return f"[W{i % 7}] UserWarning: TypedStorage is deprecated (step {i})\n"
    return f"epoch 3 step {i:7d} | loss {1.0 / (i + 1):.6f} | lr 3.0e-04 | {i % 977} samples/s | gpu mem 12.3 GiB\n"


def _shell(i: int) -> str:
    if i % 400 == 0:
        return "```\n" if i % 800 == 0 else "```\n\n"
    kind = i % 9
    if kind == 0:
        return f"user@host:~/proj$ python run.py --step {i}\n"
    if kind == 1:
        return "OS: Ubuntu 22.04.4 LTS\n"
    if kind == 2:
        return "ROCm: 6.2.0\n"
    if kind == 3:
        return f"$ ls /opt/rocm-6.2.0/lib | head -{i % 50}\n"
    return f"output line {i} of the command with some words in it\n"


def _devices(i: int) -> str:
    if i < 400:
        block = i // 40
        return [
            "*******\n",
            f"Agent {block + 1}\n",
            "*******\n",
            f"  Name:                    gfx110{block % 3}\n",
            "  Marketing Name:          AMD Radeon RX 7900 XTX\n",
            "  Vendor Name:             AMD\n",
            "  Device Type:             GPU\n",
        ][i % 7] if i % 40 < 7 else "  Feature:                 KERNEL_DISPATCH\n"
    return f"{(i // 8) % 256:02x}:00.{i % 8} VGA compatible controller: Advanced Micro Devices, Inc. [AMD/ATI] Navi 31 [Radeon RX 7900 XT/7900 XTX] (rev c8)\n"


def _env(i: int) -> str:
    forms = [
        "export HSA_OVERRIDE_GFX_VERSION=10.3.0\n",
        '$env:HIP_VISIBLE_DEVICES="0"\n',
        "ENV PYTORCH_HIP_ALLOC_CONF=expandable_segments:True\n",
        f"SOME_VAR_{i}=value{i}\n",
        "set HSA_ENABLE_SDMA=0\n",
        f"HOME=/home/user{i}\n",
    ]
    return forms[i % len(forms)]


_MIXED_PARTS = [
    textwrap.dedent(
        """\
        PyTorch version: 2.5.1+rocm6.2
        Is debug build: False
        CUDA used to build PyTorch: N/A
        ROCM used to build PyTorch: 6.2.41133-dd7f95766
        OS: Ubuntu 22.04.4 LTS (x86_64)
        Python platform: Linux-6.8.0-45-generic-x86_64-with-glibc2.35
        GPU models and configuration: AMD Radeon RX 7900 XTX (gfx1100)
        [pip3] torch==2.5.1+rocm6.2
        """
    ),
    "I have an RX 6700 XT and a Ryzen 7 7800X3D; `pip install torch --index-url https://download.pytorch.org/whl/rocm6.2` worked.\n",
    "Package    Version\n---------- -------\ntorch      2.5.1+rocm6.2\nnumpy      1.26.4\n",
    "See https://github.com/ROCm/ROCm/issues/1234 and /opt/rocm-6.2.0/lib/libamdhip64.so for details.\n",
]


def _mixed(i: int) -> str:
    return _MIXED_PARTS[i % len(_MIXED_PARTS)]


def _newlines(i: int) -> str:
    return "\n"


_WORDS = (
    "the a GPU ROCm torch kernel driver install error works fails after update with my card on Ubuntu "
    "when I run training model memory HIP version python pip wheel index container image docker issue "
    "segfault hang slow fast batch layer tensor device visible override export path library loaded"
).split()


def _prose(i: int) -> str:
    """Sentences that never repeat (a pseudo-random walk over words and numbers), with a keyword now and then."""
    words = []
    state = i * 2654435761 % 4294967296
    for _ in range(14):
        state = (state * 1103515245 + 12345) % 2147483648
        words.append(_WORDS[state % len(_WORDS)] if state % 7 else str(state % 100000))
    return " ".join(words) + ".\n"


def _longline(i: int) -> str:
    """One line that never ends: assignments, as a broken script might print them."""
    return f"export A_{i % 50}={i} "


def _hexrun(i: int) -> str:
    return "abcdef"[i % 6] * 64


def _hexlines(i: int) -> str:
    digest = "".join("0123456789abcdef"[(i * 7 + k * 13) % 16] for k in range(64))
    return f"sha256:{digest} 0x{digest[:16].upper()} {'deadbeef' * 8}\n"


def _blanks(i: int) -> str:
    return " \t  " * 16


def _alternate(i: int) -> str:
    return ("a1", "a ", "x-", "1.", "a=")[(i // 4096) % 5] * 32


def _fieldrun(i: int) -> str:
    return ("GPU:" if i % 4096 == 0 else "") + ("   " if i % 2 else "fa11") * 16


def _maprun(i: int) -> str:
    return "env=map[" * 8


SHAPES: Dict[str, Callable[[int], str]] = {
    "log": _log,
    "shell": _shell,
    "devices": _devices,
    "env": _env,
    "mixed": _mixed,
    "newlines": _newlines,
    "prose": _prose,
    "longline": _longline,
    "hexrun": _hexrun,
    "hexlines": _hexlines,
    "blanks": _blanks,
    "alternate": _alternate,
    "fieldrun": _fieldrun,
    "maprun": _maprun,
}


def generate(shape: str, size: int) -> str:
    """A report of ``shape`` of about ``size`` bytes (never more)."""
    make = SHAPES[shape]
    parts: List[str] = []
    total = 0
    i = 0
    while True:
        piece = make(i)
        if total + len(piece) > size:
            break
        parts.append(piece)
        total += len(piece)
        i += 1
    return "".join(parts)


_CHILD = """
import json, resource, sys, time
sys.setrecursionlimit(10000)
from benchmarks.ingest_scaling import generate
from rocm_doctor.ingest import ingest_text
shape, size = sys.argv[1], int(sys.argv[2])
text = generate(shape, size)
start = time.perf_counter()
result = ingest_text(text)
seconds = time.perf_counter() - start
peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"bytes": len(text.encode()), "seconds": seconds, "peak_mib": peak_kib / 1024, "pieces": len(result.pieces)}))
"""


def measure(shape: str, size: int, timeout: float) -> Dict[str, float]:
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, shape, str(size)], capture_output=True, text=True, timeout=timeout
    )
    if proc.returncode != 0:
        raise RuntimeError(f"{shape} {size}: exit {proc.returncode}: {proc.stderr[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def exponent(points: List[Tuple[float, float]]) -> float:
    """Least-squares slope of log(seconds) against log(bytes)."""
    xs = [math.log(b) for b, _ in points]
    ys = [math.log(max(s, 1e-6)) for _, s in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    num = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    den = sum((x - mx) ** 2 for x in xs)
    return num / den if den else float("nan")


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shapes", default=",".join(SHAPES), help="comma-separated shapes")
    parser.add_argument("--max-mib", type=float, default=20, help="largest size in MiB (at most 20)")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per measurement")
    args = parser.parse_args(argv)
    sizes = [s for s in SIZES if s <= args.max_mib * MIB]
    failed = False
    print(f"{'shape':<9} {'size':>10} {'seconds':>8} {'MB/s':>7} {'peak MiB':>9}")
    summary = []
    for shape in args.shapes.split(","):
        points = []
        for size in sizes:
            row = measure(shape, size, args.timeout)
            rate = row["bytes"] / 1e6 / max(row["seconds"], 1e-9)
            print(f"{shape:<9} {row['bytes']:>10} {row['seconds']:>8.3f} {rate:>7.1f} {row['peak_mib']:>9.0f}")
            if row["bytes"] >= MIB:
                points.append((row["bytes"], row["seconds"]))
        slope = exponent(points) if len(points) >= 2 else float("nan")
        big = points[-1] if points else None
        rate = big[0] / 1e6 / big[1] if big else float("nan")
        ok = (math.isnan(slope) or slope <= TARGET_EXPONENT) and (math.isnan(rate) or rate >= TARGET_MB_PER_S)
        failed |= not ok
        summary.append((shape, slope, rate, ok))
    print()
    print(f"{'shape':<9} {'exponent':>8} {'MB/s at largest':>16}  target (exp <= {TARGET_EXPONENT}, >= {TARGET_MB_PER_S} MB/s)")
    for shape, slope, rate, ok in summary:
        print(f"{shape:<9} {slope:>8.2f} {rate:>16.1f}  {'met' if ok else 'MISSED'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
