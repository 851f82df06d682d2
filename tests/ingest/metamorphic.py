"""Meaning-preserving rewrites of a pasted report, and whether ``check --from`` keeps its diagnosis.

Each rewrite changes how a report is written, not what it says: wrapped at 80 columns, CRLF line
ends, Markdown fences stripped or added, quoted with ``> ``, indented, its blocks in another order,
Windows paths with the other separator and a space in the user's folder name, uv's resolver wording
for pip's, ROCm versions spelled ``6.2``/``6.2.0``/``rocm6.2``, unrelated log lines added, curly quotes
and no-break spaces, words in prose set in bold or italics, names set as inline code, product names in lower case, full-width
punctuation (session 49); and the same thing spelled as different people type it in prose (h36d, h36e, h36g,
h36i): GPU names, platform names, torch versions, what ``torch.cuda.is_available()`` gave, an environment
variable's assignment, a pip install command, docker run options, the ROCm release and the Linux kernel
(lines a program printed keep their spelling); and the recognised error quoted in a sentence (h36j), added on top or
for a line that holds nothing but the message. A rewrite that does not apply to a report (no path, no pip message) is not counted for it.

The diagnosis compared is what a maintainer reads: the first error or warning and the set of
error and warning findings, as rule ids. The facts a rule may judge (:func:`facts_read`) are compared
as well: a rewrite can drop a fact without changing the diagnosis, because most rules need two facts
together. Used by ``tests/ingest/test_metamorphic.py`` (a sample) and ``benchmarks/metamorphic.py``
(every case).
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Tuple

Diagnosis = Tuple[Optional[str], frozenset]
FactsRead = Tuple[object, ...]


def _version(value: object) -> object:
    """``6.2``, ``6.2.0`` and ``rocm6.2`` are one release (the version-spelling rewrites change nothing else)."""
    text = str(value).lower().removeprefix("rocm")
    return re.sub(r"(?:\.0)+$", "", text)


def _torch_version(value: object) -> object:
    """``2.2.1+rocm5.7`` and ``2.2.1+rocm5.7.0`` name one wheel's ROCm series."""
    return None if value is None else re.sub(r"(\+rocm\d+\.\d+)(?:\.0)+$", r"\1", str(value))


SAME_OUTCOME = {"no_torch_for_this_python_resolver": "no_torch_for_this_python"}
"""Signatures that name one outcome in two tools' words (uv's or poetry's "Because torch was not found in the package
registry" is pip's "No matching distribution found for torch"): the uv-wording rewrite changes the tool's words, not
the outcome."""


def facts_read(facts) -> FactsRead:
    """What the readers took from a report that a rule may judge: the GPUs' targets, torch's version and build,
    the ROCm release, the platform and its kernel, the variables set, the signatures and contexts. A rewrite that keeps the
    diagnosis can still drop one of these (most rules need two facts together), so it is compared on its own."""
    known = lambda fact: fact.value if fact.is_known else None  # noqa: E731
    listed = lambda fact: frozenset(fact.value) if fact.is_known and fact.value else frozenset()  # noqa: E731
    env = facts.env.vars
    return (
        frozenset(str(a.gfx.value) for a in facts.gpus.agents if a.gfx.is_known),
        _torch_version(known(facts.torch.version)),
        known(facts.torch.flavour),
        _version(known(facts.rocm.version)),
        known(facts.host.os),
        known(facts.host.wsl_version),
        known(facts.host.distro_id),
        _version(known(facts.host.distro_version)),
        frozenset((str(k), str(v)) for k, v in env.value.items()) if env.is_known and isinstance(env.value, dict) else frozenset(),
        frozenset(SAME_OUTCOME.get(s, s) for s in listed(facts.symptoms.signatures)),
        listed(facts.symptoms.context),
        known(facts.host.kernel_release),
    )


def read_and_diagnose(text: str, rules: list) -> Tuple[FactsRead, Diagnosis]:
    from rocm_doctor.ingest import ingest_text
    from rocm_doctor.pipeline import evaluate

    facts = ingest_text(text, origin_detail="metamorphic").facts
    findings = evaluate(rules, facts).findings
    serious = [f.id for f in findings if f.severity in ("error", "warning")]
    return facts_read(facts), (serious[0] if serious else None, frozenset(serious))


def diagnose(text: str, rules: list) -> Diagnosis:
    return read_and_diagnose(text, rules)[1]


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


_GOES_ON = re.compile(r"^[ \t>]*[a-z]")
"""A block that opens in lower case after a fenced block goes on with the sentence the fence interrupted ("And then",
a fenced command, then "returns `False`, while ..."; ROCm/ROCm-docker#114)."""


def _units(blocks: List[str]) -> List[str]:
    """Blocks as units for reordering: a block that goes on with the sentence the block before it left open at its
    closing fence (:data:`_GOES_ON`) stays after that block, since on its own, or first in the report, it would
    answer nothing (mend59: "returns `False`" moved to the front no longer says what the command gave)."""
    units: List[str] = []
    for block in blocks:
        if units and units[-1].rstrip().endswith(("```", "~~~")) and _GOES_ON.match(block):
            units[-1] += "\n\n" + block
        else:
            units.append(block)
    return units


def reorder_blocks(text: str) -> str:
    """The last block moved to the front (blocks that speak of the past or introduce a change stay
    where they are, since their place can be what marks them as past or as the new value). A sentence
    that a fenced block interrupts moves as one unit with it (:func:`_units`)."""
    blocks = _blocks(text)
    if len(blocks) < 3 or any(_PAST.search(b) or _CHANGE.search(b) for b in blocks):
        return text
    units = _units(blocks)
    if len(units) < 3:
        return text
    return "\n\n".join([units[-1]] + units[:-1]) + "\n"


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


_ROCM_SHORT = re.compile(r"(?<!\+)\b(ROCm|rocm|ROCM)( ?)(\d)\.(\d)(?![\d.])")
"""Not after ``+``: a wheel's local version label (``2.8.0.dev20250529+rocm6.4``) is the build's name as pip and torch
print it, not a spelling. It says how much of the release the build names: download.pytorch.org's ``+rocm6.4`` names
a series, ``+rocm6.2.4``, ``+rocm5.4.2``, AMD's ``+rocm6.4.1.git1ded221d`` and TheRock's ``+rocm7.13.0`` a patch
release, which RD725 compares with the system's (meta57: ``+rocm6.4`` respelled ``+rocm6.4.0`` on a WSL2 system
with 6.4.1 made a patch mismatch the report does not show, rocm-4864)."""


def version_spelling(text: str) -> str:
    """``ROCm 6.2`` spelled ``ROCm 6.2.0`` in prose (index URLs and wheels' version labels keep theirs)."""
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


_EMPHASISED = re.compile(
    r"(?<![\w*/\\])(ROCm(?: \d+(?:\.\d+){0,2})?|CUDA|CPU|GPU|iGPU|PyTorch|torch|Windows(?: 1[01])?|Linux|WSL2?|ollama|HIP SDK"
    r"|(?:Radeon )?RX \d{3,4}(?: XTX?)?|gfx\d{3,4}|render group|/dev/kfd|HSA_OVERRIDE_GFX_VERSION)(?![\w*])"
)


_CODE_SPAN = re.compile(r"`[^`\n]{1,400}`")


def _emphasised(line: str, marks: str) -> str:
    """``line`` with the words that matter between ``marks``, outside inline code (Markdown sets no emphasis there, so
    nobody types it there) and not a path's component (``site-packages/torch``)."""
    parts = _CODE_SPAN.split(line)
    codes = _CODE_SPAN.findall(line)
    out = [_EMPHASISED.sub(marks + r"\1" + marks, part) for part in parts]
    return "".join(part + (codes[i] if i < len(codes) else "") for i, part in enumerate(out))


