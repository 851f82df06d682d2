"""Python / IPython sessions and test scripts that print torch facts.

::

    In [2]: torch.__version__             >>> torch.cuda.is_available()      torch.__version__
    Out[2]: '2.2.0.dev20231010+rocm5.7'    True                              # '2.0.1+rocm5.4.2'

The expression is recognised on its own line (with or without a prompt or
``print(...)``); its value is the next non-empty line, with an ``Out[n]:`` or
``#`` prefix removed. Script outputs such as ``torch version = 2.2.1+rocm5.7`` /
``cuda available = True`` / ``device count = 1`` are read too.
"""

from __future__ import annotations

import ast
import re
from typing import Any, List, Optional

from rocm_doctor.ingest.blocks import Block, Line
from rocm_doctor.ingest.formats.collect_env import companion_observations
from rocm_doctor.ingest.formats.common import gfx_of, gpu_fields, make_piece, torch_version_observations
from rocm_doctor.facts.parsers.rocm_version import parse_hipconfig_version
from rocm_doctor.ingest.model import Absent, GpuSighting, Observation, Piece
from rocm_doctor.ingest.scope import PAST_OR_ELSEWHERE
from rocm_doctor.knowledge.torch_static import rocm_version
from rocm_doctor.lazy_regex import when_used

_EXPRESSIONS = {
    "version": when_used(r"^(?:print\()?\s*torch\.__version__\s*\)?\s*$"),
    "available": when_used(r"^(?:print\()?\s*torch\.cuda\.is_available\(\)\s*\)?\s*$"),
    "count": when_used(r"^(?:print\()?\s*torch\.cuda\.device_count\(\)\s*\)?\s*$"),
    "name": when_used(r"^(?:print\()?\s*torch\.cuda\.get_device_name\(.*\)\s*\)?\s*$"),
    "hip": when_used(r"^(?:print\()?\s*torch\.version\.hip\s*\)?\s*$"),
    "cuda": when_used(r"^(?:print\()?\s*torch\.version\.cuda\s*\)?\s*$"),
    "arch": when_used(r"^(?:print\()?\s*torch\.cuda\.get_device_properties\(.*\)\.gcnArchName\s*\)?\s*$"),
    "arch_list": when_used(r"^(?:print\()?\s*torch\.cuda\.get_arch_list\(\)\s*\)?\s*$"),
    "torchvision": when_used(r"^(?:print\()?\s*torchvision\.__version__\s*\)?\s*$"),
    "torchaudio": when_used(r"^(?:print\()?\s*torchaudio\.__version__\s*\)?\s*$"),
}
_SCRIPT = {
    "version": when_used(r"^\s*torch(?: version|\.__version__)\s*[=:]\s*(\S+)\s*$", re.IGNORECASE),
    "available": when_used(r"^\s*(?:cuda available|torch\.cuda\.is_available\(\))\s*[=:]\s*(True|False)\s*$", re.IGNORECASE),
    "count": when_used(r"^\s*(?:device count|torch\.cuda\.device_count\(\))\s*[=:]\s*(\d+)\s*$", re.IGNORECASE),
    # "HIP: None" is how scripts label torch.version.hip (SwarmUI#1531); collect_env's "HIP runtime version" is not it.
    "hip": when_used(r"^\s*(?:torch\.version\.hip|hip(?: version)?)\s*[=:]\s*(\S+)\s*$", re.IGNORECASE),
    "torchvision": when_used(r"^\s*torchvision(?: version|\.__version__)\s*[=:]\s*(\S+)\s*$", re.IGNORECASE),
    "torchaudio": when_used(r"^\s*torchaudio(?: version|\.__version__)\s*[=:]\s*(\S+)\s*$", re.IGNORECASE),
}
_OUT = when_used(r"^\s*(?:Out\[\d+\]:|#)\s*")

