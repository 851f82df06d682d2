"""The benchmark worker: runs inside the TARGET interpreter, imports only the standard library and torch.

It is started by :mod:`rocm_doctor.bench.runner` as a file path
(``python -I worker.py --device cuda --level quick --tests init,gemm``), in its own
process group, so it must not import ``rocm_doctor``.

Protocol: one JSON object per line on the protocol stream (the original stdout),
flushed after each line::

    {"test": "gemm", "step": "bf16", "status": "start", "t": 1.52}
    {"test": "gemm", "step": "bf16", "status": "ok", "t": 2.31, "tflops": 88.1, ...}
    {"test": "gemm", "step": "done", "status": "ok", "t": 2.31, "metrics": {...}}

Step statuses: ``start``, ``ok``, ``mismatch`` (an integrity check failed; ``detail``
says how), ``error`` (a Python exception; ``error`` holds the message), ``skipped``
(``reason``). The last line of each test has step ``done`` and the test's verdict
(``ok``, ``wrong``, ``error`` or ``skipped``) plus its ``metrics``. A test whose ``done``
line never comes hung or crashed in the step that started last; the runner decides.
File descriptor 1 is redirected to stderr once the protocol stream is set up, so
libraries that print to stdout cannot break the protocol.

Test-only hook (never set it outside the test-suite): the environment variable
``ROCM_DOCTOR_BENCH_TEST_HOOK`` holds comma-separated ``action:test/step`` entries
(``step`` may be an fnmatch pattern). When the named step starts, the action runs:

* ``sleep``    -- start a sleeping grandchild in the same process group, then sleep (a hang);
* ``fork``     -- fork a sleeping child that keeps the protocol pipe open, then go on (POSIX);
* ``abort``    -- ``os.abort()`` (SIGABRT);
* ``segv``     -- send SIGSEGV to itself;
* ``exit``     -- ``os._exit(0)`` without reporting;
* ``garbage``  -- write non-protocol bytes (junk, truncated JSON, a JSON list) to the stream, then go on;
* ``oom``      -- allocate until the allocator fails (host memory capped with RLIMIT_AS on the CPU device);
* ``raise``    -- raise RuntimeError;
* ``corrupt``  -- flip bytes in the step's result before it is checked;
* ``zero``     -- zero the step's result before it is checked.
"""

from __future__ import annotations

import fnmatch
import json
import math
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time

HOOK_ENV = "ROCM_DOCTOR_BENCH_TEST_HOOK"
LEVELS = ("quick", "standard", "extended")
ALL_TESTS = (
    "init",
    "copy_integrity",
    "compute_integrity",
    "bandwidth",
    "gemm",
    "attention",
    "compile",
    "allocator",
    "multi_gpu",
)
MiB = 1 << 20
GiB = 1 << 30

# Per-level parameters (time budgets per level).
PLAN = {
    "quick": {
        "copy_sizes": [4 << 10, 64 * MiB],
        "bw_sizes": [64 * MiB],
        "bw_pageable": False,
        "d2d_bytes": 256 * MiB,
        "triad": False,
        "gemm_dtypes": ["bf16"],
        "gemm_seconds": 0.5,
        "gemm_warmup": 0.3,
        "attn_steps": 1,
        "alloc_fraction": None,
        "compile": False,
        "allreduce_sizes": [],
    },
    "standard": {
        "copy_sizes": [4 << 10, MiB, 64 * MiB],
        "bw_sizes": [MiB, 16 * MiB, 256 * MiB],
        "bw_pageable": True,
        "d2d_bytes": GiB,
        "triad": True,
        "gemm_dtypes": ["fp32", "fp16", "bf16"],
        "gemm_seconds": 1.5,
        "gemm_warmup": 0.3,
        "attn_steps": 20,
        "alloc_fraction": 0.5,
        "compile": True,
        "allreduce_sizes": [64 * MiB, 256 * MiB],
    },
    "extended": {
        "copy_sizes": [4 << 10, MiB, 64 * MiB, GiB],
        "bw_sizes": [1 << 10, 8 << 10, 64 << 10, 512 << 10, 4 * MiB, 32 * MiB, 256 * MiB, 512 * MiB],
        "bw_pageable": True,
        "d2d_bytes": GiB,
        "triad": True,
        "gemm_dtypes": ["fp32", "fp16", "bf16"],
        "gemm_seconds": 30.0,
        "gemm_warmup": 1.0,
        "attn_steps": 20,
        "alloc_fraction": 0.85,
        "compile": True,
        "allreduce_sizes": [8, 64 << 10, 64 * MiB, 256 * MiB, GiB],
    },
}
LEVEL_TESTS = {
    "quick": ("init", "copy_integrity", "compute_integrity", "bandwidth", "gemm", "attention"),
    "standard": ALL_TESTS,
    "extended": ALL_TESTS,
}
CPU_CAPS = {"d2d_bytes": 64 * MiB, "alloc_bytes": GiB, "copy_bytes": 16 * MiB, "gemm_n": 256}
"""The CPU device shares the host's memory: keep its buffers small so a run never pushes the host into swap. Its
figures have no spec peak to be held against (they show that each path runs), so its sizes are the smallest that
still time well: a 1024-square bf16 GEMM took 3 s on a CPU without bf16 units, and the size search paid for it twice."""


