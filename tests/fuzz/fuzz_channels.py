"""One hypothesis strategy per input channel, and a runner that answers with the exit code the CLI would give.

Channels: ``from`` (a pasted report), ``rules`` (a rule file), ``facts`` (a facts file),
``machine`` (a recorded machine folder), ``python`` (what the target interpreter prints),
``env`` (an env file merged into), ``bench`` (the benchmark worker's protocol) and ``secrets``
(credentials planted in every field of a recorded machine or in a real paste; a report that
keeps any raises :class:`SecretsSurvived`, counted apart by ``benchmarks/fuzz_long.py``). Each
runner goes the whole way the CLI goes (read, judge, render the console, the JSON and
the report) and returns 0, 1 or 2; an exception out of it is an internal error (exit 3);
a broken invariant is an AssertionError. ``tests/fuzz/test_every_channel.py`` runs a CI-sized
number of examples; ``benchmarks/fuzz_long.py`` runs thousands and prints a table.
``scale`` makes the hostile sizes bigger in the long mode.
"""

from __future__ import annotations

import io
import json
import os
import random
import re
import shutil
import stat
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Dict, List

import yaml
from hypothesis import strategies as st

from rocm_doctor.bench.results import bench_facts, run_dict
from rocm_doctor.bench.runner import LEVEL_TESTS, run_bench
from rocm_doctor.cli.bench_cmd import render_summary
from rocm_doctor.cli.inputs import FactsSource, load_facts
from rocm_doctor.errors import DoctorError
from rocm_doctor.facts.model import Facts
from rocm_doctor.fix.envfile import SHELLS, begin_marker, end_marker, write_env_file
from rocm_doctor.pipeline import evaluate
from rocm_doctor.judge.loader import load_files, load_rules
from rocm_doctor.redact import ReportRedactor
from rocm_doctor.model.remedy import EnvChange
from rocm_doctor.render.console import render_check
from rocm_doctor.render.safe import SafeConsole
from rocm_doctor.report.markdown import build_report

TESTS = Path(__file__).resolve().parents[1]
MACHINE = TESTS / "machines" / "ubuntu2204-6700xt"
MACHINES = sorted(p.name for p in (TESTS / "machines").iterdir() if (p / "machine.yaml").is_file())
BASELINE = TESTS / "rule_cases" / "baseline.json"
SCALE = int(os.environ.get("ROCM_DOCTOR_FUZZ_SCALE", "1"))
FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
FAST_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
"""1 in the test suite; the long mode raises it for bigger hostile inputs."""


@dataclass(frozen=True)
class Channel:
    name: str
    strategy: st.SearchStrategy
    run: Callable[[Any, Path], int]
    """``run(example, scratch folder)`` -> exit code."""


# ---------------------------------------------------------------- shared pieces


@lru_cache(maxsize=1)
def shipped_rules() -> tuple:
    return tuple(load_rules([], use_env=False))


@lru_cache(maxsize=1)
def baseline() -> Dict[str, Any]:
    return json.loads(BASELINE.read_text(encoding="utf-8"))


def judge_and_render(facts: Facts, rules: tuple = ()) -> int:
    """What check, check --json and report do with facts; the check exit code."""
    result = evaluate(list(rules or shipped_rules()), facts)
    if result.crashes:  # the CLI exits 3 on a crashed gatherer, derived fact, rule or remedy chooser
        raise AssertionError("crashed: " + "; ".join(f"{c.what}: {c.reason}" for c in result.crashes))
    console = SafeConsole(file=io.StringIO(), width=100, no_color=True)
    render_check(result, console, verbose=True)
    result.to_json()
    from rocm_doctor.cli.report_cmd import facts_redactor

    build_report(result, "rules-fuzz", ReportRedactor.create(facts_redactor(facts)))
    if result.plan is not None:  # check, fix and fix --json render the plan the judge decided
        from rocm_doctor.remedy.decide import Context, decide
        from rocm_doctor.render.plan import plan_lines

        plan_lines(result.plan, 100)
        json.dumps(result.plan.to_document())
        for shell in ("fish", "powershell", "cmd"):  # every shell's quoting, not only the default one
            plan_lines(decide(result.findings, facts, Context(shell=shell)).plan, 100)
        _render_containers(facts, result.plan)
    return 1 if result.at_or_above("error") else 0