# ROCm's own tools print "HIP version: X" too: ``hipcc --version`` (then the compiler's "AMD clang version
# 18.0.0git (...)" / "clang version 17.0.0 (...)") and ``hipconfig --full``/``-f`` (then "==hipconfig" and
# its fields padded before the colon, "HIP_PATH           :"). That line is the HIP of the ROCm the tool
# belongs to (usually /opt/rocm), not torch.version.hip (ROCm/ROCm#3598, Dao-AILab/flash-attention#1307,
# ROCm/ROCm#4369). A script's environment dump after torch's own line ("ROCM_PATH=/opt/rocm",
# "ROCM_PATH: /opt/rocm", collect_env's "Clang version: 14.0.0") is not the tool's output.
# The tool run on the line above: with an option ("$ hipcc --version", "Output of `hipconfig -f`:") or alone on a
# command line ("$ hipconfig"); a script's "hipcc found at /opt/rocm/bin/hipcc" line is not it.
_HIP_TOOL_COMMAND = when_used(
    r"\bhip(?:cc|config)(?:\.exe)?\s+-{1,2}[a-z]|^\W{0,4}(?:sudo\s+)?(?:\S*[/\\])?hip(?:cc|config)(?:\.exe)?\W{0,4}$", re.IGNORECASE
)
_HIP_TOOL_OUTPUT = when_used(r"^\s*(?:(?:AMD\s+)?clang\s+version\s+\d|==\s*hip|(?:HIP_PATH|ROCM_PATH|HIP_PLATFORM)\s+:)", re.IGNORECASE)


def _hip_tool_output(lines: List[Line], index: int) -> bool:
    """Whether the "HIP version:" line at ``index`` is the output of hipcc/hipconfig, not a torch printout."""
    before = [l for l in lines[max(0, index - 2) : index] if l.text.strip()]
    if before and _HIP_TOOL_COMMAND.search(before[-1].text):
        return True
    return any(_HIP_TOOL_OUTPUT.match(l.text) for l in lines[index + 1 : index + 4])


CUDA_UNAVAILABLE_PRINTED = "cuda_unavailable_printed"
"""The signature table's context id for torch.cuda.is_available() printed as False (rules/data/signatures.yaml)."""


_VERSION_NUMERAL = when_used(r"^\d+\.\d+(?:\.\d+)?$")
"""A printed ``12.4`` or ``6.2`` is a version (torch.version.cuda / .hip printed without quotes by ``print``), not
a float: as a float it would lose its text (``12.10`` -> 12.1) and no version reader would take it (cw48)."""
_VERSION_KINDS = ("cuda", "hip")
"""The expressions whose printed numeral is a version string. Only where the session shows the expression itself
(``print(torch.version.cuda)`` and the line it printed): a script's or a reporter's label "HIP: 6.1" may be the HIP
SDK installed on Windows, not torch.version.hip, and stays as it was read before (rev48a)."""


def _literal(text: str, version: bool = False) -> Any:
    text = _OUT.sub("", text).strip()
    if version and _VERSION_NUMERAL.match(text):
        return text
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
        return text


def _result(lines: List[Line], start: int) -> Optional[Line]:
    for line in lines[start : start + 3]:
        if not line.text.strip():
            continue
        if line.command and not line.text.lstrip().startswith("#"):
            return None
        return line
    return None


def _device_index(expression: str) -> int:
    """The device an expression asks about: ``get_device_name(1)`` -> 1; no or a non-literal argument -> 0."""
    match = re.search(r"\((\d+)\)", expression)
    return int(match.group(1)) if match and len(match.group(1)) < 4 else 0


def _observe(kind: str, value: Any, line: Line, out: List[Observation], gpus: List[GpuSighting], device: int = 0) -> bool:
    if kind in ("torchvision", "torchaudio"):
        found = companion_observations(kind, value, line) if isinstance(value, str) and value[:1].isdigit() else []
        out += found
        return bool(found)
    if kind == "version" and isinstance(value, str):
        found = torch_version_observations(value, line)
        out += found
        return bool(found)
    if kind == "available" and isinstance(value, bool):
        out.append(Observation("torch.live.cuda_available", value, line))
        if value is False:
            # the session printed is_available() and showed False: the evidence the signature table's
            # cuda_unavailable_printed stands for, which the rules about "no usable GPU" read
            out.append(Observation("symptoms.context", [CUDA_UNAVAILABLE_PRINTED], line))
        return True
    if kind == "count" and isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 1024:
        out.append(Observation("torch.live.device_count", value, line))
        return True
    if kind == "name" and isinstance(value, str) and value.strip():
        gpus.append(GpuSighting("torch", device, line, gpu_fields(name=value)))
        return True
    if kind == "arch" and isinstance(value, str) and gfx_of(value):
        gpus.append(GpuSighting("torch", device, line, gpu_fields(gfx=gfx_of(value))))
        return True
    if kind == "hip" and isinstance(value, str) and re.match(r"^\d+\.\d+", value):
        out.append(Observation("torch.hip_version", value, line))
        out.append(Observation("torch.flavour", "rocm", line))
        # the HIP release's X.Y is the ROCm series torch was built for, as collect_env's "ROCM used to build PyTorch"
        series = rocm_version(None, value)
        if series:
            out.append(Observation("torch.rocm_version", series, line))
        return True
    if kind == "cuda" and isinstance(value, str) and re.match(r"^\d+\.\d+", value):
        # ROCm builds leave torch.version.cuda None: a CUDA version here is a CUDA build.
        out.append(Observation("torch.cuda_version", value, line))
        out.append(Observation("torch.flavour", "cuda", line))
        return True
    if kind == "hip" and value is None:
        out.append(Observation("torch.hip_version", Absent("torch.version.hip is None"), line))
        return True
    if kind == "arch_list" and isinstance(value, list) and all(isinstance(v, str) for v in value):
        out.append(Observation("torch.live.arch_list", [v for v in value if gfx_of(v)], line))
        return True
    return False


