"""Extract every environment variable the ROCm stack and PyTorch read, from source at a ref.

Reads the source trees listed in ``tools/env_sources.yaml`` (git directories read at a tag
or commit without a checkout, or an installed wheel) and writes ``rules/data/env_reads.yaml``:
variable -> the places that read it, each as {project, ref, file, url}. rocm-doctor's rule
"read by nothing" (RD700) judges a set variable against this table.

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
from typing import Dict, Iterable, Iterator, List, Optional, Set, Tuple

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
_READ_MACRO = re.compile(
    r"\b(?:secure_getenv|getenv|GetEnvVar|getEnvVar|GetEnv|Getenv|read_env|ncclGetEnv|get_env|check_env|getEnvVariable)"
    r"\s*\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)"
)
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


def git_files(git_dir: str, ref: str, paths: List[str]) -> Iterator[Tuple[str, str]]:
    """(path, text) of the source files under ``paths`` at ``ref`` (files git cannot read are skipped)."""
    listing = _git(git_dir, "ls-tree", "-r", "--name-only", ref, "--", *paths)
    for path in sorted(listing.splitlines()):
        if not path.endswith(SUFFIXES):
            continue
        result = subprocess.run(
            ["git", "--git-dir", git_dir, "cat-file", "-p", f"{ref}:{path}"],
            capture_output=True, timeout=GIT_TIMEOUT, check=False,
        )
        if result.returncode == 0:
            yield path, result.stdout.decode("utf-8", "replace")


def dir_files(root: Path, paths: List[str]) -> Iterator[Tuple[str, str]]:
    for sub in paths:
        base = root / sub
        for file in sorted(base.rglob("*")) if base.is_dir() else []:
            if file.is_file() and file.suffix in SUFFIXES:
                yield file.relative_to(root).as_posix(), file.read_text(encoding="utf-8", errors="replace")


def _mapped(path: str, mapping: Dict[str, str]) -> str:
    for prefix in sorted(mapping, key=len, reverse=True):
        if path.startswith(prefix):
            return mapping[prefix] + path[len(prefix):]
    return path


def extract(sources: List[dict], fill: Dict[str, str]) -> Dict[str, List[dict]]:
    """variable -> reads, over every source."""
    table: Dict[str, List[dict]] = {}
    for source in sources:
        mapping = source.get("map") or {}
        if "git" in source:
            files: Iterable[Tuple[str, str]] = git_files(source["git"].format(**fill), source["ref"], source["paths"])
        else:
            files = dir_files(Path(source["dir"].format(**fill)), source["paths"])
        for path, text in files:
            repo_path = _mapped(path, mapping)
            for name in sorted(reads_in_text(path, text)):
                table.setdefault(name, []).append(
                    {"project": source["project"], "ref": source["ref"], "file": repo_path, "url": f"{source['url']}/{repo_path}"}
                )
    return {name: table[name] for name in sorted(table)}


HEADER = """# GENERATED by tools/extract_env_vars.py from the sources in tools/env_sources.yaml; do not edit.
# Every environment variable that a listed ROCm component or PyTorch reads, with the file that
# reads it at a named tag or commit. A name ending in _<N> is a family (X_0, X_1 ...).
# rocm-doctor reports a set variable with one of judged_prefixes that is neither here nor in
# env_vars.yaml as read by nothing (RD700).
"""


def render(table: Dict[str, List[dict]], sources: List[dict], checked: str, judged: List[str], unjudged: List[str]) -> str:
    document = {
        "checked": checked,
        "against": [f"https://github.com/{s['repo']}/tree/{s['ref']}" for s in sources],
        "judged_prefixes": list(judged),
        "unjudged_prefixes": list(unjudged),
        "sources": [{"project": s["project"], "repo": s["repo"], "ref": s["ref"]} for s in sources],
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
    sources = config["sources"]
    try:
        table = extract(sources, {"mirror": args.mirror, "torch": args.torch})
    except (RuntimeError, subprocess.TimeoutExpired, OSError) as exc:
        print(f"extract_env_vars: {exc}", file=sys.stderr)
        return 1
    Path(args.out).write_text(render(table, sources, args.checked, config.get("judged_prefixes") or [], config.get("unjudged_prefixes") or []), encoding="utf-8")
    print(f"{len(table)} variables from {len(sources)} sources -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
