"""Meaning-preserving rewrites of a pasted report, and whether ``check --from`` keeps its diagnosis.

Each rewrite changes how a report is written, not what it says: wrapped at 80 columns, CRLF line
ends, Markdown fences stripped or added, quoted with ``> ``, indented, its blocks in another order,
Windows paths with the other separator and a space in the user's folder name, uv's resolver wording
for pip's, ROCm versions spelled ``6.2``/``6.2.0``/``rocm6.2``, unrelated log lines added. A rewrite
that does not apply to a report (no path, no pip message) is not counted for it.

The diagnosis compared is what a maintainer reads: the first error or warning and the set of
error and warning findings, as rule ids. Used by ``tests/ingest/test_metamorphic.py`` (a sample)
and ``benchmarks/metamorphic.py`` (every case).
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Tuple

Diagnosis = Tuple[Optional[str], frozenset]


def diagnose(text: str, rules: list) -> Diagnosis:
    from rocm_doctor.ingest import ingest_text
    from rocm_doctor.pipeline import evaluate

    findings = evaluate(rules, ingest_text(text, origin_detail="metamorphic").facts).findings
    serious = [f.id for f in findings if f.severity in ("error", "warning")]
    return (serious[0] if serious else None, frozenset(serious))


def wrap80(text: str) -> str:
    """Hard-wrap prose lines at 80 columns, as an editor or a narrow terminal does; lines without
    spaces (paths, URLs) and lines inside code fences stay whole."""
    out: List[str] = []
    fenced = False
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        if fenced or len(line) <= 80 or " " not in line.strip():
            out.append(line)
            continue
        out.extend(textwrap.wrap(line, 80, break_long_words=False, break_on_hyphens=False) or [line])
    return "\n".join(out)


def crlf(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\n", "\r\n")


_FENCE = re.compile(r"^[ \t]*```[^\n`]*$", re.MULTILINE)


def strip_fences(text: str) -> str:
    return _FENCE.sub("", text)


def add_fences(text: str) -> str:
    """The whole report fenced as console output; a report with Markdown structure of its own (fences,
    ``<details>``) is left alone, since a fence around it would close early or hide that structure."""
    if "```" in text or "~~~" in text or "<details" in text.lower():
        return text
    return "```console\n" + text.rstrip("\n") + "\n```\n"


def quote(text: str) -> str:
    """The whole report quoted, as when a maintainer replies with the reporter's text."""
    return "\n".join("> " + line if line else ">" for line in text.split("\n"))


def indent(text: str) -> str:
    return "\n".join("    " + line if line else line for line in text.split("\n"))


def _blocks(text: str) -> List[str]:
    """Blank-line separated blocks, never cutting a fenced block in two."""
    blocks: List[str] = []
    current: List[str] = []
    fenced = False
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        if not line.strip() and not fenced:
            if current:
                blocks.append("\n".join(current))
                current = []
            continue
        current.append(line)
    if current:
        blocks.append("\n".join(current))
    return blocks


_PAST = re.compile(r"\b(?:before|previous(?:ly)?|used to|last work|worked|old|other machine|earlier|downgrad)", re.IGNORECASE)
_CHANGE = re.compile(r"\b(?:chang|replac|switch)\w*\b[^\n]*(?:\bto\b|\bwith\b|:)\s*$", re.IGNORECASE | re.MULTILINE)
"""A block that introduces a change ("change the line:", then the old value, "to", the new one): the
order of the blocks after it says which value is the old one, as a past marker does."""


def reorder_blocks(text: str) -> str:
    """The last block moved to the front (blocks that speak of the past or introduce a change stay
    where they are, since their place can be what marks them as past or as the new value)."""
    blocks = _blocks(text)
    if len(blocks) < 3 or any(_PAST.search(b) or _CHANGE.search(b) for b in blocks):
        return text
    return "\n\n".join([blocks[-1]] + blocks[:-1]) + "\n"


_WIN_PATH = re.compile(r"\b([A-Za-z]):\\((?:[^\\\s\"'<>|]+\\)*[^\\\s\"'<>|]*)")
_USERS = re.compile(r"(?i)\b([A-Za-z]:[\\/]Users[\\/])([^\\/\s\"']+)")