_ONE_LINER = when_used(r"""python[\d.]*(?:\.exe)?\s+-c\s+(["'])(.{1,2000}?)\1""")
_PRINT = when_used(r"\bprint\((.*?)\)\s*(?:;|$)")


def _arguments(text: str) -> List[str]:
    """Top-level comma-separated arguments of a call (``a, f(b, c), 'd'`` -> three)."""
    parts, depth, quote, current = [], 0, "", ""
    for char in text:
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(current.strip())
            current = ""
            continue
        current += char
    if current.strip():
        parts.append(current.strip())
    return parts


def _kind(expression: str) -> Optional[str]:
    for kind, pattern in _EXPRESSIONS.items():
        if pattern.match(expression):
            return kind
    return None


def _one_liners(block: Block, out: List[Observation], gpus: List[GpuSighting], used: List[Line]) -> None:
    """``python -c "import torch; print(torch.__version__, torch.version.hip)"`` and the line it printed."""
    lines = list(block.lines)
    for index, line in enumerate(lines):
        match = _ONE_LINER.search(line.text)
        if match is None:
            continue
        prints = [_arguments(p) for p in _PRINT.findall(match.group(2).replace("\\n", ";"))]
        outputs = [l for l in lines[index + 1 : index + 1 + len(prints) + 2] if l.text.strip() and not l.command][: len(prints)]
        for arguments, output in zip(prints, outputs):
            kinds = [_kind(a) for a in arguments]
            if not any(kinds):
                continue
            if len(arguments) == 1:
                values = [output.text.strip()]
            else:
                values = output.text.split()
                if len(values) != len(arguments):
                    continue
            found = False
            for kind, value in zip(kinds, values):
                if kind is not None:
                    found |= _observe(kind, _literal(value, kind in _VERSION_KINDS), output, out, gpus)
            if found:
                used += [line, output]


def parse(block: Block) -> List[Piece]:
    lines = list(block.lines)
    out: List[Observation] = []
    gpus: List[GpuSighting] = []
    used: List[Line] = []
    for i, line in enumerate(lines):
        text = line.text.strip()
        for kind, pattern in _EXPRESSIONS.items():
            if pattern.match(text):
                result = _result(lines, i + 1)
                if result is not None and _observe(kind, _literal(result.text, kind in _VERSION_KINDS), result, out, gpus, _device_index(text)):
                    used += [line, result]
                break
        else:
            for kind, pattern in _SCRIPT.items():
                match = pattern.match(text)
                if match and kind == "hip" and _hip_tool_output(lines, i):
                    # the HIP of the ROCm install the tool belongs to: the system's, read as rocm.hip_version (trm48)
                    hip = parse_hipconfig_version(str(match.group(1)).strip("'\""))
                    if hip:
                        out.append(Observation("rocm.hip_version", hip, line))
                        used.append(line)
                    break
                if match and _observe(kind, _literal(match.group(1)), line, out, gpus):
                    used.append(line)
                    break
    if "-c" in block.text:
        _one_liners(block, out, gpus, used)
    return [make_piece("python-session", used, out, gpus)] if used else []


CUDA_UNAVAILABLE_REPORTED = "cuda_unavailable_reported"
"""The signature table's context id for the reporter's words that torch.cuda.is_available() gives False."""