def _render_containers(facts: Facts, plan: Any) -> None:
    """What ``dockerfile`` and ``docker-run`` print from the same plan, where a container recipe fits."""
    from rocm_doctor.fix.dockerfile import render_dockerfile
    from rocm_doctor.fix.dockerrun import docker_run
    from rocm_doctor.wheels.choice import NoChoice
    from rocm_doctor.wheels.platform import docker_unsupported

    if docker_unsupported(facts) is not None:
        return
    try:
        render_dockerfile(facts, plan, "auto", None)
    except NoChoice:  # a refusal with its reasons: exit 2
        pass
    run = docker_run(facts, plan, None)
    run.command()
    run.compose()


def exit_code(body: Callable[[], int]) -> int:
    """The CLI's error boundary: rocm-doctor's own errors carry their exit code."""
    try:
        return body()
    except DoctorError as exc:
        return exc.exit_code


HOSTILE_CHARS = "\x00\x07\x08\x0b\x0c\x1b\x7f\x85\x9b\u2028\u2029\u202e\ufeff\r\t\n\"'\\$`;&|{}[]<>%!#:=-@ü显"
hostile_text = st.text(alphabet=st.sampled_from(HOSTILE_CHARS) | st.characters(exclude_categories=["Cs"]), max_size=200)
"""Control characters, quotes, shell metacharacters, line breaks of every kind, any other character
(but lone surrogates, which no file or YAML document can hold)."""
big_numbers = st.sampled_from(["9" * 5000, "1e999999", "-" + "7" * 500, "0x" + "f" * 300, "NaN", "1" * 101])


def deep(open_: str, close: str, depth: int) -> str:
    return open_ * depth + close * depth


@st.composite
def mutated(draw, original: str) -> str:
    """``original`` with a few random edits: insertions, deletions, duplications, hostile text."""
    text = original
    for _ in range(draw(st.integers(0, 4))):
        op = draw(st.sampled_from(["insert", "delete", "duplicate", "number", "deep"]))
        where = draw(st.integers(0, len(text)))
        if op == "insert":
            text = text[:where] + draw(hostile_text) + text[where:]
        elif op == "delete":
            text = text[:where] + text[where + draw(st.integers(0, 200)):]
        elif op == "duplicate":
            piece = text[where:where + draw(st.integers(0, 400))]
            text = text[:where] + piece * draw(st.integers(1, 20 * SCALE)) + text[where:]
        elif op == "number":
            text = text[:where] + draw(big_numbers) + text[where:]
        else:
            text = text[:where] + deep("[", "]", draw(st.sampled_from([10, 100, 2000 * SCALE]))) + text[where:]
    return text


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | hostile_text,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(hostile_text, children, max_size=4),
    max_leaves=12,
)


# ---------------------------------------------------------------- --from: a pasted report


def _fragments() -> List[str]:
    amd_smi = json.dumps([{"gpu": 0, "asic": {"market_name": "AMD Radeon RX 7900 XTX", "target_graphics_version": "gfx1100",
                                              "vendor_id": "0x1002", "device_id": "0x744c"}}])
    return [
        "PyTorch version: 2.3.0+cu121\nIs debug build: False\nCUDA used to build PyTorch: 12.1\n"
        "ROCM used to build PyTorch: N/A\nOS: Ubuntu 22.04.4 LTS (x86_64)\nPython version: 3.10.12\n",
        "$ amd-smi static --json\n" + amd_smi + "\n",
        "*******\nAgent 2\n*******\n  Name:                    gfx1100\n  Marketing Name:          AMD Radeon RX 7900 XTX\n"
        "  Device Type:             GPU\n",
        "Package    Version\n---------- -------\ntorch      2.5.1+rocm6.2\ntriton     3.1.0\n",
        "RuntimeError: HIP error: invalid device function\nrocBLAS error: Cannot read TensileLibrary.dat for GPU arch : gfx1032\n",
        "Linux box 6.8.0-45-generic #45-Ubuntu SMP x86_64 GNU/Linux\nHSA_OVERRIDE_GFX_VERSION=10.3.0\n",
        "<!-- rocm-doctor report v1 -->\n```json\n" + json.dumps(baseline()) + "\n```\n",
    ]