def bold_emphasis(text: str) -> str:
    """Prose written in GitHub's editor: the words that matter set in bold ("installs the **CUDA** wheel", "my **RX 7900
    XTX**"); what a program printed, commands and fenced output keep their spelling."""
    return _prose_lines(text, lambda line, counters: _emphasised(line, "**"))


_CODE_NAMES = re.compile(
    r"(?<![\w*`])(ROCm(?: \d+(?:\.\d+){0,2})?|CUDA|CPU|GPU|iGPU|PyTorch|torch|Windows(?: 1[01])?|Linux|WSL2?|ollama|HIP SDK"
    r"|(?:Radeon )?RX \d{3,4}(?: XTX?)?|gfx\d{3,4})(?![\w*`])"
)


def inline_code(text: str) -> str:
    """Prose written in GitHub's editor: product, platform and version names set as inline code ("runs on the `CPU`",
    "my GPU is `gfx1100`", "with `ROCm 6.2`")."""
    return _prose_lines(text, lambda line, counters: _CODE_NAMES.sub(r"`\1`", line))


def italic_emphasis(text: str) -> str:
    """Prose with the words that matter in italics ("runs on the *CPU*", "my *RX 7900 XTX*")."""
    return _prose_lines(text, lambda line, counters: _emphasised(line, "*"))


_NAMES_TO_LOWER = re.compile(r"\b(ROCm|PyTorch|AMD|Radeon|Ubuntu|Windows|Linux|NVIDIA|CUDA|Fedora|Arch)\b")


def lower_case_names(text: str) -> str:
    """Prose typed in a hurry: product names in lower case ("rocm 6.2", "pytorch", "amd radeon rx 6800", "ubuntu 22.04")."""
    return _prose_lines(text, lambda line, counters: _NAMES_TO_LOWER.sub(lambda m: m.group(1).lower(), line))


_FULL_WIDTH_PUNCTUATION = str.maketrans({":": "\uff1a", ",": "\uff0c", "(": "\uff08", ")": "\uff09", ";": "\uff1b", "!": "\uff01", "?": "\uff1f"})


def full_width_punctuation(text: str) -> str:
    """Prose typed with a Chinese or Japanese input method: full-width colons, commas, brackets and marks ("显卡：RX 7900")."""
    return _prose_lines(text, lambda line, counters: line.translate(_FULL_WIDTH_PUNCTUATION))


# Which lines a rewrite may touch: one predicate for every kind. What a program printed (fenced or indented
# blocks, log and traceback lines, prompts, a tool's "key: value" lines) keeps its spelling, since a user
# does not retype it; commands keep theirs except under the kinds that respell commands. Each spelling
# the kinds below use is one that real reports use (sources cited).

_PRINTED = re.compile(
    r"^\s*(?:>\s*)*(?:\d{4}-\d\d-\d\d|\d\d:\d\d|\[|>>>|\.\.\.|\$ |# |PS |In \[|Out\[|[~/\\]|\./|[A-Za-z]:[\\/]"
    r"|Traceback\b|File \"|[A-Z]\w* ?\w*Error\b)"
    r"|^\s*(?:>\s*)*[\w .()/+-]{1,40}:\s"  # a tool's (or a template's) "key: value" line
    r"|^\s*(?:>\s*)*(?:[0-9a-f]{2,4}:[0-9a-f]{2}\.\d|[\w.-]+\s?=\s)"  # an lspci slot, a "key = value" field
    r"|\b(?:ERROR|WARNING|INFO|DEBUG|Error|Exception)\b[:\]]|\((?:radeonsi|RADV)\b"
)
"""A line a program printed: a timestamp, ``[``, a REPL or shell prompt (its command is a transcript's), a path, a
traceback, a ``Key: value`` or ``key = value`` field, IPython's ``Out[6]:``, an lspci slot, a log level, Mesa's
renderer string (``(radeonsi, gfx1201, ...)``). Users respell what they type, never what a tool printed."""

_OUTPUT_LAYOUT = re.compile(r"^(?: {4}|\t)|\S {2,}\S|\t|\|")
"""An indented code block, columns aligned with runs of spaces or tabs, a table row: how a tool's output is laid out,
and also how a long command is (continuation lines indented, options spaced apart)."""

_TYPED_COMMAND = re.compile(
    r"^\s*(?:>\s*)*(?:sudo|pip3?|uv|conda|python3?|docker|podman|apt(?:-get)?|dnf|pacman|export|set|wsl)\b"
    r"|\b(?:pip3?|uv|conda)\s+install\b|--[a-z]|://|=="
)
"""A command a user typed (or a URL): a user who retypes a command does it in the command's own syntax."""


def keeps_spelling(line: str, commands_too: bool = True) -> bool:
    """Whether a rewrite leaves ``line`` as it is: one predicate for every kind. Every kind keeps what a program
    printed; a kind that respells prose (``commands_too``) also keeps commands, URLs and anything laid out like
    output; a kind that respells commands reads a command's layout as typed."""
    if _PRINTED.search(line):
        return True
    return commands_too and bool(_OUTPUT_LAYOUT.search(line) or _TYPED_COMMAND.search(line))


def _prose_lines(text: str, rewrite: Callable[[str, Dict[str, int]], str]) -> str:
    """``rewrite(line, counters)`` applied to prose lines outside fences; ``counters`` (one per name, kept over
    the report) let a rewrite cycle through each name's spellings in a fixed order, so each report is
    respelled the same way every run."""
    out: List[str] = []
    fenced = False
    counters: Dict[str, int] = {}
    for line in text.split("\n"):
        if line.lstrip().lstrip(">").lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            out.append(line)
            continue
        out.append(line if fenced or keeps_spelling(line) else rewrite(line, counters))
    return "\n".join(out)


def _cycle(counters: Dict[str, int], spellings: Sequence[str]) -> str:
    """The next of ``spellings`` (each list has its own place in ``counters``)."""
    key = spellings[0]
    count = counters.get(key, 0)
    counters[key] = count + 1
    return spellings[count % len(spellings)]


_PROSE_WINDOWS = re.compile(r"\bWindows (1[01])\b(?![.\d])")
_PROSE_WSL2 = re.compile(r"(?<![-.\w])WSL2\b(?![-.\w])")  # not inside a kernel release ("5.15.167.4-microsoft-standard-WSL2")
_PROSE_UBUNTU = re.compile(r"\bUbuntu (\d\d\.\d\d)(?![.\d])( LTS\b)?")
_PROSE_FEDORA = re.compile(r"\bFedora (\d\d)\b(?![.\d])")
_PROSE_ARCH = re.compile(r"\b(on|running|using|under|with|use) Arch Linux\b")


def platform_spellings(text: str) -> str:
    """The platform in prose as users spell it, each name's spellings in turn: ``Windows 11`` as ``Win11``,
    ``win 11``, ``Windows11``, ``windows 11``; ``WSL2`` as ``WSL 2``, ``wsl2``; ``Ubuntu 22.04`` as ``ubuntu 22.04``,
    ``Ubuntu-22.04``; ``Fedora 41`` as ``fedora 41``; "on Arch Linux" as "on Arch". Real reports that write
    them (ROCm/legacy-rocm-build as L): "win 11 pro" (lmstudio-bug-tracker#1899), "Windows11" (L#4040),
    "...-Win10-Win11-For-HIP.exe" (L#2679, ROCm/rocm-examples#184),
    "windows 11" (ollama/ollama#7721, ROCm/hip#3810, vosen/ZLUDA#322); "WSL 2" (robertrosenbusch/gfx803_rocm#28,
    microsoft/WSL#40988, ROCm/hip#2867), "wsl2" (ollama/ollama#7128, L#1853); "ubuntu 22.04" (ollama/ollama#6152,
    L#1973, L#1218, ultimate-rvc#168), "Ubuntu-20.04" (L#1269, ROCm/amdgpu#107, xuhuisheng/rocm-build#8);
    "fedora 41" (L#4557); "using Arch", "on Arch" (L#294, L#1458).
    Not "W11": no report here writes it."""

    def respell(line: str, counter: Dict[str, int]) -> str:
        line = _PROSE_WINDOWS.sub(lambda m: _cycle(counter, ("Win{0}", "win {0}", "Windows{0}", "windows {0}")).format(m.group(1)), line)
        line = _PROSE_WSL2.sub(lambda m: _cycle(counter, ("WSL 2", "wsl2")), line)
        line = _PROSE_UBUNTU.sub(
            lambda m: _cycle(counter, ("ubuntu {0}{1}", "Ubuntu-{0}")).format(m.group(1), m.group(2) or ""), line
        )
        line = _PROSE_FEDORA.sub(lambda m: f"fedora {m.group(1)}", line)
        return _PROSE_ARCH.sub(lambda m: f"{m.group(1)} Arch", line)

    return _prose_lines(text, respell)