_CALL_ENDS_LINE = when_used(r"(?:\bcuda\.|(?<![\w.]))is_available\(\)[)`'\"*;\s]{0,6}$")
"""A line that ends with the call (a command, a snippet's last line, the call in backticks), its value not on it."""
_CALL_AS_CONDITION = when_used(r"\b(?:if|elif|assert|while|whether|unless|not)\b[^\n]{0,80}is_available\(\)")
_SAID_VERB = (
    r"(?:it\s{1,4}|this\s{1,4}|which\s{1,4})?(?:(?:still|always|just|only|now|simply)\s{1,4})?"
    r"(?:returns?|returned|returning|gives?|gave|giving|prints?|printed|printing|outputs?|outputted|shows?|showed|"
    r"says?|said|yields?|yielded|results?\s{1,4}in|resulted\s{1,4}in|evaluates?\s{1,4}to|evaluated\s{1,4}to)"
    r"(?:\s{1,4}(?:me|back|us))?"
)
_VALUE_FALSE = r"[`'\"*]{0,3}\s{0,2}(?:[\w ]{1,20}:\s{0,4})?False\b"
_SAID_FALSE = when_used(r"^\W{0,3}" + _SAID_VERB + r"\s{0,4}:?\s{0,4}" + _VALUE_FALSE)
"""The next line goes on with the verb and the value: "returns `False`, while ..." (ROCm/ROCm-docker#114)."""
_SAID_ALONE = when_used(r"^\W{0,3}" + _SAID_VERB + r"\s{0,4}:?\s{0,4}$")
"""The verb alone on its line ("gives", "gave me"), the value on the next (ROCm/legacy-rocm-build#3910, arch4edu/arch4edu#121)."""
_VALUE_ALONE = when_used(r"^\s{0,8}" + _VALUE_FALSE + r"[`'\"*.\s]{0,4}$")
_NOT_THIS_MACHINE = when_used(
    r"\?\s{0,4}$|False\b[^\n]{0,120}?\b(?:when|whenever|if|unless)\s{1,4}(?:there\s{1,4}(?:is|are)\s{1,4})?no\s{1,4}"
    r"|\b(?:until|no\s{1,4}longer|any\s{0,1}more|used\s{1,4}to|should|would|expected)\b",
    re.IGNORECASE,
)
_ELSEWHERE = when_used(PAST_OR_ELSEWHERE + r"|\b(?:nvidia|geforce|quadro|tesla)\b", re.IGNORECASE)
"""rev59: the lines that say what the call gave are another machine's, the past or another vendor's ("returns False on
my colleague's machine, on mine it returns True", "returns False for the nvidia image"): the scope words every prose
reader shares (rocm_doctor.ingest.scope), as the one-line signature's statement scope reads them."""
_LOOK_AHEAD = 3
"""Non-blank lines after the call searched for the verb (and after the verb for the value)."""


def unavailable_said_across_lines(blocks: List[Block]) -> List[Piece]:
    """:data:`CUDA_UNAVAILABLE_REPORTED` where the reporter writes the call on one line and what it gave on the next:
    a fenced command ending with ``torch.cuda.is_available()"`` and then, in prose, "returns `False`, while it runs
    just fine (returns `True`) if ..." (ROCm/ROCm-docker#114); a snippet and "gives" / "`False`" on lines of their own
    (ROCm/legacy-rocm-build#3910); "`python3 -c '...is_available())'`" then "gave me" then "`GPU: False`"
    (arch4edu/arch4edu#121). The signature cuda_unavailable_reported reads the one-line form only, and a block holds
    the sentence's two halves apart when the command is fenced. Only the blocks the reporter wrote of this machine now
    (scope current), consecutive, and not a condition ("if torch.cuda.is_available()"), a question, an end ("until I
    joined render") or what torch does in general ("returns False when there is no GPU")."""
    pieces: List[Piece] = []
    lines: List[Optional[Line]] = []
    last: Optional[int] = None
    for block in blocks:
        if block.scope != "current" or (last is not None and block.index != last + 1):
            lines.append(None)  # a break: a quoted or skipped block holds no half of the reporter's sentence
        if block.scope == "current":
            lines.extend(line for line in block.lines if line.text.strip())
        last = block.index
    for at, line in enumerate(lines):
        if line is None or "is_available()" not in line.text or _CALL_ENDS_LINE.search(line.text) is None:
            continue
        if _CALL_AS_CONDITION.search(line.text) or "False" in line.text or "True" in line.text:
            continue
        after: List[Line] = []
        for later in lines[at + 1 : at + 1 + _LOOK_AHEAD]:
            if later is None:
                break
            after.append(later)
        if not after or _NOT_THIS_MACHINE.search(after[0].text):
            continue
        said = None
        if _SAID_FALSE.search(after[0].text):
            said = after[0]
        elif _SAID_ALONE.search(after[0].text) and len(after) > 1 and _VALUE_ALONE.search(after[1].text):
            said = after[1]
        if said is not None and not any(_ELSEWHERE.search(seen.text) for seen in after[: after.index(said) + 1]):
            pieces.append(make_piece(f"context:{CUDA_UNAVAILABLE_REPORTED}", [said], [Observation("symptoms.context", [CUDA_UNAVAILABLE_REPORTED], said)]))
    return pieces