@st.composite
def pasted_reports(draw) -> str:
    pieces = draw(st.lists(st.sampled_from(_fragments()), min_size=1, max_size=5))
    text = "\n".join(draw(mutated(p)) for p in pieces)
    tail = draw(st.sampled_from(["", "", "many-lines", "long-line", "deep-json", "many-gpus", "hex-run", "hex-lines",
                                 "blank-run", "alternating"]))
    if tail == "many-lines":
        text += "\n" * (2000 * SCALE)
    elif tail == "long-line":
        text += "x" * (100_000 * SCALE)
    elif tail == "deep-json":
        text += '{"gpu_data": ' + deep("[", "]", 5000 * SCALE) + "}"
    elif tail == "many-gpus":
        text += json.dumps([{"gpu": i, "asic": {"market_name": f"GPU {i}"}} for i in range(200 * SCALE)])
    elif tail == "hex-run":  # the number blanking was quadratic on a run of a-f without a digit (issue 20)
        text += draw(st.sampled_from("abcdefABCDEF")) * (80_000 * SCALE)
    elif tail == "hex-lines":
        text += "".join(f"sha256:{i:064x} 0x{'deadbeef' * 4}\n" for i in range(2000 * SCALE))
    elif tail == "blank-run":  # the field reader was cubic on a line of blanks
        text += "GPU:" + draw(st.sampled_from([" ", "\t", " \t"])) * (20_000 * SCALE)
    elif tail == "alternating":
        text += draw(st.sampled_from(["a1", "a ", "x-", "1.", "a=", "a\n", " \n"])) * (40_000 * SCALE)
    return text


def run_from(text: str, scratch: Path) -> int:
    path = scratch / "paste.txt"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return exit_code(lambda: judge_and_render(load_facts(FactsSource(from_file=str(path)))))


# ---------------------------------------------------------------- --rules: a rule file

HANGING_REGEXES = ["(x+x+)+y", "(.*x){10}y", r"(\w+\s?)*y", r"(x+)(?:\1)+y", "x{1,1000}x{1,1000}y", "a(?=b)",
                   "x{1,2000}"]
"""Patterns a backtracking engine spends seconds to minutes on, or that RE2 refuses (issue 20)."""
_PATHS = ["torch.flavour", "torch.version", "gpu.gfx", "derived.has_amd_gpu", "env.vars.HSA_OVERRIDE_GFX_VERSION",
          "packages.installed.numpy", "host.os", "cpu.logical_cores", "nope.nothing", "gpu.__class__", "torch"]
_TESTS = ["exists", "eq", "ne", "in", "not_in", "matches", "contains", "version", "gt", "ge", "lt", "le", "status", "bogus"]
_literals = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | hostile_text | st.lists(
    st.text(max_size=5), max_size=3) | st.sampled_from(["(a+)+$", "[", ">=2.5,<2.6", "known", "rocm"] + HANGING_REGEXES)
_any_leaf = st.fixed_dictionaries({"fact": st.sampled_from(_PATHS)}).flatmap(
    lambda leaf: st.sampled_from(_TESTS).flatmap(lambda test: _literals.map(lambda v: {**leaf, test: v})))