_PROSE_TORCH = re.compile(r"(?<![\w.\-/=])(?:torch|PyTorch|pytorch|Pytorch)(?:\s+(?:version\s+)?v?)(\d\.\d{1,2}(?:\.\d{1,2})?(?:\+[a-z]+[\w.]*)?)(?![\w.+])")


def torch_version_spellings(text: str) -> str:
    """A torch version in prose (``torch 2.5.1+rocm6.2``) as users write it: ``torch==2.5.1+rocm6.2``,
    ``PyTorch 2.5.1+rocm6.2``, ``torch version 2.5.1+rocm6.2``, in turn."""

    def respell(line: str, counter: Dict[str, int]) -> str:
        return _PROSE_TORCH.sub(
            lambda m: _cycle(counter, ("torch=={0}", "PyTorch {0}", "torch version {0}")).format(m.group(1)), line
        )

    return _prose_lines(text, respell)


_PROSE_UNAVAILABLE = re.compile(
    r"([`'\"]?)\b(?:torch\.cuda\.|cuda\.)?is_available\(\)\1(?:\s+(?:returns|return|is returning|is|gives)\s+|\s*(?:->|=)\s*)([`'\"]?)[Ff]alse\2(?![\w`'\"])"
)


def is_available_spellings(text: str) -> str:
    """The reporter's "torch.cuda.is_available() returns False" as people write it: "... is False",
    "is_available() gives False", "`torch.cuda.is_available()` -> False", "cuda.is_available() = False", in turn."""

    def respell(line: str, counter: Dict[str, int]) -> str:
        return _PROSE_UNAVAILABLE.sub(
            lambda m: _cycle(
                counter,
                (
                    "torch.cuda.is_available() is False",
                    "is_available() gives False",
                    "`torch.cuda.is_available()` -> False",
                    "cuda.is_available() = False",
                ),
            ),
            line,
        )

    return _prose_lines(text, respell)

_PROMPT_LINE = re.compile(r"^\s*(?:>\s*)*(?:\([\w.-]+\)\s*)?(?:PS [A-Za-z]:\\[^>]*>|[\w.-]+@[\w.-]+:[^$#\n]*[$#]|\$ |# |>>> |C:\\[^>]*>)")
"""A shell, PowerShell or Python prompt: the lines under it, up to a blank line, are what the command printed (a
``Get-WmiObject win32_VideoController`` listing names each GPU on a line of its own, with nothing else to mark it)."""

_END = r"(?![\w/\\-]|\.\w)"
"""Where a name ends: not inside a word, path or file name ("RX-6800.yaml"); a full stop ending the sentence is fine."""
_GPU_PREFIX = r"(?P<prefix>(?:AMD\s+)?(?:Radeon\s+)?)"
_RX_NAME = re.compile(
    r"(?<![\w./\\-])" + _GPU_PREFIX + r"(?P<rx>RX)\s?(?P<number>\d{3,4})(?:\s?(?P<suffix>XTX|XT|GRE))?" + _END,
    re.IGNORECASE,
)
_INSTINCT_NAME = re.compile(r"(?<![\w./\\-])(?P<prefix>(?:AMD\s+)?(?:Radeon\s+)?(?:Instinct\s+)?)MI(?P<number>\d{2,3})(?P<suffix>[XA]?)" + _END)
_WORKSTATION_NAME = re.compile(r"(?<![\w./\\-])(?<!FirePro )(?P<prefix>(?i:(?:AMD\s+)?(?:Radeon\s+)?(?:PRO\s+)?))W(?P<number>5[57]00|6[3-8]00|7[5-9]00)" + _END)
"""Radeon PRO W5500-W7900 (FirePro W5100-W9100 are older cards with numbers of the same shape)."""
_CLOUD_NAME = re.compile(r"(?<![\w./\\-])(?P<prefix>(?i:(?:AMD\s+)?(?:Radeon\s+)?(?:PRO\s+)?))V(?P<number>520|620|710)" + _END)
"""Radeon PRO V520 / V620 / V710, the cloud cards (Azure, AWS) people name by their number."""
_IGPU_NAME = re.compile(r"(?<![\w./\\-])(?P<prefix>(?:AMD\s+)?Radeon\s+)(?P<number>[5-9][0-9]0M)(?P<graphics>\s+Graphics)?" + _END)
_INLINE_CODE = re.compile(r"(`+)[^`\n]*?\1")


def _rx_spelling(m: "re.Match[str]", turn: int) -> str:
    number, suffix = m.group("number"), (m.group("suffix") or "").upper()
    prefixed = bool(m.group("prefix").strip())
    variants = [f"RX{number}{suffix}", f"rx {number} {suffix.lower()}".rstrip()]
    if suffix:
        # only a name with its suffix stands without the "RX": a bare "6800" is as much a CPU or a year
        variants += [f"{number}{suffix}", f"{number} {suffix.lower()}"]
    variants.append(f"RX {number} {suffix}".rstrip() if prefixed else f"AMD Radeon RX {number} {suffix}".rstrip())
    return variants[turn % len(variants)]


def _instinct_spelling(m: "re.Match[str]", turn: int) -> str:
    name = f"MI{m.group('number')}{m.group('suffix')}"
    variants = [name.lower(), name if m.group("prefix").strip() else "Instinct " + name]
    return variants[turn % len(variants)]


def _workstation_spelling(m: "re.Match[str]", turn: int) -> str:
    number = m.group("number")
    variants = [f"W{number}", f"pro w{number}", f"Radeon PRO W{number}", f"w{number}"]
    return variants[turn % len(variants)]


def _cloud_spelling(m: "re.Match[str]", turn: int) -> str:
    number = m.group("number")
    # never to or from the bare number: alone "V620" is as often a BIOS or firmware version (the readers want "AMD",
    # "Radeon PRO" or a GPU word), so a bare one is left as written and a named one keeps a name
    if not m.group("prefix").strip():
        return m.group(0)
    variants = [f"AMD V{number}", f"Radeon PRO V{number}"]
    return variants[turn % len(variants)]


def _igpu_spelling(m: "re.Match[str]", turn: int) -> str:
    # "Radeon 780M" -> "780M" or "780M graphics": the M is kept upper case ("680m" is a length as often as a GPU)
    variants = [m.group("number"), m.group("number") + " graphics"]
    return variants[turn % len(variants)]


_RESPELLERS = ((_RX_NAME, _rx_spelling), (_INSTINCT_NAME, _instinct_spelling), (_WORKSTATION_NAME, _workstation_spelling), (_CLOUD_NAME, _cloud_spelling), (_IGPU_NAME, _igpu_spelling))