def windows_paths(text: str) -> str:
    """Windows paths with forward slashes, and a space in the user's folder name."""
    text = _USERS.sub(lambda m: m.group(1) + m.group(2) + " Smith", text)
    return _WIN_PATH.sub(lambda m: m.group(1) + ":/" + m.group(2).replace("\\", "/"), text)


_PIP_NO_VERSION = re.compile(
    r"^(?P<lead>[ \t>]*)ERROR: Could not find a version that satisfies the requirement (?P<req>\S+)[^\n]*\n"
    r"(?P=lead)ERROR: No matching distribution found for (?P<req2>\S+)[^\n]*$",
    re.MULTILINE,
)


def uv_wording(text: str) -> str:
    """pip's "no matching distribution" in uv's words; ``pip install`` run through uv."""
    def uv(m: "re.Match[str]") -> str:
        name = re.split(r"[<>=!~\[;]", m.group("req"))[0]
        lead = m.group("lead")
        return (
            f"{lead}  × No solution found when resolving dependencies:\n"
            f"{lead}  ╰─▶ Because {name} was not found in the package registry and you require {name}, we can"
            f" conclude that your requirements are unsatisfiable."
        )

    text = _PIP_NO_VERSION.sub(uv, text)
    return re.sub(r"(?m)(^|[$>] )pip3? install ", r"\1uv pip install ", text)


_ROCM_SHORT = re.compile(r"\b(ROCm|rocm|ROCM)( ?)(\d)\.(\d)(?![\d.])")


def version_spelling(text: str) -> str:
    """``ROCm 6.2`` spelled ``ROCm 6.2.0`` in prose (index URLs keep theirs)."""
    out = []
    for line in text.split("\n"):
        if "://" in line:
            out.append(line)
            continue
        out.append(_ROCM_SHORT.sub(lambda m: f"{m.group(1)}{m.group(2)}{m.group(3)}.{m.group(4)}.0", line))
    return "\n".join(out)


_ROCM_SPACED = re.compile(r"\bROCm ?(\d)\.(\d)(?:\.0)?(?![\d.])")


def version_compact(text: str) -> str:
    """``ROCm 6.2`` (or ``ROCm 6.2.0``) spelled ``rocm6.2`` in prose, as in wheel tags and index names."""
    out = []
    for line in text.split("\n"):
        out.append(line if "://" in line else _ROCM_SPACED.sub(lambda m: f"rocm{m.group(1)}.{m.group(2)}", line))
    return "\n".join(out)


NOISE = (
    "INFO:     Started server process [41235]",
    "Downloading shards: 100%|##########| 2/2 [00:04<00:00,  2.10s/it]",
    "2024-05-02 10:14:07,512 - root - INFO - loading config from settings.json",
    "Total VRAM usage estimate: see the model card",
)


def _introduces(line: str) -> bool:
    """A Markdown heading or a label ending in ':' introduces what follows the blank line after it
    (an issue template's ``### GPU`` then ``AMD``): log lines there would separate the two."""
    stripped = line.strip()
    return stripped.startswith("#") or stripped.endswith(":")


def unrelated_lines(text: str) -> str:
    """Two unrelated log lines at the start and two at the block break nearest the middle (between a
    heading and its value they would change what the report says), or at the end without a break."""
    lines = text.split("\n")
    middle = len(lines) // 2
    fenced, breaks, last = False, [], ""
    for number, line in enumerate(lines):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        elif not line.strip() and not fenced:
            if not _introduces(last):
                breaks.append(number)
            continue
        last = line
    at = min(breaks, key=lambda number: abs(number - middle)) if breaks else len(lines)
    return "\n".join(list(NOISE[:2]) + lines[:at] + [""] + list(NOISE[2:]) + lines[at:])


def _outside_fences(text: str, rewrite: Callable[[str], str]) -> str:
    out, fenced = [], False
    for line in text.split("\n"):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            out.append(line)
            continue
        out.append(line if fenced else rewrite(line))
    return "\n".join(out)


_DOUBLE_QUOTED = re.compile(r'"([^"\n]*)"')
_APOSTROPHE = re.compile(r"(?<=\w)'(?=\w)")