_valid_leaf = st.one_of(
    st.sampled_from(["cuda", "rocm", "cpu"]).map(lambda v: {"fact": "torch.flavour", "eq": v}),
    st.lists(st.sampled_from(["cuda", "rocm", "cpu"]), min_size=1).map(lambda v: {"fact": "torch.flavour", "in": v}),
    st.sampled_from([">=2.5", "<3", ">=2.5,<2.6"]).map(lambda v: {"fact": "torch.version", "version": v}),
    st.sampled_from(["rocm", r"^2\.", "(ab|cd)+", r"\d+(\.\d+)*"]).map(lambda v: {"fact": "torch.version", "matches": v}),
    st.sampled_from(HANGING_REGEXES).map(lambda v: {"fact": "driver.kernel_cmdline", "matches": v}),
    st.integers().map(lambda v: {"fact": "cpu.logical_cores", "gt": v}),
    st.booleans().map(lambda v: {"fact": "env.vars.HSA_OVERRIDE_GFX_VERSION", "exists": v}),
    st.sampled_from(["known", "failed", ["absent", "unknown"]]).map(lambda v: {"fact": "gpu.gfx", "status": v}),
    hostile_text.map(lambda v: {"fact": "gpu.name", "contains": v}),
)
conditions = st.recursive(
    st.one_of(_valid_leaf, _valid_leaf, _valid_leaf, _any_leaf),
    lambda inner: st.one_of(st.lists(inner, max_size=4).map(lambda x: {"all": x}),
                            st.lists(inner, max_size=4).map(lambda x: {"any": x}), inner.map(lambda x: {"not": x})),
    max_leaves=10,
)
_fixes = st.lists(st.one_of(
    st.fixed_dictionaries({"kind": st.just("env")}, optional={
        "set": st.dictionaries(st.sampled_from(["HSA_X", "{gpu.gfx}_V", "A B"]), hostile_text, max_size=2),
        "unset": st.lists(st.sampled_from(["HIP_X", "{gpu.override_var}", "FOO; touch /tmp/x"]), max_size=2)}),
    st.fixed_dictionaries({"kind": st.just("pip"), "packages": st.lists(st.sampled_from(
        ["numpy<2", "torch=={torch.version}", "numpy=={packages.installed.numpy}", ".", "-e ."]), max_size=2)}),
    st.fixed_dictionaries({"kind": st.sampled_from(["manual", "docker", "code"]), "text": hostile_text}, optional={
        "commands": st.lists(st.sampled_from(["echo {gpu.name}", "rm -rf {env.vars.HOME}", "ls"]), max_size=2),
        "dockerfile": st.lists(st.sampled_from(["RUN echo {gpu.name}", "ENV X={torch.version}"]), max_size=2)}),
), max_size=3)


@st.composite
def rule_files(draw) -> str:
    kind = draw(st.sampled_from(["rule", "rule", "rule", "aliases", "deep", "int", "raw"]))
    if kind == "aliases":
        depth = draw(st.integers(2, 9))
        width = draw(st.integers(2, 9))
        levels = ["        - &a0 {fact: torch.flavour, eq: cuda}"] + [
            f"        - &a{i} {{any: [{', '.join([f'*a{i - 1}'] * width)}]}}" for i in range(1, depth)]
        return _rule_yaml({"fact": "host.os", "eq": "linux"}, []).replace(
            "    when:\n      fact: host.os\n      eq: linux\n", "    when:\n      all:\n" + "\n".join(levels) + "\n")
    if kind == "deep":
        return "rules:\n- " + deep("[", "]", draw(st.sampled_from([70, 1000, 30000 * SCALE])))
    if kind == "int":
        number = draw(st.sampled_from(["9" * 5000, "1" * 101, "0x" + "f" * 200]))
        return _rule_yaml({"fact": "cpu.logical_cores", "gt": 1}, []).replace("gt: 1", f"gt: {number}")
    if kind == "raw":
        return draw(mutated(_rule_yaml({"fact": "host.os", "eq": "linux"}, [])))
    text = _rule_yaml(draw(conditions), draw(_fixes))
    return draw(mutated(text)) if draw(st.booleans()) else text