def gpu_name_spellings(text: str) -> str:
    """AMD GPU names in prose respelled the ways people type them: with or without spaces, in lower case, with or
    without "AMD Radeon" / "Instinct" / "PRO" ("RX 7900 XTX" -> "RX7900XTX", "rx 7900 xtx", "7900XTX", "7900 xtx";
    "AMD Instinct MI300X" -> "mi300x"; "Radeon PRO W7900" -> "pro w7900", "w7900"; "Radeon PRO V620" -> "AMD V620";
    "Radeon 780M" -> "780M graphics").
    The spelling is chosen by the name's number and its place among the report's names, so each run is the same.
    Lines that look like program output, inline code, URLs and paths keep their spelling."""
    turn = 0
    printed = False

    def respell(line: str) -> str:
        nonlocal printed
        if _PROMPT_LINE.match(line):
            printed = True
        elif not line.strip():
            printed = False
        if printed or keeps_spelling(line):
            return line
        pieces, last = [], 0
        for code in list(_INLINE_CODE.finditer(line)) + [None]:
            end = code.start() if code else len(line)
            prose = line[last:end]
            for pattern, spelling in _RESPELLERS:
                def one(m: "re.Match[str]") -> str:
                    nonlocal turn
                    turn += 1
                    return spelling(m, turn + int(re.sub(r"\D", "", m.group("number")) or 0))
                prose = pattern.sub(one, prose)
            pieces.append(prose)
            if code:
                pieces.append(code.group(0))
                last = code.end()
        return "".join(pieces)

    return _outside_fences(text, respell)

def _typed_lines(text: str, rewrite: Callable[[str], str]) -> str:
    """``rewrite`` applied to the lines a person typed: outside fences, and not a line that looks like output."""
    return _outside_fences(text, lambda line: line if keeps_spelling(line, commands_too=False) else rewrite(line))


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

_SPACED = re.compile(rf"(?<=[a-z,] )(?<!sudo )(?<!env )({_STACK_NAME})=({_PLAIN_VALUE})(?=[ ,;)]|\.(?: |$)|$)")
"""``NAME=value`` inside a sentence ("with HSA_OVERRIDE_GFX_VERSION=10.3.0 it works"), never a line's command nor
the setting ``sudo`` or ``env`` passes to the command after it ("sudo NAME = 1 python3" would run NAME)."""


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
    return _typed_lines(text, _env_line)


_PIP_RUN = re.compile(r"(?<![\w./-])(?<!uv )(?<!-m )(pip3?|python3? -m pip)[ \t]+install\b")
_INDEX_OPTION = re.compile(r"(?<![\w-])(--(?:extra-)?index-url)(?:=|[ \t]+)(https?://[^\s`'\"]+)")
"""``pip`` run by another name; ``venv/bin/python -m pip`` or ``py -m pip`` (an interpreter of its own) is left as it is."""
_NEXT_LAUNCHER = {"pip": "pip3", "pip3": "python -m pip", "python -m pip": "python3 -m pip", "python3 -m pip": "pip"}


_VALUE_START = re.compile(r"=[\"']?$")
"""A pip command that is a variable's value (``TORCH_COMMAND="pip install ..."``): the value is the string the
user set, and a rule may read it as it stands, so it keeps its spelling."""


def _pip_line(line: str) -> str:
    run = _PIP_RUN.search(line)
    if run is None or _VALUE_START.search(line[: run.start()]):
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
    return _typed_lines(text, _pip_line)


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

    return _typed_lines(text, rewrite)




# The same environment fields laid out as different trackers' templates and people lay them out, and their labels
# in other words. A line is a template field by its LABEL (one a template asks for: GPU, OS, ROCm version, PyTorch
# version, Python version ...), never by its colon; a paragraph that holds a tool's own "key: value" output (torch's
# collect_env, rocminfo, amd-smi, vLLM's collect_env) keeps its lines as the tool printed them, and so do fenced,
# indented and quoted lines. Values are kept byte for byte.

_FIELD_LABELS: Dict[str, Tuple[str, ...]] = {
    "gpu": ("GPU", "Graphics card", "Video card"),
    "os": ("OS", "Operating System", "Distro"),
    "rocm": ("ROCm version", "ROCm"),
    "torch": ("PyTorch version", "PyTorch", "torch version"),
    "python": ("Python version", "Python"),
}
"""Each field's label wordings, the first being the template's; the readers take every one of them (labels of
rules/data/report_fields.yaml). Development cases that write them as a field's label (case ids): "Operating System"
(the ROCm issue form: aiter-1943, hip-3805, hip-3910 and some 38 more), "ROCm" (amdgpu-107, llamacpp-23934,
rocm-6146, vllm-34641, howto-7900xtx-win-rocm-4-wsl2), "ROCm version" (the ROCm issue form, ~40 cases),
"PyTorch" (hipblaslt-516, pytorch-96964, rocm-2429, unsloth-6043, howto-7900xtx-win-rocm-4-wsl2), "Python"
(rocm-1269, ray-52701, rocm-pytorch-3109, unsloth-6043). "Graphics card", "Video card", "Distro" and "torch
version" (invokeai-3967 only) were in the readers' table before this kind and are labels people use for the same
field; fewer than three development cases write them, so this kind checks that the readers keep them, not that
they were added from three reports."""
_LABEL_KIND = {label.lower(): kind for kind, names in _FIELD_LABELS.items() for label in names}
_LABEL_ALT = "|".join(re.escape(label) for label in sorted(_LABEL_KIND, key=len, reverse=True))
_FIELD_LINE = re.compile(
    rf"^(?P<bullet>[-*+][ \t]+)?(?:(?P<b1>\*\*)(?P<l1>{_LABEL_ALT})(?::\*\*|\*\*:)|(?P<l2>{_LABEL_ALT})[ \t]?:)"
    r"[ \t]+(?P<value>\S[^\n]*)$",
    re.IGNORECASE,
)
"""``GPU: v``, ``- GPU: v``, ``* **GPU**: v``, ``**GPU:** v`` at the start of a line (no indent, no padded label:
collect_env's ``OS                           : v`` is vLLM's output)."""
_FIELD_HEADING = re.compile(rf"^#{{2,4}}[ \t]+(?P<label>{_LABEL_ALT})[ \t]*$", re.IGNORECASE)
_FIELD_ROW = re.compile(rf"^\|[ \t]*(?P<label>{_LABEL_ALT})[ \t]*\|[ \t]*(?P<value>[^|\n]*?\S)(?P<pad>[ \t]*)\|[ \t]*$", re.IGNORECASE)
_TOOL_OUTPUT = re.compile(
    r"Is debug build|(?:ROCM|CUDA) used to build|GCC version|Clang version|CMake version|Libc version|Python platform"
    r"|Is CUDA available|HIP runtime version|MIOpen runtime version|Collecting environment information|Versions of relevant"
    r"|Marketing Name|Agent \d|HSA Agents|Compute Unit|amd-smi|rocm-smi|=====|Device Type"
    r"|MARKET_NAME|^\s*(?:ASIC|BOARD|VBIOS):|Total VRAM|Set vram state",
    re.IGNORECASE,
)
"""Lines only a tool prints; their paragraph is that tool's output, whose "OS:" or "PyTorch version:" is the tool's."""
_LINUX_DISTRO = re.compile(r"^(?:Ubuntu|Debian|Fedora|Arch|Manjaro|openSUSE|CachyOS|Linux Mint|Mint|Pop!_OS|RHEL|Rocky|NixOS|Gentoo|EndeavourOS)\b", re.IGNORECASE)
_LAYOUTS = ("heading", "colon", "bullet", "bold bullet", "bold label", "table row")


_OUTPUT_GOES_ON = re.compile(r"^(?:[ \t]+\S|[\w .()/+-]{1,60}:[ \t]+\S|\[(?:pip3?|conda)\]|(?:CPU|GPU models and configuration|Versions of relevant libraries):)")
"""A line that carries a tool's output on: indented, ``Key: value``, collect_env's ``[pip3]`` lines and its headers;
a heading, a fence, prose or a line that only introduces something (``I ran this:``) ends it."""


def _paragraphs_of_output(lines: List[str]) -> set:
    """Indexes of lines that belong to a tool's output: from a line only a tool prints, on over its blank lines
    and its "key: value" lines (collect_env's sections are blank-separated, and a paste may cut it short), and
    back to the start of that line's paragraph; a heading, a fence or a prose line (no colon) ends it."""
    out: set = set()
    inside = False
    for index, line in enumerate(lines):
        stripped = line.strip()
        if _TOOL_OUTPUT.search(line):
            if not inside:
                start = index
                while start > 0 and lines[start - 1].strip():
                    start -= 1
                out.update(range(start, index))
            inside = True
        elif inside and stripped and not _OUTPUT_GOES_ON.match(line):
            inside = False
        if inside:
            out.add(index)
    return out