def curly_quotes(text: str) -> str:
    """Prose typed on a phone or in a word processor: curly double quotes and apostrophes (fenced output keeps its own)."""
    return _outside_fences(text, lambda line: _APOSTROPHE.sub("\u2019", _DOUBLE_QUOTED.sub("\u201c\\1\u201d", line)))


_WORD_SPACE_NUMBER = re.compile(r"(?<=[A-Za-z]) (?=\d)")


def no_break_spaces(text: str) -> str:
    """Prose copied from a rendered page: a no-break space between a name and its number ("ROCm\u00a06.2")."""
    return _outside_fences(text, lambda line: _WORD_SPACE_NUMBER.sub("\u00a0", line))


# --- h36g ---
_OUTPUT_LINE = re.compile(
    r"^[ \t]*(?:\d{4}-\d\d-\d\d|\d\d:\d\d|\[|>>>|\$ |# |/|~/|[A-Za-z]:[\\/]|Traceback|File \"|[A-Za-z][\w .()/-]{0,40}:[ \t])"
)
"""A line as a program prints it (a timestamp, ``[``, a REPL or shell prompt, a path, a traceback, a tool's
``key: value``): what a program prints is not respelled by users, and a prompt's command is a transcript's."""


def _prose_lines(text: str, rewrite: Callable[[str], str]) -> str:
    """``rewrite`` applied to the lines a person typed: outside fences, and not a line that looks like output."""
    return _outside_fences(text, lambda line: line if _OUTPUT_LINE.match(line) else rewrite(line))


_STACK_NAME = r"(?:HSA|HIP|ROCR|ROCM|AMD|ROCBLAS|MIOPEN|PYTORCH|TORCH|GPU|OLLAMA|HCC)_[A-Z0-9_]{1,64}"
_PLAIN_VALUE = r"[A-Za-z0-9._:,/+-]{1,128}"
"""A value that means the same quoted or not (no blank, no quote, no shell character)."""
_OTHER_SYNTAX = re.compile(r"\$env:|^[ \t`]*setx?\s|\bsetx\s|\bset\s+-[a-zA-Z]|Environment|\bENV\b|os\.environ|docker|podman|\s-e\s|--env", re.IGNORECASE)
"""A line in another syntax (PowerShell, cmd, fish, systemd, Dockerfile, Python, a container's options): its
scope and quoting rules are its own, so it is not respelled in the shell's forms."""
_EXPORT_PLAIN = re.compile(rf"(?<![^\s`(;])export[ \t]+({_STACK_NAME})=({_PLAIN_VALUE})(?=[\s`;]|$)")
_EXPORT_QUOTED = re.compile(rf"(?<![^\s`(;])export[ \t]+({_STACK_NAME})=\"({_PLAIN_VALUE})\"(?=[\s`;]|$)")
_PREFIX_PLAIN = re.compile(rf"^([ \t`]*)({_STACK_NAME})=({_PLAIN_VALUE})([ \t]+)(?!(?:on|for|in|with|and|but|or|is|was|does|did|to|as|at|from|since|because|when|so|also|too|works?|worked|fixed|helps?|helped|makes?|made|still|not|the|my|it)\b)(?=[a-z./~][\w./~-]*(?:[ \t`]|$))")
_SET_PROSE = re.compile(rf"(?<=\w )(set|setting)( `?)({_STACK_NAME})=({_PLAIN_VALUE})(`?)(?=[\s,;)]|\.(?:\s|$)|$)", re.IGNORECASE)
_SET_TO = re.compile(rf"(?<=\w )(set|setting)( `?)({_STACK_NAME})(`? to `?)({_PLAIN_VALUE})(?<![.,])(`?)(?=[\s,;)]|\.(?:\s|$)|$)", re.IGNORECASE)

_SPACED = re.compile(rf"(?<=[a-z,] )({_STACK_NAME})=({_PLAIN_VALUE})(?=[ ,;)]|\.(?: |$)|$)")
"""``NAME=value`` inside a sentence ("with HSA_OVERRIDE_GFX_VERSION=10.3.0 it works"), never a line's command."""