def _rule_yaml(when: Any, fixes: List[Any]) -> str:
    rule = {"id": "RD901", "name": "fuzz-rule", "severity": "error", "category": "env", "area": "fuzz", "for_each": "gpu",
            "when": when, "title": "t {gpu.name}", "message": "m {torch.version}", "explanation": "e",
            "fixes": fixes, "references": [{"url": "https://example.org"}]}
    try:
        return yaml.dump({"rules": [rule]}, Dumper=FAST_DUMPER, sort_keys=False, allow_unicode=True)
    except (yaml.YAMLError, RecursionError, ValueError):
        return "rules: []\n"


def run_rules(text: str, scratch: Path) -> int:
    path = scratch / "rules.yaml"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")

    def body() -> int:
        rules = tuple(load_files([path]))
        data = json.loads(json.dumps(baseline()))  # a long value for the patterns to search (rules.max_match_chars)
        data.setdefault("driver", {})["kernel_cmdline"] = {"status": "known", "value": "x" * 4000 + "a" * 4000}
        return judge_and_render(Facts.from_dict(data), rules)

    return exit_code(body)


# ---------------------------------------------------------------- --facts: a facts file


@st.composite
def facts_files(draw) -> str:
    kind = draw(st.sampled_from(["planted", "planted", "mutated", "replaced", "deep", "int", "raw"]))
    if kind == "deep":
        return '{"bench": ' + deep("[", "]", draw(st.sampled_from([65, 1000, 100_000 * SCALE]))) + "}"
    if kind == "int":
        return '{"cpu": {"logical_cores": {"status": "known", "value": ' + draw(big_numbers) + "}}}"
    if kind == "raw":
        return draw(hostile_text)
    data = json.loads(json.dumps(baseline()))
    if kind == "planted":  # valid facts whose texts are hostile: every renderer meets them
        for section in data.values():
            for fact in section.values() if isinstance(section, dict) else []:
                if isinstance(fact, dict) and isinstance(fact.get("value"), str) and draw(st.booleans()):
                    fact["value"] = draw(hostile_text)
        return json.dumps(data)
    if kind == "replaced":
        section = draw(st.sampled_from(sorted(data)))
        data[section] = draw(json_values)
        return json.dumps(data)
    return draw(mutated(json.dumps(data, indent=1)))


def run_facts(text: str, scratch: Path) -> int:
    path = scratch / "facts.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return exit_code(lambda: judge_and_render(load_facts(FactsSource(facts_file=path))))


# ---------------------------------------------------------------- --machine: a recorded machine folder

_MACHINE_FILES = sorted(str(p.relative_to(MACHINE)) for p in MACHINE.rglob("*") if p.is_file())


@st.composite
def machine_folders(draw) -> Dict[str, Any]:
    """Edits to a copy of a recorded machine: files rewritten, special entries added."""
    edits: Dict[str, Any] = {}
    for name in draw(st.lists(st.sampled_from(_MACHINE_FILES), max_size=4, unique=True)):
        original = (MACHINE / name).read_text(encoding="utf-8", errors="replace")
        edits[name] = draw(mutated(original))
    special = draw(st.sampled_from([None, None, None, "link-out", "link-in", "fifo", "deep-yaml", "self-link", "link-loop"]))
    if special is not None:
        edits["@special"] = special
    return edits


def run_machine(edits: Dict[str, Any], scratch: Path, torch: bool = False) -> int:
    folder = scratch / "machine"
    shutil.copytree(MACHINE, folder)
    for name, text in edits.items():
        if name == "@special":
            _special(folder, text)
        else:
            (folder / name).write_text(text, encoding="utf-8", errors="surrogatepass")

    def body() -> int:
        facts = load_facts(FactsSource(machine=folder, no_torch=not torch))
        from rocm_doctor.system.record import redactor_for
        from rocm_doctor.system.recorded import RecordedSystem

        ReportRedactor.create(redactor_for(RecordedSystem(folder))).text(facts.to_json())
        return judge_and_render(facts)

    return exit_code(body)