def _template_fields(text: str) -> List[Tuple[int, int, str, str, str]]:
    """The report's own template fields: (first line, last line, layout, label, value), in order."""
    lines = text.split("\n")
    skip = _paragraphs_of_output(lines)
    fenced = False
    fields: List[Tuple[int, int, str, str, str]] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        if fenced or index in skip:
            index += 1
            continue
        heading = _FIELD_HEADING.match(line)
        if heading and index + 2 < len(lines) and not lines[index + 1].strip():
            value = lines[index + 2]
            after = lines[index + 3] if index + 3 < len(lines) else ""
            if value.strip() and not after.strip() and not value.lstrip().startswith(("#", "```", "~~~", "|", "-", "*", ">")) \
                    and index + 2 not in skip and value == value.strip() and not value.startswith("_No response"):
                fields.append((index, index + 2, "heading", heading.group("label"), value))
                index += 3
                continue
        row = _FIELD_ROW.match(line)
        if row:
            fields.append((index, index, "table row", row.group("label"), row.group("value")))
        else:
            field = _FIELD_LINE.match(line)
            if field and not _TEMPLATE_EXAMPLE_VALUE.match(field.group("value")) and _NAMES_SOMETHING.search(field.group("value")) \
                    and not field.group("value").strip().isdigit():
                bullet, bold = field.group("bullet"), field.group("b1")
                layout = ("bold bullet" if bullet else "bold label") if bold else ("bullet" if bullet else "colon")
                fields.append((index, index, layout, field.group("l1") or field.group("l2"), field.group("value")))
        index += 1
    return fields


_NAMES_SOMETHING = re.compile(r"[A-Za-z0-9]")
"""A value, not an opening brace (``OS: {`` begins a block of os-release lines that the field's layout holds)."""
_TEMPLATE_EXAMPLE_VALUE = re.compile(r"^[\[(]?\s*(?:e\.\s?g\.?|eg\.|for\s+example|example)\b", re.IGNORECASE)


def _laid_out(layout: str, label: str, value: str) -> List[str]:
    return {
        "heading": [f"### {label}", "", value],
        "colon": [f"{label}: {value}"],
        "bullet": [f"- {label}: {value}"],
        "bold bullet": [f"* **{label}**: {value}"],
        "bold label": [f"**{label}:** {value}"],
        "table row": [f"| {label} | {value} |"],
    }[layout]


def _relaid(text: str, choose: Callable[[int, str, str, str], Tuple[str, str]]) -> str:
    """Each template field replaced by ``choose(position, layout, label, value)`` -> (layout, label)."""
    lines = text.split("\n")
    fields = _template_fields(text)
    if not fields:
        return text
    out: List[str] = []
    last = 0
    for position, (first, end, layout, label, value) in enumerate(fields):
        out += lines[last:first]
        new_layout, new_label = choose(position, layout, label, value)
        new = _laid_out(new_layout, new_label, value)
        if new_layout == "heading":
            if out and out[-1].strip():
                new = [""] + new
            if end + 1 < len(lines) and lines[end + 1].strip():
                new = new + [""]
        out += new
        last = end + 1
    out += lines[last:]
    return "\n".join(out)


def field_layouts(text: str) -> str:
    """The report's template fields (GPU, OS, ROCm version, PyTorch version, Python version) in another
    tracker's layout, chosen by the field's position: an issue form's ``### GPU`` heading with the value below, a
    ``GPU: v`` line, a ``- GPU: v`` bullet, ``* **GPU**: v``, a bold ``**GPU:** v`` label, a ``| GPU | v |`` table
    row (never the field's own layout; a value with ``|`` in it is not put in a table). Development cases that
    lay their fields out so (case ids): headings (the ROCm issue form, ~40 cases), colon lines (rocm-1269,
    ollama-7721, ray-52701), bullets (ollama-2054, amdgpu-155, vllm-34641), bold bullets (rocm-6146, therock-5579),
    a bold label (rocm-clr-280), table rows (therock-5543, therock-7861, rocm-build-8)."""

    def choose(position: int, layout: str, label: str, value: str) -> Tuple[str, str]:
        turn = position % len(_LAYOUTS)
        for step in range(len(_LAYOUTS)):
            candidate = _LAYOUTS[(turn + step) % len(_LAYOUTS)]
            if candidate != layout and not (candidate == "table row" and "|" in value):
                return candidate, label
        return layout, label

    return _relaid(text, choose)


def field_label_wordings(text: str) -> str:
    """The report's template fields with their label in other words, each field's wordings in turn by position, in
    the field's own layout: ``GPU`` as ``Graphics card``/``Video card``, ``OS`` as ``Operating System``/``Distro``
    (``Distro`` only for a Linux distribution), ``ROCm version`` as ``ROCm``, ``PyTorch version`` as
    ``PyTorch``/``torch version``, ``Python version`` as ``Python``."""

    def choose(position: int, layout: str, label: str, value: str) -> Tuple[str, str]:
        kind = _LABEL_KIND[re.sub(r"\s+", " ", label.lower())]
        names = [n for n in _FIELD_LABELS[kind] if n.lower() != label.lower() and not (n == "Distro" and not _LINUX_DISTRO.match(value))]
        return layout, (names[position % len(names)] if names else label)

    return _relaid(text, choose)

# The ROCm release and the Linux kernel in prose as different people spell them. Only prose is respelled
# (``_prose_lines``): uname, dpkg, rocminfo and collect_env lines keep what the program printed.

_PROSE_ROCM = re.compile(
    r"\bROCm (\d\.\d{1,2}(?:\.\d{1,2})?)(?![\d.]?\d|\.\w|[-+\w])( release(?=[.,;:!?)]|$))?"
    r"(?![ \t]+(?:release|rc\d*|beta|alpha|preview|notes?|docs?)\b)"
)
_ROCM_SPELLINGS = ("ROCm v{v}", "rocm-{v}", "ROCm{v}", "ROCm version {v}", "ROCm {v} release")
"""Sources (each spelling in >= 3 real reports): "ROCm v3.10" (rocm-1315), "ROCm v5.2" (rocm-1794), "ROCm v6.1.2"
(a comment of 2024-06-06 in ROCm/ROCm#2939); "rocm-6.0" (pytorch-118457), "ROCm-3.9" (rocm-1269), "rocm-5.4.2" (a1111-15464);
"rocm6.0" (comfy-cli-289), "rocm5.7" (comfyui-1712), "rocm6.1" (comfyui-3698); "with ROCm version 6.1.0"
(ROCm/MIOpen), "ROCm version 6.2.0 or higher" (serverless-llm), "with ROCM version 6.1.3" (ROCm/gpu-operator docs);
"ROCm 6.0 release" (hipblaslt-516), "ROCm 6.1 release" (rocm-2874), "ROCm 4.1 release" (amdgpu-107, rocm-1367)."""

_PROSE_KERNEL = re.compile(
    r"\b(?:(?:[Tt]he |[Aa] )?(?:[Ll]inux )?[Kk]ernel(?: version)? |Linux )"
    r"v?(\d\.\d{1,2}(?:\.\d{1,3})?(?:-\d[\w+]*(?:\.[\w+]+)*(?:-[a-z][\w+]*)*)?)(?![\w.]?\w)(?! kernel\b)"
)
_KERNEL_SPELLINGS = ("Linux {v}", "the {v} kernel", "kernel version {v}", "kernel {v}")
"""Sources: "kernel 6.8.0-44" (rocm-3701), "Kernel 5.3.0-46" (rocm-1080), "kernel 5.4.0-56" (rocm-1315); "Linux
5.14.0-362" (amdgpu-155), "Linux 4.15.0-041500" (amdgpu-68), "Linux 6.17.0-20" (rocm-6146); "the 5.19.0-23 kernel"
(rocm-1850), "the 6.5.0-5 kernel" (rocm-2694), "the 5.14.0-1051-oem kernel" (rocm-1809); "the recent kernel version
6.8.0-45", "Linux kernel version 6.8.0-49-generic", "kernel version 6.8.0-1014-azure" (three public GitHub
threads)."""