class Skip(Exception):
    """A step or test that cannot run here, with the reason."""


class Mismatch(Exception):
    """An integrity check failed; ``detail`` says how."""

    def __init__(self, detail: str, **fields: object) -> None:
        super().__init__(detail)
        self.fields = fields


class Protocol:
    """Writes the JSON lines; owns the original stdout."""

    def __init__(self) -> None:
        sys.stdout.flush()
        self.stream = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
        os.dup2(2, 1)
        self.t0 = time.monotonic()

    def emit(self, test: str, step: str, status: str, **fields: object) -> None:
        record = {"test": test, "step": step, "status": status, "t": round(time.monotonic() - self.t0, 4)}
        record.update(fields)
        self.stream.write(json.dumps(record, default=str) + "\n")
        self.stream.flush()


class Hook:
    """The test-only fault injector (see the module docstring)."""

    def __init__(self, spec: str, proto: Protocol, device: str) -> None:
        self.entries = []
        for item in filter(None, (p.strip() for p in spec.split(","))):
            action, _, where = item.partition(":")
            test, _, step = where.partition("/")
            self.entries.append((action, test, step or "*"))
        self.proto = proto
        self.device = device

    def _actions(self, test: str, step: str) -> list:
        return [a for a, t, s in self.entries if t == test and fnmatch.fnmatchcase(step, s)]

    def at_start(self, test: str, step: str) -> None:
        for action in self._actions(test, step):
            if action == "sleep":
                subprocess.Popen(
                    [sys.executable, "-c", "import time; time.sleep(3600)", os.path.abspath(__file__)],
                    stdin=subprocess.DEVNULL,
                )
                time.sleep(3600)
            elif action == "fork":
                if os.fork() == 0:  # a forked helper (like a DataLoader worker) holding the protocol pipe
                    time.sleep(3600)
                    os._exit(0)
            elif action == "abort":
                os.abort()
            elif action == "segv":
                os.kill(os.getpid(), signal.SIGSEGV)
                time.sleep(5)
            elif action == "exit":
                os._exit(0)
            elif action == "garbage":
                stream = self.proto.stream
                stream.write("\x00\x07 not json \ufffd\n")
                stream.write('{"test": "' + test + '", "step": \n')
                stream.write("[1, 2, 3]\n")
                stream.flush()
            elif action == "oom":
                _exhaust_memory(self.device)
            elif action == "raise":
                raise RuntimeError(f"test hook raised in {test}/{step}")

    def mutate(self, test: str, step: str, tensor: "object") -> None:
        """Corrupt or zero a step's result tensor in place (test-only)."""
        actions = self._actions(test, step)
        if "zero" in actions:
            tensor.zero_()
        if "corrupt" in actions:
            flat = tensor.view(-1)
            count = min(7, flat.numel())
            if flat.dtype.is_floating_point:
                flat[:count] += 1000.0
            else:
                flat[:count] = flat[:count] ^ 0x5A


def _exhaust_memory(device: str) -> None:
    """Allocate and touch 64 MiB chunks until the allocator fails, then re-raise its error."""
    import torch

    limit = None
    if device == "cpu":
        import resource

        limit = resource.getrlimit(resource.RLIMIT_AS)
        with open("/proc/self/statm", encoding="ascii") as handle:
            pages = int(handle.read().split()[0])
        cap = pages * os.sysconf("SC_PAGE_SIZE") + 512 * MiB
        resource.setrlimit(resource.RLIMIT_AS, (cap, limit[1]))
    chunks = []
    try:
        while True:
            chunks.append(torch.ones(16 * MiB, dtype=torch.float32, device=device))
    finally:
        chunks.clear()
        if limit is not None:
            import resource

            resource.setrlimit(resource.RLIMIT_AS, limit)