def _env_line(line: str) -> str:
    if _OTHER_SYNTAX.search(line):
        return line
    line = _EXPORT_QUOTED.sub(lambda m: f"export {m.group(1)}={m.group(2)}", line) if '"' in line else \
        _EXPORT_PLAIN.sub(lambda m: f'export {m.group(1)}="{m.group(2)}"', line)
    line = _PREFIX_PLAIN.sub(lambda m: f'{m.group(1)}{m.group(2)}="{m.group(3)}"{m.group(4)}', line)
    said = _SET_PROSE.sub(lambda m: f"{m.group(1)}{m.group(2)}{m.group(3)}{m.group(5)} to {m.group(4)}", line)
    if said != line:
        return said
    if "=" in line:
        return _SPACED.sub(lambda m: f"{m.group(1)} = {m.group(2)}", line) if "`" not in line and "export" not in line else line
    return _SET_TO.sub(_set_assignment, line)


def _set_assignment(m: "re.Match[str]") -> str:
    """"set `NAME` to `value`" -> "set `NAME=value`"; "set NAME to value" -> "set NAME=value"."""
    code = "`" in m.group(2) or "`" in m.group(4) or m.group(6)
    return f"{m.group(1)} {'`' if code else ''}{m.group(3)}={m.group(5)}{'`' if code else ''}"


def env_var_forms(text: str) -> str:
    """A variable of the GPU stack set in its other spellings of the same scope: ``export NAME=value`` with the
    value quoted (or a quoted simple value unquoted), a command's ``NAME=value program`` prefix with the value
    quoted (still that one command), and in prose "I set NAME=value" as "I set NAME to value" (and back). A
    Windows ``set``/``$env:``, a Dockerfile, a unit or a container option is never respelled in a shell's form:
    that would move the setting to another scope or platform."""
    return _prose_lines(text, _env_line)


_PIP_RUN = re.compile(r"(?<![\w./-])(?<!uv )(?<!-m )(pip3?|python3? -m pip)[ \t]+install\b")
_INDEX_OPTION = re.compile(r"(?<![\w-])(--(?:extra-)?index-url)(?:=|[ \t]+)(https?://[^\s`'\"]+)")
"""``pip`` run by another name; ``venv/bin/python -m pip`` or ``py -m pip`` (an interpreter of its own) is left as it is."""
_NEXT_LAUNCHER = {"pip": "pip3", "pip3": "python -m pip", "python -m pip": "python3 -m pip", "python3 -m pip": "pip"}


def _pip_line(line: str) -> str:
    run = _PIP_RUN.search(line)
    if run is None:
        return line
    # the command runs to the end of the line or to its inline code's closing backtick
    end = line.find("`", run.end())
    end = len(line) if end < 0 else end
    command = line[run.end() : end]
    if command.rstrip().endswith(("\\", "^")):
        return line
    options = list(_INDEX_OPTION.finditer(command))
    rest = _INDEX_OPTION.sub("", command)
    rest = re.sub(r"[ \t]{2,}", " ", rest).rstrip()
    if options:
        leading = command.startswith((" --index-url", " --extra-index-url"))
        moved = " ".join(f"{m.group(1)}={m.group(2)}" if " " in m.group(0) or "\t" in m.group(0) else f"{m.group(1)} {m.group(2)}" for m in options)
        # an option before the packages moves after them, one after them moves before: pip reads both the same
        command = f"{rest} {moved}" if leading else f" {moved}{rest}"
    launcher = _NEXT_LAUNCHER[re.sub(r"[ \t]+", " ", run.group(1))]
    return line[: run.start()] + f"{launcher} install" + command + line[end:]


def pip_command_forms(text: str) -> str:
    """``pip install`` written the other ways that run the same install: ``pip``/``pip3``/``python -m pip``, an
    index option with ``=`` or a space, before or after the packages. ``--index-url`` stays ``--index-url`` and
    ``--extra-index-url`` stays ``--extra-index-url`` (one replaces PyPI, the other adds to it); ``uv pip`` is
    left as it is; a command continued on the next line is left whole."""
    return _prose_lines(text, _pip_line)