def _rocm_spelling(m: "re.Match[str]", counters: Dict[str, int]) -> str:
    if m.group(2):  # "ROCm 6.2 release" already says release: drop the word, keep the version
        return f"ROCm {m.group(1)}"
    spelling = _cycle(counters, _ROCM_SPELLINGS)
    return spelling.format(v=m.group(1))


_IN_USE_BEFORE = re.compile(r"\b(?:with|on|running|using|under|to|is|have|has)[ \t]+$", re.IGNORECASE)
""""the 6.8.0-45 kernel" is how people name the kernel they run after a word of use ("with the 5.19.0-23 kernel",
"on the 6.5.0-5 kernel"); after another verb ("Compile the 6.15.8 kernel") it need not be the running one."""
_LISTED_LINE = re.compile(r"^[ \t]*[*-][ \t]+[\w .()/+-]{1,40}:[ \t]")
"""A tool's "key: value" line under a bullet (dpkg's " * dkms: autoinstall for kernel 6.8.0-44-generic")."""


def _kernel_spelling(m: "re.Match[str]", counters: Dict[str, int], line: str) -> str:
    spelling = _cycle(counters, _KERNEL_SPELLINGS)
    said = m.group(0)
    if spelling == "the {v} kernel" and not _IN_USE_BEFORE.search(line[: m.start()]):
        spelling = _cycle(counters, _KERNEL_SPELLINGS)
    if spelling == "kernel {v}" and said.lower().startswith(("kernel ", "kernel\t")):
        spelling = "Linux {v}"
    return spelling.format(v=m.group(1))


def _rocm_kernel_line(line: str, counters: Dict[str, int]) -> str:
    if _LISTED_LINE.match(line):
        return line
    line = _PROSE_ROCM.sub(lambda m: _rocm_spelling(m, counters), line)
    return _PROSE_KERNEL.sub(lambda m: _kernel_spelling(m, counters, line), line)


def rocm_kernel_spellings(text: str) -> str:
    """The ROCm release and the Linux kernel in prose respelled, each name's spellings in turn: "ROCm 6.2" as
    "ROCm v6.2", "rocm-6.2", "ROCm6.2", "ROCm version 6.2", "ROCm 6.2 release" (and "ROCm 6.2 release" as
    "ROCm 6.2"); "kernel 6.8.0-45" (or "Linux ...", "the kernel ...", "kernel version ...") as "Linux 6.8.0-45",
    "the 6.8.0-45 kernel" (after a word of use: "with", "on", "running"), "kernel version 6.8.0-45", "kernel
    6.8.0-45". A line a program printed (uname -a, dpkg,
    rocminfo, collect_env's "key: value") keeps its spelling. The amdgpu driver's version is not respelled: its
    prose forms ("amdgpu-dkms 6.8.5") are too rare in real reports outside dpkg output to know how people write it."""
    return _prose_lines(text, _rocm_kernel_line)



_QUOTINGS = (
    ('Getting "', '" when running my script.'),
    ("I get ", " when I run it."),
    ("It fails with `", "` every time."),
    ("The error is \u201c", "\u201d (full log below)."),
)
"""The sentences a reporter quotes an error in: straight quotes, none, backticks, curly quotes, with words
before and after (one is chosen by the error line's number, so the rewrite is deterministic)."""
_SENTENCE_WORDS = re.compile(r"(?i)(?:^|[\s(])(?:i|i'm|i've|my|me|we|our|you|it's|this|when|but|and|so)(?=[\s,.!?)]|$)|\?\s*$|\|")
"""A recognised line that is the reporter's own sentence or a table row, not an error message as printed."""
_WHOLE_QUOTE = re.compile(r"^(`+|\"|')(.+)\1$")


def _quoted_error(text: str) -> Optional[str]:
    """The error message a line holds, without the quotes or backticks around the whole line; None when the line is
    a sentence or a table row rather than the message (quoting a sentence would add words, not quote an error)."""
    error = text.strip()
    whole = _WHOLE_QUOTE.match(error)
    error = whole.group(2).strip() if whole else error
    if not error or len(error) > 240 or _SENTENCE_WORDS.search(error):
        return None
    return error


def _error_sentence(error: str, number: int) -> str:
    """``error`` quoted in a sentence: the first quoting from ``number`` on whose marks the error does not hold."""
    for turn in range(len(_QUOTINGS)):
        before, after = _QUOTINGS[(number + turn) % len(_QUOTINGS)]
        marks = {before[-1], after[0]} - {" "}
        if not any(mark in error for mark in marks):
            return before + error + after
    return "I get " + error + " when I run it."


def _recognised_errors(text: str) -> List[Tuple[int, str, bool]]:
    """The report's recognised error lines as (line index, error message, stands alone outside a fence), in order:
    lines in which a signature reader found an error message (``symptoms.signatures``), not a statement of the
    reporter's (a ``scope: statement`` row reads the reporter's own words, which are no message to quote)."""
    from rocm_doctor.ingest import _pieces
    from rocm_doctor.ingest.blocks import split_blocks
    from rocm_doctor.ingest.signatures import signatures

    statements = {s.id for s in signatures() if s.statement}
    lines = text.split("\n")
    blocks = split_blocks(text)
    found: Dict[int, Tuple[int, str, bool]] = {}
    for piece in _pieces(blocks):
        if not piece.kind.startswith("error:") or piece.kind[len("error:"):] in statements:
            continue
        for observation in piece.observations:
            line = observation.line
            if observation.path != "symptoms.signatures" or not 0 < line.number <= len(lines):
                continue
            index = line.number - 1
            error = _quoted_error(line.text)
            if error is None or error not in lines[index] or lines[index].lstrip().startswith(">"):
                continue
            alone = (
                blocks[line.block - 1].kind == "prose" and lines[index].strip() in (error, f"`{error}`", f'"{error}"')
                and (index == 0 or not lines[index - 1].strip()) and (index + 1 == len(lines) or not lines[index + 1].strip())
            )
            found.setdefault(index, (index, error, alone))
    return [found[i] for i in sorted(found)]


def error_quoted_in_prose(text: str) -> str:
    """A sentence added at the top that quotes the report's first recognised error message, as a reporter writes it in
    the title or first line (`Getting "HIP error: invalid device function" when running my script.`); the log
    stays as it is, so the sentence adds no fact the report did not hold."""
    errors = _recognised_errors(text)
    if not errors:
        return text
    index, error, _ = errors[0]
    return _error_sentence(error, index) + "\n\n" + text


def error_quote_for_line(text: str) -> str:
    """The first recognised error message that stands alone on its line outside a fence (a paragraph of its own,
    nothing but the message) said in a sentence that quotes it instead: nothing else of the line is lost."""
    lines = text.split("\n")
    for index, error, alone in _recognised_errors(text):
        if alone:
            lead = lines[index][: len(lines[index]) - len(lines[index].lstrip())]
            lines[index] = lead + _error_sentence(error, index)
            return "\n".join(lines)
    return text


QUOTED_ADVICE = (
    "",
    "> If you get `hipErrorNoBinaryForGpu`, check that your GPU is on the support list.",
    "> torch doesn't see the GPU when another GPU comes first in the list.",
)
"""A reply's quote of advice, as a thread pasted whole carries it: a conditional message ("If you get ...") and a
statement of a state ("torch doesn't see the GPU") in someone else's words, neither of them this machine's."""


_FENCE_MARK = re.compile(r"^\s{0,3}(`{3,}|~{3,})")