def _special(folder: Path, kind: str) -> None:
    target = folder / "files" / "proc" / "cmdline"
    target.unlink(missing_ok=True)
    if kind == "link-out":
        target.symlink_to("/etc/passwd")
    elif kind == "link-in":
        target.symlink_to("version")
    elif kind == "self-link":  # Path.resolve() raised RuntimeError on it (issue 20)
        target.symlink_to("cmdline")
    elif kind == "link-loop":
        target.symlink_to("cmdline2")
        (target.parent / "cmdline2").symlink_to("cmdline")
    elif kind == "fifo" and hasattr(os, "mkfifo"):
        os.mkfifo(target)
    elif kind == "deep-yaml":
        (folder / "commands.yaml").write_text("- " * 30000 + "x\n", encoding="utf-8")
    else:
        target.write_text("", encoding="utf-8")


# ---------------------------------------------------------------- --python: what the interpreter prints


@st.composite
def python_outputs(draw) -> Dict[str, Any]:
    """New stdout for the python-info and torch-probe commands of a recorded machine."""
    commands = yaml.load((MACHINE / "commands.yaml").read_text(encoding="utf-8"), Loader=FAST_LOADER)
    for entry in commands:
        if entry.get("label") in ("python-info", "torch-probe"):
            lines = str(entry.get("stdout", "")).splitlines()
            kind = draw(st.sampled_from(["mutated", "values", "flood", "deep", "non-finite"]))
            if kind == "values":
                lines = [json.dumps({"stage": draw(st.sampled_from(["import", "devices", "arch_list", "x"])),
                                     "status": draw(st.sampled_from(["ok", "start", "error", "zzz"])),
                                     draw(st.sampled_from(["devices", "arch_list", "version", "executable"])):
                                         draw(json_values)}) for _ in range(draw(st.integers(0, 6)))]
            elif kind == "flood":
                lines = lines + ['{"junk": ' + draw(big_numbers) + "}"] * (50 * SCALE)
            elif kind == "deep":
                lines = [deep("[", "]", 100_000 * SCALE)]
            elif kind == "non-finite":  # "total_memory": 1e999 crashed the torch gatherer (issue 20)
                number = draw(st.sampled_from(["1e999", "-1e999", "NaN", "Infinity", "-1", "1e308", "-0.0"]))
                field = draw(st.sampled_from(["total_memory", "index", "seconds", "device_count", "value"]))
                lines = [line.replace('"total_memory": ', f'"{field}": {number}, "total_memory": ') for line in lines]
                lines.append(json.dumps({"stage": "import", "status": "ok", "seconds": 1.0}).replace("1.0", number))
            else:
                lines = [draw(mutated(line)) for line in lines]
            entry["stdout"] = "\n".join(lines)
            entry["returncode"] = draw(st.sampled_from([0, 0, 1, -6, -9]))
    return {"commands.yaml": yaml.dump(commands, Dumper=FAST_DUMPER, allow_unicode=True)}


def run_python(edits: Dict[str, Any], scratch: Path) -> int:
    return run_machine(edits, scratch, torch=True)


# ---------------------------------------------------------------- env merge


@st.composite
def env_merges(draw) -> tuple:
    shell = draw(st.sampled_from(SHELLS))
    ends = st.sampled_from(["\n", "\r\n", "\r", "\f", "\x0b", "\x85", "\u2028", ""])
    lines = draw(st.lists(st.one_of(
        hostile_text, st.sampled_from([begin_marker(shell), end_marker(shell), "export KEEP_ME=1"])).map(str), max_size=12))
    existing = "".join(line + draw(ends) for line in lines)
    encoding = draw(st.sampled_from(["utf-8", "utf-8", "utf-8-sig", "utf-16", "latin-1-junk"]))
    names = st.sampled_from(["HSA_OVERRIDE_GFX_VERSION", "HIP_VISIBLE_DEVICES", "A B", "X;touch p", "_ok", "1BAD"])
    changes = draw(st.lists(st.tuples(names, st.none() | hostile_text), max_size=3, unique_by=lambda c: c[0]))
    return shell, existing, encoding, changes