class Worker:
    """Runs the requested tests in order, reporting each step."""

    def __init__(self, device: str, level: str, seed: int) -> None:
        self.proto = Protocol()
        self.device = device
        self.level = level
        self.plan = dict(PLAN[level])
        self.seed = seed
        self.hook = Hook(os.environ.get(HOOK_ENV, ""), self.proto, device)
        self.torch = None
        self.info: dict = {}
        self.setup_seconds: dict = {}

    # -- step machinery -------------------------------------------------
    def step(self, test: str, step: str, fn, *args, **kwargs) -> dict:
        """Run one step: emit start, run, emit the outcome; returns its metrics (raises Mismatch/Skip on)."""
        self.proto.emit(test, step, "start")
        started = time.perf_counter()
        try:
            self.hook.at_start(test, step)
            metrics = fn(*args, **kwargs) or {}
        except Skip as exc:
            self.proto.emit(test, step, "skipped", reason=str(exc))
            return {"_skipped": str(exc)}
        except Mismatch as exc:
            self.proto.emit(test, step, "mismatch", detail=str(exc), **exc.fields)
            raise
        except Exception as exc:  # noqa: BLE001 - reported as the step's error
            self.proto.emit(test, step, "error", error=f"{type(exc).__name__}: {exc}")
            raise
        metrics.setdefault("seconds", round(time.perf_counter() - started, 6))
        self.proto.emit(test, step, "ok", **metrics)
        return metrics

    def sync(self) -> None:
        if self.device != "cpu":
            self.torch.cuda.synchronize()

    def timer(self):
        """A (start, stop->seconds) pair: CUDA/HIP events on a GPU, perf_counter on the CPU."""
        torch = self.torch
        if self.device == "cpu":
            begin = time.perf_counter()
            return lambda: time.perf_counter() - begin
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()

        def stop() -> float:
            end.record()
            end.synchronize()
            return start.elapsed_time(end) / 1000.0

        return stop

    # -- setup ----------------------------------------------------------
    def setup(self, test: str) -> None:
        """Import torch and initialise the device; reported under ``init`` when it is requested."""
        self.setup_seconds = {
            "import_torch_seconds": self.step(test, "import_torch", self._import_torch)["seconds"],
            "device_init_seconds": self.step(test, "device_init", self._device_init)["seconds"],
        }
        self.proto.emit("_worker", "hello", "ok", **self.info)

    def _import_torch(self) -> dict:
        started = time.perf_counter()
        import torch

        self.torch = torch
        seconds = time.perf_counter() - started
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
        return {"seconds": round(seconds, 6), "torch": torch.__version__}

    def _device_init(self) -> dict:
        torch = self.torch
        if self.device == "auto":
            self.device = self.hook.device = "cuda" if torch.cuda.is_available() else "cpu"
        alloc_conf = os.environ.get("PYTORCH_HIP_ALLOC_CONF") or os.environ.get("PYTORCH_CUDA_ALLOC_CONF") or ""
        self.info = {
            "device": self.device,
            "torch": torch.__version__,
            "hip": getattr(torch.version, "hip", None),
            "cuda": getattr(torch.version, "cuda", None),
            "alloc_conf": alloc_conf,
            "expandable_segments": "expandable_segments:true" in alloc_conf.replace(" ", "").lower(),
        }
        if self.device == "cpu":
            self.info.update(name="cpu", device_count=0, threads=torch.get_num_threads())
            return {"seconds": 0.0, "name": "cpu"}
        if not torch.cuda.is_available():
            raise RuntimeError("torch.cuda.is_available() is False: no GPU visible to this torch build")
        started = time.perf_counter()
        torch.cuda.init()
        seconds = time.perf_counter() - started
        props = torch.cuda.get_device_properties(0)
        self.info.update(
            name=props.name,
            **device_arch(torch, props),
            compute_units=props.multi_processor_count,
            total_memory=props.total_memory,
            device_count=torch.cuda.device_count(),
            link=_pcie_link(props),
        )
        return {"seconds": round(seconds, 6), "name": props.name}

    # -- tests -----------------------------------------------------------
    def run(self, tests: list) -> None:
        self.setup("init" if "init" in tests else "setup")
        for name in tests:
            method = getattr(self, "test_" + name)
            try:
                result = method(name)
            except Skip as exc:
                self.proto.emit(name, "done", "skipped", reason=str(exc), metrics={})
            except Mismatch as exc:
                self.proto.emit(name, "done", "wrong", detail=str(exc), metrics=exc.fields)
            except Exception as exc:  # noqa: BLE001 - a Python exception is the test's error
                self.proto.emit(name, "done", "error", error=f"{type(exc).__name__}: {exc}", metrics={})
            else:
                self.proto.emit(name, "done", "ok", metrics=result or {})

    def test_init(self, name: str) -> dict:
        torch, dev = self.torch, self.device
        metrics = dict(self.setup_seconds)

        def first_gemm() -> dict:
            a = torch.randn(64, 64, device=dev)
            started = time.perf_counter()
            c = a @ a
            self.sync()
            seconds = time.perf_counter() - started
            if not bool(torch.isfinite(c).all()):
                raise Mismatch("the first GEMM returned NaN or Inf")
            return {"seconds": round(seconds, 6)}

        def first_sdpa() -> dict:
            q = torch.randn(1, 2, 16, 32, device=dev)
            started = time.perf_counter()
            out = torch.nn.functional.scaled_dot_product_attention(q, q, q)
            self.sync()
            seconds = time.perf_counter() - started
            if not bool(torch.isfinite(out).all()):
                raise Mismatch("the first SDPA call returned NaN or Inf")
            return {"seconds": round(seconds, 6)}

        metrics["first_gemm_seconds"] = self.step(name, "first_gemm", first_gemm)["seconds"]
        metrics["first_sdpa_seconds"] = self.step(name, "first_sdpa", first_sdpa)["seconds"]
        return metrics

    def _pattern(self, nbytes: int, case: int):
        """Seeded non-constant bytes: ``arange % 251`` for case 0, random bytes otherwise."""
        torch = self.torch
        if case == 0:
            period = torch.arange(251, dtype=torch.uint8)
            return period.repeat(nbytes // 251 + 1)[:nbytes].clone()
        gen = torch.Generator().manual_seed(self.seed + case)
        return torch.randint(0, 256, (nbytes,), dtype=torch.uint8, generator=gen)

    def _host(self, src, pinned: bool):
        if pinned:
            return src.pin_memory()
        return src.clone()

    def _compare(self, name: str, step: str, src, back, device_sum=None, expected_sum=None) -> dict:
        """Bytewise compare with an explicit all-zeros verdict; raises Mismatch."""
        torch = self.torch
        self.hook.mutate(name, step, back)
        if torch.equal(src, back):
            return {"bytes": src.numel() * src.element_size()}
        diff = (src != back).view(-1)
        bad = int(diff.sum())
        first = int(diff.nonzero()[0])
        zeros = int(back.count_nonzero()) == 0
        where = None
        if device_sum is not None:
            where = "host-to-device" if device_sum != expected_sum else "device-to-host"
        detail = "all bytes came back as zeros" if zeros else f"{bad} of {src.numel()} elements differ (first at {first})"
        raise Mismatch(detail, all_zeros=zeros, mismatched=bad, first_offset=first, corrupted_leg=where, case=step)

    def test_copy_integrity(self, name: str) -> dict:
        torch, dev = self.torch, self.device
        gpu = dev != "cpu"
        sizes = [min(s, CPU_CAPS["copy_bytes"]) if not gpu else s for s in self.plan["copy_sizes"]]
        cases = 0
        skipped = []
        for index, nbytes in enumerate(sizes):
            src = self._pattern(nbytes, index)
            expected_sum = int(src.sum(dtype=torch.int64))
            for pinned in (False, True):
                for nb in (False, True):
                    label = f"{_size(nbytes)}_{'pinned' if pinned else 'pageable'}_{'async' if nb else 'sync'}"
                    if pinned and not gpu:
                        skipped.append(label)
                        continue
                    host = self._host(src, pinned)
                    dbuf = torch.empty(nbytes, dtype=torch.uint8, device=dev)
                    back = torch.empty(nbytes, dtype=torch.uint8, pin_memory=pinned)

                    def h2d() -> dict:
                        dbuf.copy_(host, non_blocking=nb)
                        self.sync()
                        return {"bytes": nbytes}

                    def d2h() -> dict:
                        back.copy_(dbuf, non_blocking=nb)
                        self.sync()
                        device_sum = int(dbuf.sum(dtype=torch.int64))
                        return self._compare(name, "d2h_" + label, src, back, device_sum, expected_sum)

                    self.step(name, "h2d_" + label, h2d)
                    self.step(name, "d2h_" + label, d2h)
                    cases += 1
        cases += self._dataloader_case(name)
        cases += self._training_case(name)
        cases += self._fill_case(name)
        metrics = {"cases": cases, "all_zeros": False}
        if skipped:
            metrics["skipped_cases"] = len(skipped)
            metrics["skip_reason"] = "pinned host memory needs a GPU"
        return metrics

    def _roundtrip(self, name: str, step: str, src, non_blocking: bool) -> dict:
        dev_copy = src.to(self.device, non_blocking=non_blocking, copy=True)
        self.sync()
        back = dev_copy.to("cpu", copy=True)
        return self._compare(name, step, src, back)

    def _dataloader_case(self, name: str) -> int:
        torch = self.torch
        pin = self.device != "cpu"

        def run() -> dict:
            gen = torch.Generator().manual_seed(self.seed + 101)
            data = torch.randint(0, 256, (64, 4096), dtype=torch.uint8, generator=gen)
            dataset = torch.utils.data.TensorDataset(data)
            loader = torch.utils.data.DataLoader(dataset, batch_size=16, pin_memory=pin, num_workers=0)
            for i, (batch,) in enumerate(loader):
                on_dev = batch.to(self.device, non_blocking=True, copy=True)
                self.sync()
                self._compare(name, "dataloader", data[i * 16 : (i + 1) * 16], on_dev.to("cpu", copy=True))
            return {"pin_memory": pin, "batches": len(loader)}

        self.step(name, "dataloader", run)
        return 1

    def _training_case(self, name: str) -> int:
        torch = self.torch
        dev = self.device

        def run() -> dict:
            torch.manual_seed(self.seed)
            model = torch.nn.Sequential(torch.nn.Linear(256, 256), torch.nn.ReLU(), torch.nn.Linear(256, 10)).to(dev)
            opt = torch.optim.SGD(model.parameters(), lr=0.01)
            x = torch.randn(32, 256, device=dev)
            loss = model(x).pow(2).mean()
            loss.backward()
            opt.step()
            self.sync()
            if not math.isfinite(float(loss.detach())):
                raise Mismatch("the training step produced a non-finite loss")
            return self._roundtrip(name, "after_training_step", self._pattern(MiB, 7), False)

        self.step(name, "after_training_step", run)
        return 1

    def _fill_case(self, name: str) -> int:
        torch = self.torch

        def run() -> dict:
            t = torch.empty(4 * MiB, dtype=torch.float32, device=self.device)
            t.fill_(3.25)
            back = t.cpu()
            self.hook.mutate(name, "fill_zero_readback", back)
            if not bool((back == 3.25).all()):
                raise Mismatch("fill_(3.25) did not read back as 3.25", all_zeros=int(back.count_nonzero()) == 0)
            t.zero_()
            if int(t.cpu().count_nonzero()) != 0:
                raise Mismatch("zero_() did not read back as zeros")
            return {"elements": t.numel()}

        self.step(name, "fill_zero_readback", run)
        return 1

    def test_compute_integrity(self, name: str) -> dict:
        torch = self.torch
        gen = torch.Generator().manual_seed(self.seed + 5)
        a32 = torch.randn(256, 256, generator=gen)
        b32 = torch.randn(256, 256, generator=gen)
        # Heuristic tolerances, scaled by |A||B| so cancellation cannot fail a correct result.
        tolerances = {"fp32": 1e-4, "fp16": 1e-2, "bf16": 1e-2}
        worst = {}
        for label, tol in tolerances.items():
            dtype = _dtype(torch, label)

            def run() -> dict:
                a, b = a32.to(dtype), b32.to(dtype)
                ref = a.float() @ b.float()
                scale = a.float().abs() @ b.float().abs()
                out = (a.to(self.device) @ b.to(self.device)).float().cpu()
                self.hook.mutate(name, "gemm_" + label, out)
                if not bool(torch.isfinite(out).all()):
                    raise Mismatch(f"{label} GEMM returned NaN or Inf", dtype=label)
                if int(out.count_nonzero()) == 0:
                    raise Mismatch(f"{label} GEMM returned all zeros", dtype=label, all_zeros=True)
                err = float(((out - ref).abs() / (scale + 1e-6)).max())
                if err > tol:
                    raise Mismatch(f"{label} GEMM differs from the CPU fp32 reference (error {err:.2e} > {tol:.0e})", dtype=label)
                return {"max_rel_error": err}

            worst[label + "_max_rel_error"] = self.step(name, "gemm_" + label, run).get("max_rel_error")
        return worst

    def test_bandwidth(self, name: str) -> dict:
        torch, dev = self.torch, self.device
        gpu = dev != "cpu"
        metrics = {}
        reps, trials = 5, 3
        kinds = [("pinned", True)] + ([("pageable", False)] if self.plan["bw_pageable"] else [])
        for direction in ("h2d", "d2h"):
            for kind, pinned in kinds:
                for nbytes in self.plan["bw_sizes"]:
                    step = f"{direction}_{kind}_{_size(nbytes)}"

                    def run() -> dict:
                        if not gpu:
                            raise Skip("the cpu device has no host link to measure")
                        host = torch.empty(nbytes, dtype=torch.uint8, pin_memory=pinned)
                        dbuf = torch.empty(nbytes, dtype=torch.uint8, device=dev)
                        src, dst = (host, dbuf) if direction == "h2d" else (dbuf, host)
                        gbs = self._time_copies(lambda: dst.copy_(src, non_blocking=pinned), nbytes, reps, trials)
                        return {"gbs": gbs, "bytes": nbytes}

                    out = self.step(name, step, run)
                    if "gbs" in out:
                        metrics[f"{direction}_{kind}_gbs"] = out["gbs"]
        d2d = min(self.plan["d2d_bytes"], CPU_CAPS["d2d_bytes"]) if not gpu else self.plan["d2d_bytes"]

        def device_copy() -> dict:
            src = torch.randn(d2d // 4, device=dev)
            dst = torch.empty_like(src)
            gbs = self._time_copies(lambda: dst.copy_(src), 2 * d2d, reps, trials)
            if not torch.equal(src, dst):
                raise Mismatch("device-to-device copy differs from its source")
            return {"gbs": gbs, "bytes": d2d, "bytes_counted": 2 * d2d}

        metrics["d2d_gbs"] = self.step(name, "d2d_" + _size(d2d), device_copy)["gbs"]
        if self.plan["triad"]:

            def triad() -> dict:
                b = torch.randn(d2d // 4, device=dev)
                c = torch.randn(d2d // 4, device=dev)
                a = torch.empty_like(b)
                gbs = self._time_copies(lambda: torch.add(b, c, alpha=0.5, out=a), 3 * d2d, reps, trials)
                return {"gbs": gbs, "bytes_counted": 3 * d2d}

            metrics["triad_gbs"] = self.step(name, "triad_" + _size(d2d), triad)["gbs"]
        return metrics

    def _time_copies(self, op, counted_bytes: int, reps: int, trials: int) -> float:
        """Median GB/s over ``trials`` batches of ``reps`` ops, after two warm-up ops."""
        for _ in range(2):
            op()
        self.sync()
        rates = []
        for _ in range(trials):
            stop = self.timer()
            for _ in range(reps):
                op()
            seconds = stop()
            rates.append(counted_bytes * reps / max(seconds, 1e-9) / 1e9)
        return round(statistics.median(rates), 3)

    def test_gemm(self, name: str) -> dict:
        dev = self.device
        arch = self.info.get("gcn_arch") or ""
        dtypes = list(self.plan["gemm_dtypes"])
        if self.level == "quick" and arch.startswith("gfx103"):
            dtypes = ["fp16"]  # RDNA2 has no bf16 units (rules/data/gpu_peaks.yaml: bf16_tflops null)
        if dev == "cpu":
            n = CPU_CAPS["gemm_n"]
        elif arch.startswith("gfx9") or "Instinct" in str(self.info.get("name")):
            n = 8192
        else:
            n = 4096
        metrics = {}
        for label in dtypes:

            def run() -> dict:
                return self._gemm_rate(label, n, self.plan["gemm_warmup"], self.plan["gemm_seconds"])

            out = self.step(name, label, run)
            metrics[label + "_tflops"] = out["tflops"]
            metrics[label + "_n"] = out["n"]
            metrics[label + "_window_seconds"] = out["window_seconds"]
            metrics[label + "_trials"] = out["trials"]
            for key in ("first_5s_tflops", "last_5s_tflops"):
                if key in out:
                    metrics[f"{label}_{key}"] = out[key]
        return metrics

    def _gemm_rate(self, label: str, n: int, warmup: float, measure: float) -> dict:
        """TFLOP/s of an n x n GEMM: warm-up, then median of trials, the whole thing time-capped."""
        torch, dev = self.torch, self.device
        dtype = _dtype(torch, label)
        gen_dev = dev
        while True:
            a = torch.randn(n, n, device=gen_dev, dtype=dtype)
            b = torch.randn(n, n, device=gen_dev, dtype=dtype)
            a @ b  # first call at this shape: library and kernel selection, not throughput
            self.sync()
            stop = self.timer()
            c = a @ b
            one = stop()
            if one <= measure / 8 or n <= 256:
                break
            n //= 2  # a small iGPU must not spend minutes on one GEMM
        if not bool(torch.isfinite(c).all()):
            raise Mismatch(f"{label} GEMM returned NaN or Inf", dtype=label)
        reps = max(1, int(measure / 6 / max(one, 1e-6)))
        begin = time.perf_counter()
        while time.perf_counter() - begin < warmup:
            for _ in range(reps):
                a @ b
            self.sync()
        flops = 2.0 * n * n * n
        rates, stamps = [], []
        begin = time.perf_counter()
        while len(rates) < 3 or (time.perf_counter() - begin < measure and len(rates) < 1000):
            stop = self.timer()
            for _ in range(reps):
                a @ b
            rates.append(flops * reps / max(stop(), 1e-9) / 1e12)
            stamps.append(time.perf_counter() - begin)
        out = {
            # Sustained: the median over the whole window, after the warm-up. A short burst runs
            # faster than this while a GPU's clocks have not yet come down under load.
            "tflops": round(statistics.median(rates), 4),
            "window_seconds": round(stamps[-1], 3),
            "min_tflops": round(min(rates), 4),
            "max_tflops": round(max(rates), 4),
            "trials": len(rates),
            "n": n,
        }
        if measure >= 20:
            first = [r for r, s in zip(rates, stamps) if s <= 5]
            last = [r for r, s in zip(rates, stamps) if s >= stamps[-1] - 5]
            out["first_5s_tflops"] = round(statistics.median(first), 4) if first else None
            out["last_5s_tflops"] = round(statistics.median(last), 4) if last else None
        return out

    def test_attention(self, name: str) -> dict:
        torch, dev = self.torch, self.device
        from torch.nn.attention import SDPBackend, sdpa_kernel

        gpu = dev != "cpu"
        batch, heads, seq, dim = (2, 8, 512, 64) if gpu else (2, 4, 128, 32)
        dtype = torch.float16 if gpu else torch.float32
        embed = heads * dim
        backends = [("math", "MATH"), ("flash", "FLASH_ATTENTION"), ("efficient", "EFFICIENT_ATTENTION"), ("cudnn", "CUDNN_ATTENTION")]
        metrics, ran = {}, 0
        for label, attr in backends:
            backend = getattr(SDPBackend, attr, None)
            torch.manual_seed(self.seed)
            qkv = torch.nn.Linear(embed, 3 * embed, device=dev, dtype=dtype)
            proj = torch.nn.Linear(embed, embed, device=dev, dtype=dtype)
            x = torch.randn(batch, seq, embed, device=dev, dtype=dtype)
            state = {}

            def forward() -> dict:
                if backend is None:
                    raise Skip(f"this torch has no SDPBackend.{attr}")
                q, k, v = qkv(x).view(batch, seq, 3, heads, dim).permute(2, 0, 3, 1, 4)
                try:
                    with sdpa_kernel([backend]):
                        out = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
                except RuntimeError as exc:
                    if "No available kernel" in str(exc) or "No viable backend" in str(exc):
                        raise Skip(f"the {label} backend is not available for this device/dtype") from None
                    raise
                loss = proj(out.transpose(1, 2).reshape(batch, seq, embed)).float().pow(2).mean()
                self.sync()
                if not math.isfinite(float(loss.detach())):
                    raise Mismatch(f"attention ({label}) forward gave a non-finite loss", backend=label)
                state["loss"] = loss
                return {}

            def backward() -> dict:
                if "loss" not in state:
                    raise Skip("forward did not run")
                state.pop("loss").backward()
                self.sync()
                for p in (*qkv.parameters(), *proj.parameters()):
                    if not bool(torch.isfinite(p.grad).all()):
                        raise Mismatch(f"attention ({label}) backward gave non-finite gradients", backend=label)
                return {}

            fwd = self.step(name, label + "_forward", forward)
            if "_skipped" in fwd:
                continue
            bwd = self.step(name, label + "_backward", backward)
            ran += 1
            metrics[label + "_first_forward_seconds"] = fwd["seconds"]
            metrics[label + "_first_backward_seconds"] = bwd["seconds"]
            steps = self.plan["attn_steps"] - 1
            if steps > 0:

                def repeat() -> dict:
                    begin = time.perf_counter()
                    for _ in range(steps):
                        forward()
                        backward()
                    return {"step_ms": round((time.perf_counter() - begin) / steps * 1000, 3), "steps": steps}

                metrics[label + "_step_ms"] = self.step(name, label + "_steps", repeat)["step_ms"]
        if not ran:
            raise Skip("no SDPA backend is available")
        metrics["backends_run"] = ran
        return metrics

    def test_compile(self, name: str) -> dict:
        torch, dev = self.torch, self.device
        if not self.plan["compile"]:
            raise Skip(f"not part of the {self.level} level")
        x = torch.randn(1024, device=dev)

        def fn(t):
            return torch.sin(t) * 2 + t

        state = {}

        def first_call() -> dict:
            compiled = torch.compile(fn)
            state["out"] = compiled(x)
            self.sync()
            return {}

        def check() -> dict:
            out = state["out"].cpu()
            self.hook.mutate(name, "check", out)
            if not torch.allclose(out, fn(x).cpu(), rtol=1e-5, atol=1e-5):
                raise Mismatch("torch.compile result differs from eager")
            return {}

        first = self.step(name, "first_call", first_call)
        self.step(name, "check", check)
        return {"first_call_seconds": first["seconds"]}

    def test_allocator(self, name: str) -> dict:
        torch, dev = self.torch, self.device
        fraction = self.plan["alloc_fraction"]
        if fraction is None:
            raise Skip(f"not part of the {self.level} level")
        chunk = 256 * MiB

        def run() -> dict:
            if dev == "cpu":
                free = _host_available()
                target = min(int(free * fraction), CPU_CAPS["alloc_bytes"])
            else:
                free, _total = torch.cuda.mem_get_info()
                target = int(free * fraction)
            chunks = []
            begin = time.perf_counter()
            for _ in range(max(1, target // chunk)):
                t = torch.empty(chunk, dtype=torch.uint8, device=dev)
                t.fill_(0xA5)
                chunks.append(t)
            self.sync()
            seconds = time.perf_counter() - begin
            out = {"requested_bytes": target, "allocated_bytes": len(chunks) * chunk, "seconds": round(seconds, 4)}
            if dev != "cpu":
                out["reserved_bytes"] = torch.cuda.memory_reserved()
                out["free_before_bytes"] = free
            chunks.clear()
            if dev != "cpu":
                torch.cuda.empty_cache()
            out["expandable_segments"] = self.info.get("expandable_segments")
            return out

        return self.step(name, "allocate_touch_free", run)

    def test_multi_gpu(self, name: str) -> dict:
        torch = self.torch
        if self.device == "cpu":
            raise Skip("the cpu device has no peers")
        count = torch.cuda.device_count()
        if count < 2:
            raise Skip(f"single GPU ({count} device)")
        if not self.plan["allreduce_sizes"]:
            raise Skip(f"not part of the {self.level} level")
        metrics = self._all_reduce(name, count)
        metrics.update(self.step(name, "data_parallel_forward", self._data_parallel))
        return metrics

    def _all_reduce(self, name: str, world: int) -> dict:
        import multiprocessing as mp

        ctx = mp.get_context("spawn")
        queue = ctx.Queue()
        handle, init_file = tempfile.mkstemp(prefix="rocm-doctor-dist-")
        os.close(handle)
        os.unlink(init_file)
        procs = [
            ctx.Process(target=_rank_main, args=(r, world, init_file, self.plan["allreduce_sizes"], queue))
            for r in range(world)
        ]
        for p in procs:
            p.start()
        metrics, current = {}, None
        try:
            while True:
                try:
                    msg = queue.get(timeout=1.0)
                except Exception:  # noqa: BLE001 - queue.Empty: check that every rank is still alive
                    dead = [p for p in procs if p.exitcode not in (None, 0)]
                    if dead:
                        raise RuntimeError(f"all-reduce rank died with exit code {dead[0].exitcode}") from None
                    continue
                if msg.get("rank") != 0 and msg["status"] not in ("error", "mismatch"):
                    continue
                if msg["status"] == "start":
                    current = msg["step"]
                    self.proto.emit(name, current, "start")
                elif msg["status"] == "ok":
                    fields = {k: v for k, v in msg.items() if k not in ("rank", "step", "status")}
                    self.proto.emit(name, msg["step"], "ok", **fields)
                    metrics.update({f"{msg['step']}_{k}": v for k, v in fields.items() if k in ("busbw_gbs", "algbw_gbs")})
                elif msg["status"] == "mismatch":
                    self.proto.emit(name, msg["step"], "mismatch", detail=msg["detail"])
                    raise Mismatch(msg["detail"])
                elif msg["status"] == "error":
                    self.proto.emit(name, msg.get("step", current or "all_reduce"), "error", error=msg["error"])
                    raise RuntimeError(msg["error"])
                elif msg["status"] == "finished":
                    break
        finally:
            for p in procs:
                p.join(timeout=30)
            if os.path.exists(init_file):
                os.unlink(init_file)
        metrics["world_size"] = world
        return metrics

    def _data_parallel(self) -> dict:
        torch = self.torch
        torch.manual_seed(self.seed)
        model = torch.nn.Sequential(torch.nn.Linear(512, 512), torch.nn.ReLU(), torch.nn.Linear(512, 16)).cuda()
        x = torch.randn(64, 512, device="cuda")
        expected = model(x)
        out = torch.nn.DataParallel(model)(x)
        torch.cuda.synchronize()
        if not torch.allclose(out, expected, rtol=1e-3, atol=1e-4):
            raise Mismatch("DataParallel forward differs from the single-GPU forward")
        return {"devices": torch.cuda.device_count()}


def _rank_main(rank: int, world: int, init_file: str, sizes: list, queue) -> None:
    """One all-reduce rank (a spawned child): verified result and bus bandwidth (nccl-tests conventions)."""
    import datetime

    import torch
    import torch.distributed as dist

    step = "init_process_group"
    try:
        queue.put({"rank": rank, "step": step, "status": "start"})
        torch.cuda.set_device(rank)
        dist.init_process_group(
            "nccl", init_method="file://" + init_file, rank=rank, world_size=world,
            timeout=datetime.timedelta(seconds=60),
        )
        queue.put({"rank": rank, "step": step, "status": "ok"})
        for nbytes in sizes:
            step = f"all_reduce_{_size(nbytes)}"
            queue.put({"rank": rank, "step": step, "status": "start"})
            n = max(1, nbytes // 4)
            t = torch.full((n,), float(rank + 1), device=f"cuda:{rank}")
            dist.all_reduce(t)
            torch.cuda.synchronize()
            expected = world * (world + 1) / 2
            if not bool((t == expected).all()):
                queue.put({"rank": rank, "step": step, "status": "mismatch", "detail": f"all-reduce result is not {expected}"})
                return
            for _ in range(5):
                dist.all_reduce(t)
            torch.cuda.synchronize()
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            for _ in range(20):
                dist.all_reduce(t)
            end.record()
            end.synchronize()
            seconds = start.elapsed_time(end) / 1000.0 / 20
            algbw = n * 4 / seconds / 1e9
            queue.put({"rank": rank, "step": step, "status": "ok", "algbw_gbs": round(algbw, 3),
                       "busbw_gbs": round(algbw * 2 * (world - 1) / world, 3), "bytes": n * 4})
        dist.destroy_process_group()
        queue.put({"rank": rank, "step": "done", "status": "finished"})
    except Exception as exc:  # noqa: BLE001 - reported to the parent
        queue.put({"rank": rank, "step": step, "status": "error", "error": f"{type(exc).__name__}: {exc}"})


def _dtype(torch, label: str):
    return {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}[label]


def _size(nbytes: int) -> str:
    for unit, scale in (("GiB", GiB), ("MiB", MiB), ("KiB", 1 << 10)):
        if nbytes >= scale and nbytes % scale == 0:
            return f"{nbytes // scale}{unit}"
    return f"{nbytes}B"


def _host_available() -> int:
    """MemAvailable from /proc/meminfo (bytes); 2 GiB when it cannot be read."""
    try:
        with open("/proc/meminfo", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 2 * GiB


def device_arch(torch, props) -> dict:
    """What the device's architecture is called: ``gcn_arch`` (``gfx942``) on a ROCm build,
    ``compute_capability`` (``9.0``) on a CUDA build, whose ``gcnArchName`` is only the device name."""
    if getattr(torch.version, "hip", None):
        arch = (getattr(props, "gcnArchName", "") or "").split(":")[0]
        return {"gcn_arch": arch} if arch.startswith("gfx") else {}
    major, minor = getattr(props, "major", None), getattr(props, "minor", None)
    return {"compute_capability": f"{major}.{minor}"} if isinstance(major, int) and isinstance(minor, int) else {}


def _pcie_link(props) -> dict:
    """Negotiated and maximum PCIe link of the device from sysfs (Linux); empty when unreadable."""
    bus = None
    if hasattr(props, "pci_bus_id"):
        bus = "%04x:%02x:%02x.0" % (getattr(props, "pci_domain_id", 0), props.pci_bus_id, props.pci_device_id)
    if bus is None or not os.path.isdir(f"/sys/bus/pci/devices/{bus}"):
        return {}
    link = {"pci_bus": bus}
    for key in ("current_link_speed", "current_link_width", "max_link_speed", "max_link_width"):
        try:
            with open(f"/sys/bus/pci/devices/{bus}/{key}", encoding="ascii") as handle:
                link[key] = handle.read().strip()
        except OSError:
            pass
    return link


def main(argv: list) -> int:
    import argparse

    parser = argparse.ArgumentParser(description="rocm-doctor benchmark worker (JSON lines on stdout)")
    parser.add_argument("--device", choices=("auto", "cpu", "cuda"), required=True)
    parser.add_argument("--level", choices=LEVELS, default="quick")
    parser.add_argument("--tests", default="", help="comma-separated test names (default: the level's tests)")
    parser.add_argument("--seed", type=int, default=1234)
    args = parser.parse_args(argv)
    tests = [t for t in args.tests.split(",") if t] or list(LEVEL_TESTS[args.level])
    unknown_tests = [t for t in tests if t not in ALL_TESTS]
    if unknown_tests:
        parser.error(f"unknown tests: {', '.join(unknown_tests)}")
    worker = Worker(args.device, args.level, args.seed)
    try:
        worker.run(tests)
    except Exception as exc:  # noqa: BLE001 - setup failed: report it, the runner classifies
        worker.proto.emit("_worker", "setup_failed", "error", error=f"{type(exc).__name__}: {exc}")
        return 1
    worker.proto.stream.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