def _open_fence(text: str) -> str:
    """The mark that closes a fence the report left open ("" when none is): the opening's own character and length, as
    Markdown (and blocks.split_blocks) close a fence only with a mark of the same character at least as long; a "```"
    does not close a "~~~" a paste was cut short in."""
    fence = ""
    for line in text.split("\n"):
        match = _FENCE_MARK.match(line)
        if match is None:
            continue
        mark = match.group(1)
        if not fence:
            rest = line[match.end():].rstrip()
            if mark[0] == "`" and rest.strip("`") and len(rest) - len(rest.rstrip("`")) == len(mark):
                continue  # "``` text ```" on one line is an inline code span, no fence (CommonMark 6.1; blocks.split_blocks)
            fence = mark
        elif mark[0] == fence[0] and len(mark) >= len(fence):
            fence = ""
    return fence


def quoted_advice(text: str) -> str:
    """A quoted advice from a reply added after the report (blocks.CONDITIONAL_ADVICE, blocks._quote_scope); a fence the
    report left open (a paste cut short), or a ``<details>``, is closed first, as the reply's own text would not be inside it."""
    fence = _open_fence(text)
    closing = f"\n{fence}" if fence else ""
    lowered = text.lower()
    closing += "\n</details>" * max(0, lowered.count("<details") - lowered.count("</details>"))
    return text.rstrip("\n") + closing + "\n" + "\n".join(QUOTED_ADVICE) + "\n"


_LIST_HEADER = re.compile(r"(?m)^[ \t]*Package[ \t]+Version(?:[ \t]+[^\n]*)?\n[ \t]*-{3,}[ \t]+-{3,}[^\n]*\n(?=[ \t]*[A-Za-z0-9][\w.-]*[ \t]{2,}\d)")


def list_header_dropped(text: str) -> str:
    """A ``pip list`` pasted without its ``Package  Version`` header and rule, as ``pip list | grep torch`` prints it
    (formats/pip._headerless_list)."""
    return _LIST_HEADER.sub("", text)


# How people paste logs and commands (session 50): what a tool, a terminal or a web form puts around the lines a
# program printed. The lines themselves keep their spelling; only what surrounds them changes.

_FENCE_LINE = re.compile(r"^\s{0,3}(?:>\s?)?(```|~~~)")
_LOG_WORDS = re.compile(r"Traceback|Error|error|WARN|warn|INFO|level=|msg=|Exception|failed|Failed")
_COMMAND_START = re.compile(
    r"^\s*(?:\$|#|>|PS |\(|sudo |pip3? |python[\d.]* |export |rocminfo|rocm-smi|amd-smi|docker |podman |uv |conda |git |cd |ollama )"
)


def _log_blocks(text: str, per_line: Callable[[str, int], str]) -> str:
    """``per_line(line, block number)`` applied to every non-blank line of each fenced block that is a program's log
    (it holds a log word: a level, an error, a traceback) and holds no command (a transcript keeps its prompts)."""
    out: List[str] = []
    block: List[str] = []
    fenced = False
    count = 0
    for line in text.split("\n"):
        if _FENCE_LINE.match(line):
            if fenced:
                if any(_LOG_WORDS.search(b) for b in block) and not any(_COMMAND_START.match(b) for b in block):
                    block = [per_line(b, count) if b.strip() else b for b in block]
                    count += 1
                out.extend(block)
                block = []
            fenced = not fenced
            out.append(line)
            continue
        (block if fenced else out).append(line)
    out.extend(block)
    return "\n".join(out)


_SERVICE_NAMES = ("app-1", "backend", "worker-1")
"""Service names that name no program: the name a prefix carries is read as what the report is about (at the line that
holds it, :attr:`rocm_doctor.ingest.blocks.Line.logged_by`), and an app's name the report did not hold would be a fact
the rewrite added."""


def compose_prefixes(text: str) -> str:
    """A service's log as ``docker compose up`` / ``docker compose logs`` prints it: each line after the service's
    name, padded, and ``| `` ("comfyui-rocm  | !!! Exception during processing !!! HIP error: invalid device function",
    YanWenKun/ComfyUI-Docker#122; "text-generation-webui  | RuntimeError: ...", Atinoda/text-generation-webui-docker#57;
    "auto-1  | Traceback (most recent call last):", simonmcnair/stable-diffusion-webui-docker#23, with compose v2's
    replica number; "sd  | Loading model from ...", Sygil-Dev/stable-diffusion#71)."""
    return _log_blocks(text, lambda line, n: f"{_SERVICE_NAMES[n % 3]}  | {line}")


_JOURNAL = ("Jun 19 14:38:07 ai-llm app[15932]: ", "Mar 09 21:00:13 hwkiller-desktop backend[98459]: ",
            "Mär 08 02:15:09 evo worker[301326]: ")


def journal_prefixes(text: str) -> str:
    """A service's log as ``journalctl -u`` prints it: date, host, program and pid before each line, the month in the
    system's language ("Jun 19 14:38:07 ai-llm ollama[15932]: time=... level=INFO", ollama/ollama#5143; "Mar 09
    21:00:13 hwkiller-desktop ollama[98459]: ...", ollama/ollama#3035; "Mär 08 02:15:09 evo comfy-ui[301326]: ** ComfyUI
    startup time", utensils/comfyui-nix#34)."""
    return _log_blocks(text, lambda line, n: _JOURNAL[n % 3] + line)


_STAMPS = ("2024-06-19T14:38:07.789123456Z ", "2025-01-17 20:40:33 ")


def timestamp_prefixes(text: str) -> str:
    """A container's log as ``docker logs -t`` prints it (an RFC 3339 time with nanoseconds before each line) and as
    Docker Desktop's log view copies it ("2025-01-17 20:40:33 2025/01/18 01:40:33 routes.go:1187: INFO server config",
    ollama/ollama#8475); GitHub Actions' raw log puts the same RFC 3339 time first ("2022-11-10T19:56:18.0780433Z docker:
    Error response from daemon", pytorch/test-infra#1094)."""
    return _log_blocks(text, lambda line, n: _STAMPS[n % 2] + line)


_COMFY_STAMPS = ("[2026-03-03 12:51:32.116] ", "[2026-01-29 17:04:49.071] [info]  ", "2026-07-11T14:06:46.577801 - ")


def comfyui_timestamps(text: str) -> str:
    """A log as ComfyUI writes it, a time before each line, each block in turn in one of its forms: its console and log
    file's "[2026-03-03 12:51:32.116] " (Comfy-Org/ComfyUI#12762, patientx/ComfyUI-Zluda#387), Comfy Desktop's with the
    level ("[2026-01-29 17:04:49.071] [info]  ", Comfy-Org/ComfyUI#12164), the error report's and ComfyUI-Manager's
    "2026-07-11T14:06:46.577801 - " (Comfy-Org/ComfyUI#14881, patientx/ComfyUI-Zluda#198)."""
    return _log_blocks(text, lambda line, n: _COMFY_STAMPS[n % 3] + line)


_VLLM_PROCESSES = ("(EngineCore pid=500) ", "(APIServer pid=1) ", "(VllmWorker rank=1 pid=839) ")


def vllm_process_prefixes(text: str) -> str:
    """A log as vLLM's processes print it, the process's name and pid before each line: "(EngineCore pid=500) ",
    "(APIServer pid=1) " (ROCm/legacy-rocm-build#6055, vllm-project/vllm#36615), "(VllmWorker rank=1 pid=839) "
    (ROCm/legacy-rocm-build#5567)."""
    return _log_blocks(text, lambda line, n: _VLLM_PROCESSES[n % 3] + line)


_LEVEL_WORDS = re.compile(r"\b(ERROR|WARNING|WARN|INFO|DEBUG|CRITICAL|Traceback|[A-Z]\w{0,40}Error(?=:))\b")