def _text_of(data: bytes, path: Path) -> str:
    from rocm_doctor.files import encoding_of

    return encoding_of(data, path).decode(data)


def _outside_block(text: str, shell: str) -> tuple:
    """The text before the managed block and after it (lines end at LF, CRLF or CR only)."""
    lines = re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", text)
    starts = [i for i, line in enumerate(lines) if line.rstrip("\r\n") == begin_marker(shell)]
    ends = [i for i, line in enumerate(lines) if line.rstrip("\r\n") == end_marker(shell)]
    if not starts and not ends:
        return text, ""
    assert len(starts) == len(ends) == 1 and starts[0] < ends[0], "wrote into a file whose markers are wrong"
    return "".join(lines[:starts[0]]), "".join(lines[ends[0] + 1:])


def run_env(example: tuple, scratch: Path) -> int:
    shell, existing, encoding, changes = example
    path = scratch / "env"
    data = existing.encode("utf-8", "surrogatepass")
    if encoding == "utf-16":
        data = existing.encode("utf-16", "surrogatepass")
    elif encoding == "utf-8-sig":
        data = b"\xef\xbb\xbf" + data
    elif encoding == "latin-1-junk":
        data = b"# \xfc\xdf\n" + data
    path.write_bytes(data)
    env_changes = [EnvChange(name, value, ("RD1",)) for name, value in changes]

    def body() -> int:
        write_env_file(path, shell, env_changes)
        after = path.read_bytes()
        again = write_env_file(path, shell, env_changes)
        assert not again.changed and path.read_bytes() == after, "a second write changed the file"
        before_block, after_block = _outside_block(_text_of(data, path), shell)
        new = _text_of(after, path)
        assert new.startswith(before_block) and new.endswith(after_block), "a line outside the block changed"
        return 0

    code = exit_code(body)
    if code == 2:
        assert path.read_bytes() == data, "a refused write changed the file"
    return code


# ---------------------------------------------------------------- bench protocol

BENCH_TESTS = LEVEL_TESTS["quick"][:2]
_STATUSES = ["start", "ok", "mismatch", "error", "skipped", "wrong", "done", "excellent", ""]


@st.composite
def protocol_lines(draw) -> tuple:
    tests = list(BENCH_TESTS)
    record = st.fixed_dictionaries({
        "test": st.sampled_from(tests + ["_worker", "setup", "other", ""]),
        "step": st.sampled_from(["import_torch", "device_init", "hello", "first_gemm", "done", "x"]),
        "status": st.sampled_from(_STATUSES),
    }, optional={"metrics": json_values | st.sampled_from([{"gflops": float("inf")}, {"gbps": float("nan")},
                                                            {"seconds": -1e308}]),
                 "error": hostile_text, "t": st.floats()}).map(json.dumps)
    garbage = st.one_of(hostile_text, big_numbers.map(lambda n: '{"test": ' + n + "}"),
                        st.just("[" * 5000), st.just("x" * (70_000 * SCALE)))
    lines = draw(st.lists(st.one_of(record, record, garbage), max_size=30))
    if draw(st.booleans()):  # a true transcript with the random lines spliced in: results that can be ok
        true = [json.dumps({"test": "init", "step": s, "status": v}) for s in ("import_torch", "device_init")
                for v in ("start", "ok")] + [json.dumps({"test": "_worker", "step": "hello", "status": "ok"})]
        for test in tests:
            true += [json.dumps({"test": test, "step": "s1", "status": v}) for v in ("start", "ok")]
            true.append(json.dumps({"test": test, "step": "done", "status": "ok", "metrics": {}}))
        for line in lines:
            true.insert(draw(st.integers(0, len(true))), line)
        lines = true
    ending = draw(st.sampled_from(["exit 0", "exit 0", "exit 3", "kill -SEGV $$", "exec 1>&-; sleep 30", "sleep 30"]))
    return lines, ending


