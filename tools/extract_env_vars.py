"""Extract every environment variable the ROCm stack and PyTorch read, per component and release.

Reads the scans listed in ``tools/env_sources.yaml`` and writes ``rules/data/env_reads.yaml``:
for every variable, which component reads it and at which of the scanned releases, with the
file that reads it. A scan is one of:

* a git directory (a clone or a bare mirror) read at each of a list of tags or commits with
  ``git ls-tree``/``git cat-file``, never checked out; every source file under ``paths`` is read,
  so the scan is *complete* for that component at that release;
* a plain directory (an installed wheel): complete only when the row says so (a wheel lacks the
  C++ sources);
* a hand reading: ``names`` read from one ``file`` at a commit (through a code index, when no
  clone of that commit was available): never complete, it speaks only for that file.

rocm-doctor calls a set variable "read by nothing" only for a judged name stem (``judged_stems``)
whose every reader component has a complete scan at the machine's release; the table records
exactly which scans exist so that the judgement can say which it rests on.

Usage::

    python tools/extract_env_vars.py --mirror /work/.mirror --torch .venv/lib/python3.12/site-packages/torch \
        --out rules/data/env_reads.yaml

A read is recognised in these forms (the variable name is a string literal or a macro
argument; a name built at run time is only found through a format string):

* C/C++: ``getenv("X")``, ``secure_getenv``, ``GetEnvVar``, ``read_env``, ``ncclGetEnv``,
  ``c10::utils::get_env`` / ``check_env``, ``Getenv``, also through a macro
  (``#define HSA_PATH "HSA_PATH"`` ... ``getenv(HSA_PATH)``); a format string ``"X_%d"`` given to
  one of them becomes the family ``X_<N>``;
* ROCclr's flag table (``rocclr/utils/flags.hpp``): ``release(type, X, ...)``, ``debug(...)``,
  ``release_on_stg(...)``: each flag is read from the environment variable of its name;
* MIOpen: ``MIOPEN_DECLARE_ENV_VAR_*(X ...)``;
* RCCL: ``NCCL_PARAM(Name, "X", ...)`` reads ``NCCL_X``, ``RCCL_PARAM`` reads ``RCCL_X``; every
  ``NCCL_``/``RCCL_`` literal given to an ``ncclGet*`` helper (``ncclGetLevel``);
* Python: ``os.environ.get("X")``, ``os.getenv("X")``, ``os.environ["X"]``, ``"X" in os.environ``;
* CMake and Perl (build scripts, hipcc): ``$ENV{X}``, ``ENV{X}``, ``ENV X``; shell scripts: ``$X`` / ``${X}``.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Optional, Set, Tuple

import yaml

SUFFIXES = (".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".hxx", ".py", ".inl", ".cuh",
            ".cmake", "CMakeLists.txt", ".pl", ".pm", ".sh", ".in")
NAME = r"[A-Z][A-Z0-9_]*_[A-Z0-9_]*"
GIT_TIMEOUT = 120

_READ_CALL = re.compile(
    r"\b(?:secure_getenv|getenv|GetEnvVar|getEnvVar|GetEnv|Getenv|read_env|ncclGetEnv|get_env|check_env)\s*\(\s*"
    r"(?:[A-Za-z_:]+\s*\(\s*)?\"(" + NAME + r")\""
)
_DEFINE = re.compile(r"^\s*#\s*define\s+([A-Za-z_][A-Za-z0-9_]*)\s+\"(" + NAME + r")\"", re.MULTILINE)
# a name kept in a constant and read through it: static constexpr const auto x = "HIPBLASLT_ALLOW_TF32";
_CONSTANT = re.compile(r"\bconstexpr\b[^=;\n]*\b([A-Za-z_][A-Za-z0-9_]*)\s*=\s*\"(" + NAME + r")\"\s*;")
# PyTorch's lists of a variable and its older names, read through getCvar*:
# static std::vector<std::string> TORCH_NCCL_BLOCKING_WAIT = {"TORCH_NCCL_BLOCKING_WAIT", "NCCL_BLOCKING_WAIT"};
_NAME_LIST = re.compile(r"std::vector<std::string>\s+(" + NAME + r")\s*=\s*\{([^{}]*)\}")
_READ_MACRO = re.compile(
    r"\b(?:secure_getenv|getenv|GetEnvVar|getEnvVar|GetEnv|Getenv|read_env|ncclGetEnv|get_env|check_env|getEnvVariable)"
    r"\s*\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)"
)
# rocBLAS/hipBLASLt open a log file named by a variable: open_log_stream("ROCBLAS_LOG_TRACE_PATH"),
# open_log_stream(&os, &ofs, "HIPBLASLT_LOG_FILE")
_LOG_STREAM = re.compile(r"\bopen_log_stream\s*\([^;\"]*\"(" + NAME + r")\"")
_NCCL_GET = re.compile(r"\bncclGet[A-Za-z]*\s*\(")
_LITERAL = re.compile(r"\"(" + NAME + r")\"")
_FORMAT = re.compile(r"\"(" + NAME + r")_%[dui]\"")
_FLAG = re.compile(r"^\s*(?:release|debug|release_on_stg)\s*\(\s*[A-Za-z_0-9:<> ]+,\s*(" + NAME + r")\s*,")
_MIOPEN = re.compile(r"\bMIOPEN_DECLARE_ENV_VAR(?:_[A-Z0-9]+)?\s*\(\s*(" + NAME + r")\b")
_PARAM = re.compile(r"\b(NCCL|RCCL)_PARAM\s*\(\s*[A-Za-z0-9_]+\s*,\s*\"([A-Z0-9_]+)\"")
_CMAKE_PERL_SH = re.compile(
    r"(?:\$|\b)ENV\{\s*['\"]?(" + NAME + r")['\"]?\s*\}"  # CMake $ENV{X} / DEFINED ENV{X}, Perl $ENV{'X'}
    r"|\bENV\s+(" + NAME + r")\b"  # CMake if(DEFINED ENV X) / if(ENV X)
)
_SHELL = re.compile(r"\$\{?(" + NAME + r")\b")
_PY = re.compile(
    r"(?:os\.environ\.get|os\.getenv|environ\.get|getenv)\s*\(\s*[\"'](" + NAME + r")[\"']"
    r"|os\.environ\s*\[\s*[\"'](" + NAME + r")[\"']\s*\]"
    r"|[\"'](" + NAME + r")[\"']\s+(?:not\s+)?in\s+os\.environ"
)


def reads_in_text(path: str, text: str) -> Set[str]:
    """The variables a source file reads (``X_<N>`` for a per-index family)."""
    found: Set[str] = set()
    is_flags = path.endswith("flags.hpp")
    python = path.endswith(".py")
    build = path.endswith((".cmake", "CMakeLists.txt", ".in", ".pl", ".pm"))
    shell = path.endswith(".sh")
    defines = dict(_DEFINE.findall(text)) if not (python or build or shell) else {}
    if not (python or build or shell):
        defines.update(_CONSTANT.findall(text))
        for _list_name, body in _NAME_LIST.findall(text):
            found.update(_LITERAL.findall(body))
    for line in text.splitlines():
        if build:
            for groups in _CMAKE_PERL_SH.findall(line):
                found.update(g for g in groups if g)
            continue
        if shell:
            found.update(_SHELL.findall(line))
            continue
        if python:
            for groups in _PY.findall(line):
                found.update(g for g in groups if g)
            continue
        found.update(_READ_CALL.findall(line))
        found.update(_LOG_STREAM.findall(line))
        found.update(defines[m] for m in _READ_MACRO.findall(line) if m in defines)  # #define X "NAME"; getenv(X)
        if _NCCL_GET.search(line):  # ncclGetLevel(&level, "NCCL_P2P_DISABLE", "NCCL_P2P_LEVEL")
            found.update(n for n in _LITERAL.findall(line) if n.startswith(("NCCL_", "RCCL_")))
        if "%" in line and ("printf" in line or "getenv" in line or "format" in line):
            found.update(f"{m}_<N>" for m in _FORMAT.findall(line))
        if is_flags:
            match = _FLAG.match(line)
            if match:
                found.add(match.group(1))
        found.update(_MIOPEN.findall(line))
        found.update(f"{prefix}_{name}" for prefix, name in _PARAM.findall(line))
    return found


def _git(git_dir: str, *args: str) -> str:
    result = subprocess.run(
        ["git", "--git-dir", git_dir, *args], capture_output=True, text=True, timeout=GIT_TIMEOUT, check=False
    )
    if result.returncode != 0:
        raise RuntimeError(f"git {' '.join(args[:2])} in {git_dir}: {result.stderr.strip()[:300]}")
    return result.stdout


class BlobReader:
    """Reads blobs of one git directory through a single ``git cat-file --batch``, each blob once."""

    def __init__(self, git_dir: str) -> None:
        self.git_dir = git_dir
        self.cache: Dict[str, Set[str]] = {}
        self.missing: Set[str] = set()

    def reads(self, items: List[Tuple[str, str]]) -> Dict[str, Set[str]]:
        """path -> names read, for (path, blob sha) pairs; a blob already seen is not read again."""
        todo = [(path, sha) for path, sha in items if sha not in self.cache]
        if todo:
            shas = "".join(f"{sha}\n" for _, sha in todo).encode()
            result = subprocess.run(["git", "--git-dir", self.git_dir, "cat-file", "--batch"], input=shas,
                                    capture_output=True, timeout=GIT_TIMEOUT * 5, check=False)
            if result.returncode != 0:
                raise RuntimeError(f"git cat-file in {self.git_dir}: {result.stderr.decode(errors='replace')[:300]}")
            out, at = result.stdout, 0
            for path, sha in todo:
                end = out.index(b"\n", at)
                header = out[at:end].split()
                if len(header) < 3 or header[1] != b"blob":
                    self.missing.add(sha)  # a snapshot may lack its largest files
                    self.cache[sha] = set()
                    at = end + 1
                    continue
                size = int(header[2])
                text = out[end + 1:end + 1 + size].decode("utf-8", "replace")
                at = end + 1 + size + 1
                self.cache[sha] = reads_in_text(path, text)
        return {path: self.cache[sha] for path, sha in items}


def git_reads(reader: BlobReader, ref: str, paths: List[str]) -> Tuple[Dict[str, Set[str]], int, int, List[str]]:
    """(path -> names read, number of source files, number of them missing from the snapshot,
    listed paths that do not exist at ``ref``) under ``paths`` at ``ref``."""
    listing = _git(reader.git_dir, "ls-tree", "-r", ref, "--", *paths)
    present = [line.partition("\t")[2] for line in listing.splitlines()]
    absent = [p for p in paths if not any(f == p or f.startswith(p.rstrip("/") + "/") for f in present)]
    items = []
    for line in listing.splitlines():
        meta, _, path = line.partition("\t")
        parts = meta.split()
        if len(parts) == 3 and parts[1] == "blob" and path.endswith(SUFFIXES):
            items.append((path, parts[2]))
    if not items:
        raise RuntimeError(f"no source file under {paths} at {ref} in {reader.git_dir}")
    found = reader.reads(sorted(items))
    return found, len(items), sum(1 for _, sha in items if sha in reader.missing), absent


def dir_reads(root: Path, paths: List[str]) -> Tuple[Dict[str, Set[str]], int]:
    found: Dict[str, Set[str]] = {}
    count = 0
    for sub in paths:
        base = root / sub
        for file in sorted(base.rglob("*")) if base.is_dir() else []:
            if file.is_file() and file.name.endswith(SUFFIXES):
                count += 1
                found[file.relative_to(root).as_posix()] = reads_in_text(file.name, file.read_text(encoding="utf-8", errors="replace"))
    if not count:
        raise RuntimeError(f"no source file under {paths} in {root}")
    return found, count


def _mapped(path: str, mapping: Dict[str, str]) -> str:
    for prefix in sorted(mapping, key=len, reverse=True):
        if path.startswith(prefix):
            return mapping[prefix] + path[len(prefix):]
    return path


def _short(ref: str) -> str:
    return ref[:12] if re.fullmatch(r"[0-9a-f]{40}", ref) else ref


def _scan_rows(source: dict) -> List[dict]:
    """One row per (source, ref): the scan as the table records it."""
    rows = []
    refs = source.get("refs") or {source["ref"]: source.get("release")}
    for ref, release in refs.items():
        row = {
            "id": f"{source['component']}@{_short(ref)}",
            "component": source["component"],
            "repo": source["repo"],
            "ref": ref,
            "series": source.get("series", "rocm"),
            "release": None if release is None else str(release),
        }
        if source.get("after"):
            row["after"] = str(source["after"])
        row["complete"] = bool(source.get("complete", "git" in source))
        row["paths"] = [source["file"]] if "names" in source else list(source["paths"])
        if source.get("how"):
            row["how"] = source["how"]
        rows.append(row)
    return rows


def extract(sources: List[dict], fill: Dict[str, str]) -> Tuple[List[dict], Dict[str, Dict[str, dict]]]:
    """(scans, variable -> component -> {read: [scan ids], file, url}) over every source."""
    scans: List[dict] = []
    table: Dict[str, Dict[str, dict]] = {}
    readers: Dict[str, BlobReader] = {}
    for source in sources:
        mapping = source.get("map") or {}
        for scan in _scan_rows(source):
            if "names" in source:
                found, count = {source["file"]: set(source["names"])}, 1
            elif "git" in source:
                git_dir = source["git"].format(**fill)
                reader = readers.setdefault(git_dir, BlobReader(git_dir))
                found, count, missing, absent = git_reads(reader, scan["ref"], source["paths"])
                if missing:  # a source file the snapshot lacks was not read: the scan is not complete
                    scan["complete"] = False
                    scan["missing_files"] = missing
                if absent:  # a listed path the ref does not have: its code may live elsewhere there
                    scan["complete"] = False
                    scan["absent_paths"] = absent
                scan["date"] = _git(git_dir, "log", "-1", "--format=%cs", scan["ref"]).strip()
            else:
                found, count = dir_reads(Path(source["dir"].format(**fill)), source["paths"])
            scan["files"] = count
            scans.append(scan)
            for path in sorted(found):
                repo_path = _mapped(path, mapping)
                for name in sorted(found[path]):
                    entry = table.setdefault(name, {}).setdefault(scan["component"], {"read": [], "file": "", "url": ""})
                    if scan["id"] not in entry["read"]:
                        entry["read"].append(scan["id"])
                    # cite the newest scan that reads it (scans are listed oldest first per source)
                    entry["file"] = repo_path
                    entry["url"] = f"https://github.com/{scan['repo']}/blob/{scan['ref']}/{repo_path}"
    ids = [s["id"] for s in scans]
    if len(set(ids)) != len(ids):
        raise RuntimeError("two scans share an id: " + ", ".join(sorted({i for i in ids if ids.count(i) > 1})))
    return scans, {name: table[name] for name in sorted(table)}


HEADER = """# GENERATED by tools/extract_env_vars.py from the scans in tools/env_sources.yaml; do not edit.
# Every environment variable that a scanned ROCm component or PyTorch reads: per component, the
# scans (component@tag or commit) whose source reads it, and the file of the newest such read.
# A name ending in _<N> is a family (X_0, X_1 ...). `scans` says exactly what was read:
# `complete: true` means every source file under `paths` at that ref; a hand reading of one file
# is never complete. rocm-doctor judges a set variable "read by nothing" only for a name with one
# of judged_stems whose every reader component has a complete scan at the machine's release.
"""


def render(scans: List[dict], table: Dict[str, Dict[str, dict]], config: Dict[str, Any], checked: str) -> str:
    document = {
        "schema": 2,
        "checked": checked,
        "against": list(dict.fromkeys(f"https://github.com/{s['repo']}/tree/{s['ref']}" for s in scans)),
        "judged_stems": list(config.get("judged_stems") or []),
        "unscanned_readers": list(config.get("unscanned_readers") or []),
        "out_of_scope": config.get("out_of_scope") or {},
        "applies": config.get("applies") or {},
        "scans": scans,
        "variables": table,
    }
    return HEADER + yaml.safe_dump(document, sort_keys=False, width=200, default_flow_style=None)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    here = Path(__file__).resolve().parent
    parser.add_argument("--sources", default=str(here / "env_sources.yaml"))
    parser.add_argument("--mirror", default="", help="directory holding the git mirrors ({mirror})")
    parser.add_argument("--torch", default="", help="an installed torch package directory ({torch})")
    parser.add_argument("--out", default=str(here.parent / "rules" / "data" / "env_reads.yaml"))
    parser.add_argument("--checked", default=_dt.date.today().isoformat(), help="date written as 'checked'")
    args = parser.parse_args(argv)
    config = yaml.safe_load(Path(args.sources).read_text(encoding="utf-8"))
    try:
        scans, table = extract(config["sources"], {"mirror": args.mirror, "torch": args.torch})
    except (RuntimeError, subprocess.TimeoutExpired, OSError, KeyError, ValueError) as exc:
        print(f"extract_env_vars: {exc}", file=sys.stderr)
        return 1
    Path(args.out).write_text(render(scans, table, config, args.checked), encoding="utf-8")
    print(f"{len(table)} variables from {len(scans)} scans -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