def _coloured(line: str, escape: str) -> str:
    def colour(word: str) -> str:
        return "33" if word.startswith("WARN") else "32" if word in ("INFO", "DEBUG") else "1;31"

    return _LEVEL_WORDS.sub(lambda m: f"{escape}[{colour(m.group(1))}m{m.group(1)}{escape}[0m", line)


def ansi_colours(text: str) -> str:
    """A log copied from a terminal that colours it: the level names and the traceback's words between SGR colour codes
    (ESC[32mINFO ESC[0m), as uvicorn, vLLM's logger, ComfyUI's and llama.cpp's colour them."""
    return _log_blocks(text, lambda line, n: _coloured(line, "\x1b"))


def ansi_colours_without_escape(text: str) -> str:
    """The same colour codes after a web form or an editor dropped the ESC character: "[32mINFO[0m" (what GitHub shows
    when a coloured log is pasted; each code's ``[..m`` stays)."""
    return _log_blocks(text, lambda line, n: _coloured(line, ""))


_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}


def html_entities(text: str) -> str:
    """A log copied from a page's HTML source or a mail client that escapes it: ``&quot;``, ``&gt;``, ``&lt;``,
    ``&amp;`` and ``&#39;`` for the characters they stand for."""
    return _log_blocks(text, lambda line, n: "".join(_ENTITIES.get(c, c) for c in line))


def html_line_breaks(text: str) -> str:
    """Prose pasted from an HTML form or a rich editor: ``<br>`` at the end of each line (headings, list items, tables
    and quotes keep theirs)."""
    return _outside_fences(text, lambda l: l + "<br>" if l.strip() and not l.strip().startswith(("#", "|", "-", "*", ">", "<")) else l)


_COMMAND_LINE = re.compile(
    r"^(\s*)((?!\S+ \S*:(?:\s|$))(?:sudo |pip3? |python[\d.]* |uv |conda |rocminfo|rocm-smi|amd-smi|export |docker |podman |ollama (?:run|serve|ps|pull|list|-v)\b)(?!.*\s\|\s).*)$"
)
"""A line that runs one of these tools, not a field a tool printed ("pip version: pip 20.1.1 from ...", "python version: 3.10":
``pip debug`` and template output), which takes no prompt."""
_LINUX_PROMPTS = ("user@box:~/sd$ ", "(venv) user@box:~$ ", "[root@box ~]# ")
_CONTAINER_PROMPTS = ("root@3f2a9c1b7d4e:/workspace# ", "(venv) root@3f2a9c1b7d4e:/# ", "[root@box ~]# ")
"""In a report about a container a prompt's user is a claim the report did not make: a container's shell runs as the
image's user (root in rocm/pytorch and most images) unless the report says otherwise, so its prompts are root's
(Docker's default hostname is the container id)."""
_IN_CONTAINER = re.compile(r"\b(?:docker|podman|container|apptainer|singularity)\b", re.IGNORECASE)
_WINDOWS_PROMPTS = ("PS C:\\Users\\me> ", "C:\\Users\\me>", "(venv) PS D:\\AI\\ComfyUI> ")
_ON_WINDOWS = re.compile(r"\bWindows\b|\bWin1[01]\b|[A-Z]:\\\\")
_LINUX_ONLY = ("export ", "sudo ", "rocminfo", "rocm-smi", "amd-smi")


def shell_prompts(text: str) -> str:
    """A command in a fenced transcript with the prompt it was typed at: ``user@host:~/dir$``, with the active
    environment "(venv) user@host:~$", root's ``[root@host ~]#``; on Windows (not WSL) PowerShell's "PS C:\\Users\\me> "
    and cmd's "C:\\Users\\me>" ("(vLLM) root@kittyzero:~# python -c ...", vllm-project/vllm#39378; "(pia) PS E:\\PIA>
    python ...", openmmlab/PIA#30; "lu2@LU2PCHL:~$ podman logs ollama -f", ollama/ollama#12908). Each command line in
    turn; a Linux tool (``rocminfo``, ``export``, ``sudo``) never after a Windows prompt; root's prompts only in a
    report about a container (:data:`_CONTAINER_PROMPTS`)."""
    windows = bool(_ON_WINDOWS.search(text)) and "WSL" not in text and "wsl" not in text
    prompts = _WINDOWS_PROMPTS if windows else _CONTAINER_PROMPTS if _IN_CONTAINER.search(text) else _LINUX_PROMPTS
    count = [0]
    out: List[str] = []
    fenced = False
    for line in text.split("\n"):
        if _FENCE_LINE.match(line):
            fenced = not fenced
            out.append(line)
            continue
        m = _COMMAND_LINE.match(line) if fenced else None
        if not m or (windows and m.group(2).startswith(_LINUX_ONLY)):
            out.append(line)
            continue
        count[0] += 1
        out.append(m.group(1) + prompts[count[0] % len(prompts)] + m.group(2))
    return "\n".join(out)


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
    "bold emphasis": bold_emphasis,
    "inline code names": inline_code,
    "italic emphasis": italic_emphasis,
    "lower-case names": lower_case_names,
    "full-width punctuation": full_width_punctuation,
    "platform spellings": platform_spellings,
    "torch version spellings": torch_version_spellings,
    "is_available spellings": is_available_spellings,
    "GPU name spellings": gpu_name_spellings,
    "environment variable forms": env_var_forms,
    "pip install command forms": pip_command_forms,
    "docker run option forms": docker_option_forms,
    "report field layouts": field_layouts,
    "report field label wordings": field_label_wordings,
    "ROCm and kernel version spellings in prose": rocm_kernel_spellings,
    "error quoted in prose, added": error_quoted_in_prose,
    "error quoted in prose for its line": error_quote_for_line,
    "quoted advice from a reply, added": quoted_advice,
    "pip list header dropped": list_header_dropped,
    "docker compose log prefixes": compose_prefixes,
    "journalctl log prefixes": journal_prefixes,
    "container log timestamps": timestamp_prefixes,
    "ComfyUI log timestamps": comfyui_timestamps,
    "vLLM process prefixes": vllm_process_prefixes,
    "ANSI colour codes": ansi_colours,
    "ANSI colour codes, ESC lost": ansi_colours_without_escape,
    "HTML entities in logs": html_entities,
    "HTML line breaks in prose": html_line_breaks,
    "shell prompts on commands": shell_prompts,
}


@dataclass(frozen=True)
class Kept:
    kind: str
    case_id: str
    kept: bool
    before: Diagnosis
    after: Diagnosis
    facts_kept: bool = True
    """The rewrite left every fact of :func:`facts_read` as it was (the diagnosis may hold without it)."""


def check_case(case: dict, rules: list, kinds: Sequence[str]) -> List[Kept]:
    text = case["report"]
    facts_before, before = read_and_diagnose(text, rules)
    results = []
    for kind in kinds:
        rewritten = REWRITES[kind](text)
        if rewritten == text:
            continue
        facts_after, after = read_and_diagnose(rewritten, rules)
        results.append(Kept(kind, case["id"], after == before, before, after, facts_after == facts_before))
    return results


def table(results: Sequence[Kept]) -> str:
    width = max(24, *(len(kind) for kind in REWRITES))
    lines = [f"{'rewrite':<{width}} {'diagnosis kept':>14} {'share':>7} {'facts kept':>12} {'share':>7}", "-" * (width + 44)]

    def row(name: str, members: Sequence[Kept]) -> str:
        kept, facts = sum(r.kept for r in members), sum(r.facts_kept for r in members)
        share = lambda n: n / len(members) if members else 1.0  # noqa: E731
        return f"{name:<{width}} {kept:>7}/{len(members):<6} {share(kept):>7.0%} {facts:>5}/{len(members):<6} {share(facts):>7.0%}"

    for kind in REWRITES:
        members = [r for r in results if r.kind == kind]
        lines.append(row(kind, members) if members else f"{kind:<{width}} {'-':>14} {'-':>7} {'-':>12} {'-':>7}")
    lines.append(row("ALL", results))
    return "\n".join(lines)