def run_bench_protocol(example: tuple, scratch: Path) -> int:
    lines, ending = example
    body = scratch / "lines.txt"
    body.write_text("\n".join(line.replace("\x00", "") for line in lines) + "\n", encoding="utf-8",
                    errors="surrogatepass")
    python = scratch / "python"
    python.write_text(f"#!/bin/sh\ncat '{body}'\n{ending}\n", encoding="utf-8")
    python.chmod(python.stat().st_mode | stat.S_IXUSR)
    run = run_bench(str(python), "quick", "cpu", 0.5, tests=list(BENCH_TESTS))
    assert set(run.tests) == set(BENCH_TESTS), "a test was left unclassified"
    assert len(run.noise) <= 50 and all(len(n) <= 200 for n in run.noise)
    # What bench, bench --json and check --bench make of the run.
    render_summary(run, SafeConsole(file=io.StringIO(), width=100, no_color=True))
    json.dumps(run_dict(run), default=str)
    judge_and_render(Facts.from_dict(baseline()).model_copy(update={"bench": bench_facts(run)}))
    return 1 if run.failed else 0


# ---------------------------------------------------------------- secrets in every field


class SecretsSurvived(AssertionError):
    """A report kept planted secrets (``count`` of them): the one outcome of this channel that is a leak."""

    def __init__(self, survived: List[str]) -> None:
        super().__init__(f"{len(survived)} planted secret(s) survived redaction: {survived[:3]}")
        self.count = len(survived)


_GLUE = st.sampled_from(["", "", " ", "\t", '"', "'", "=", ":", ",", ";", "(", ")", "[", "]", "{", "}", "<", ">", "|", "`",
                         "\\", "/", "-", "_", ".", "@", "#", "$", "%", "ü", "显", "\x1b", "\u2028", "\r\n", "\\n"])
"""What stands right before and after a planted secret (never a letter or digit)."""


@lru_cache(maxsize=1)
def real_pastes() -> tuple:
    from secret_forms import pastes

    return tuple(pastes([TESTS / "corpus", TESTS / "corpus" / "holdout", TESTS.parent.parent / "shared" / "corpus"]))


@st.composite
def secret_plantings(draw) -> tuple:
    """(``machine`` or ``paste``, which one, the glue around each secret, the seed of the planting)."""
    target = draw(st.sampled_from(["machine", "paste", "paste"]))
    names = MACHINES if target == "machine" else [name for name, _ in real_pastes()]
    return target, draw(st.sampled_from(names)), (draw(_GLUE), draw(_GLUE)), draw(st.integers(0, 2**32))


def run_secrets(example: tuple, scratch: Path) -> int:
    """Plant, then do what ``report`` does; every planted secret is looked for in the report."""
    from rocm_doctor.cli.report_cmd import report_redactor
    from secret_forms import plant_machine, plant_paste, survivors

    target, name, glue, seed = example
    rng = random.Random(seed)
    if target == "machine":
        folder = scratch / "machine"
        shutil.copytree(TESTS / "machines" / name, folder)
        planted = plant_machine(folder, rng, glue)
        source = FactsSource(machine=folder, no_torch=True)
    else:
        text, planted = plant_paste(dict(real_pastes())[name], rng, glue)
        path = scratch / "paste.txt"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        source = FactsSource(from_file=str(path))

    def body() -> int:
        facts = load_facts(source)
        result = evaluate(list(shipped_rules()), facts)
        report = build_report(result, "rules-fuzz", report_redactor(source, facts))
        survived = survivors(report, planted)
        if survived:
            raise SecretsSurvived(survived)
        return 1 if result.at_or_above("error") else 0

    return exit_code(body)


CHANNELS: Dict[str, Channel] = {
    channel.name: channel
    for channel in (
        Channel("from", pasted_reports(), run_from),
        Channel("rules", rule_files(), run_rules),
        Channel("facts", facts_files(), run_facts),
        Channel("machine", machine_folders(), run_machine),
        Channel("python", python_outputs(), run_python),
        Channel("env", env_merges(), run_env),
        Channel("bench", protocol_lines(), run_bench_protocol),
        Channel("secrets", secret_plantings(), run_secrets),
    )
}