_CONTAINER_RUN = re.compile(r"\b(?:docker|podman)[ \t]+(?:container[ \t]+)?(?:run|create)\b")
_DEVICE_OPTION = re.compile(r"(?<![\w-])--device(=|[ \t]+)(/dev/\S+?)(?=[\s`\\]|$)")
_GROUP_OPTION = re.compile(r"(?<![\w-])--group-add(=|[ \t]+)([\w-]+)(?=[\s`\\]|$)")
_ENV_OPTION = re.compile(r"(?<![\w-])(-e|--env)(=|[ \t]+)([A-Z][A-Z0-9_]*=\S*?)(?=[\s`\\]|$)")


def _other_separator(m: "re.Match[str]", option: str) -> str:
    return f"{option} {m.group(2)}" if m.group(1) == "=" else f"{option}={m.group(2)}"


def _env_option(m: "re.Match[str]") -> str:
    """``-e A=1`` -> ``--env A=1`` -> ``--env=A=1`` -> ``-e A=1``."""
    if m.group(1) == "-e":
        return f"--env {m.group(3)}"
    return f"--env={m.group(3)}" if m.group(2) != "=" else f"-e {m.group(3)}"


def _container_line(line: str) -> str:
    line = _DEVICE_OPTION.sub(lambda m: _other_separator(m, "--device"), line)
    line = _GROUP_OPTION.sub(lambda m: _other_separator(m, "--group-add"), line)
    return _ENV_OPTION.sub(_env_option, line)


def docker_option_forms(text: str) -> str:
    """``docker run`` / ``podman run`` options in their other spellings (docker's CLI reads ``--opt value`` and
    ``--opt=value`` alike): ``--device=/dev/kfd`` / ``--device /dev/kfd``, ``--group-add video`` /
    ``--group-add=video``, ``-e NAME=value`` / ``--env NAME=value`` / ``--env=NAME=value``. Lines of a command
    continued with ``\\`` are respelled with it; what follows the command on other lines is not."""
    continuing = False

    def rewrite(line: str) -> str:
        nonlocal continuing
        starts = _CONTAINER_RUN.search(line) is not None
        inside = starts or continuing
        continuing = inside and line.rstrip().endswith("\\")
        return _container_line(line) if inside else line

    return _prose_lines(text, rewrite)


REWRITES: Dict[str, Callable[[str], str]] = {
    "wrap at 80 columns": wrap80,
    "CRLF line ends": crlf,
    "strip Markdown fences": strip_fences,
    "add Markdown fences": add_fences,
    "quote with '> '": quote,
    "indent by 4": indent,
    "reorder blocks": reorder_blocks,
    "Windows path forms": windows_paths,
    "uv wording for pip": uv_wording,
    "ROCm version spelling": version_spelling,
    "ROCm version as rocmX.Y": version_compact,
    "unrelated log lines": unrelated_lines,
    "curly quotes": curly_quotes,
    "no-break spaces": no_break_spaces,
    "environment variable forms": env_var_forms,
    "pip install command forms": pip_command_forms,
    "docker run option forms": docker_option_forms,
}


@dataclass(frozen=True)
class Kept:
    kind: str
    case_id: str
    kept: bool
    before: Diagnosis
    after: Diagnosis


def check_case(case: dict, rules: list, kinds: Sequence[str]) -> List[Kept]:
    text = case["report"]
    before = diagnose(text, rules)
    results = []
    for kind in kinds:
        rewritten = REWRITES[kind](text)
        if rewritten == text:
            continue
        after = diagnose(rewritten, rules)
        results.append(Kept(kind, case["id"], after == before, before, after))
    return results


def table(results: Sequence[Kept]) -> str:
    width = max(24, *(len(kind) for kind in REWRITES))
    lines = [f"{'rewrite':<{width}} {'kept':>11} {'share':>7}", "-" * (width + 20)]
    for kind in REWRITES:
        members = [r for r in results if r.kind == kind]
        if not members:
            lines.append(f"{kind:<{width}} {'-':>11} {'-':>7}")
            continue
        kept = sum(r.kept for r in members)
        lines.append(f"{kind:<{width}} {kept:>5}/{len(members):<5} {kept / len(members):>7.0%}")
    total = len(results)
    kept = sum(r.kept for r in results)
    lines.append(f"{'ALL':<{width}} {kept:>5}/{total:<5} {(kept / total if total else 1):>7.0%}")
    return "\n".join(lines)
