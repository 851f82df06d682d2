"""Environment settings in every syntax people paste, each with where the setting lives.

Recognised anywhere in a block (prose, inline code, commands, files, logs):

* shells: ``export NAME=value`` (several per line), ``NAME=value command ...`` (that
  command only), ``unset NAME``; fish ``set -gx NAME value`` (``set -U NAME value``
  without ``-x`` is never exported), ``set -e NAME``;
* Windows: PowerShell ``$env:NAME = "value"``, ``Remove-Item Env:NAME``,
  ``[Environment]::SetEnvironmentVariable("NAME", "value", "User")``; cmd ``set NAME=value``
  and ``setx NAME value``;
* files: systemd ``Environment="NAME=value"``, Dockerfile ``ENV NAME=value`` / ``ENV NAME value``,
  compose ``environment:`` lists and maps, bare ``NAME=value`` lines;
* ``docker run -e NAME=value`` / ``--env NAME=value``;
* Python ``os.environ["NAME"] = "value"``;
* listings: the output of ``env`` / ``printenv`` (optionally ``| grep ...``) after the
  command, which is the live environment and complete for what the grep kept; ollama's
  ``server config env="map[NAME:value ...]"`` line;
* prose: ``NAME=value`` or ``NAME to value`` for the variables of the GPU stack
  (``HSA_``, ``HIP_``, ``ROCR_`` ...).

What is not the process environment keeps its origin (see
:class:`rocm_doctor.facts.model.EnvSetting`); :mod:`rocm_doctor.ingest.assemble`
turns the sightings into ``env.vars``, ``env.coverage`` and ``env.settings``.
"""

from __future__ import annotations

import functools
import itertools
import re
import shlex
from dataclasses import replace
from typing import Dict, Iterator, List, Optional, Set, Tuple

from rocm_doctor.ingest.blocks import Block, Line, Spans, command_goes_on, may_be_wrapped
from rocm_doctor.ingest.formats.common import DOCUMENT_SAYS, REPORTED_SPEECH, make_piece
from rocm_doctor.ingest.formats.container_groups import docker_options
from rocm_doctor.ingest.model import TRUST_PROSE, TRUST_TEMPLATE, TRUST_TOOL, Observation, Piece, SettingSighting
from rocm_doctor.ingest.scope import NOW, scope_before
from rocm_doctor.lazy_regex import when_used

STACK_PREFIXES = (
    "HSA_", "HIP_", "ROCR_", "ROCM_", "AMD_", "ROCBLAS_", "HIPBLAS", "MIOPEN_", "RCCL_", "NCCL_",
    "PYTORCH_", "TORCH_", "CUDA_", "GPU_", "HCC_", "HIPCC_", "OLLAMA_", "LLAMA_", "GGML_", "DISABLE_ADDMM",
    "ROC_", "AMDGPU_", "TRITON_", "FLASH_ATTENTION", "VLLM_", "LD_LIBRARY_PATH", "LD_PRELOAD",
)
"""Name prefixes of the variables the GPU stack and its applications read: only these are read from prose."""

_NAME = r"[A-Za-z_][A-Za-z0-9_]{0,127}"
_UPPER_NAME = r"[A-Z][A-Z0-9_]{1,127}"
_VALUE = r"(?:\"[^\"\n]{0,512}\"|\"[^\"\n]{0,512}\n[^\"\n]{0,512}\"(?=[\s`;|&)]|$)|'[^'\n]{0,512}'|`[^`\n]{1,512}`|[^\s\"'`;|&]{0,512})"
"""A value as the shell reads it: quoted, or a plain word. A double-quoted value may go on over one line break, as
the shell reads it and as an editor's wrap leaves it ("export TORCH_COMMAND=\"pip install torch torchvision
--extra-index-url\nhttps://download.pytorch.org/whl/rocm5.2\"" wrapped at 80 columns, AUTOMATIC1111/stable-diffusion-webui#7459);
its line break reads as the space the wrap replaced."""
_ASSIGNMENT = when_used(rf"({_NAME})=({_VALUE})")
_TRAILING = ".,;:)]}>`*"

# Repetitions are bounded ({1,64}, see MAX_ASSIGNMENTS): an unbounded one on a 20 MB line keeps
# a backtracking frame per repetition.
_EXPORT = when_used(rf"(?<![^\s;&|(`])export\s+(?!{_NAME}[ \t]{{0,4}}(?::{{1,3}}|\?)=)((?:{_NAME}(?:={_VALUE})?[ \t]*){{1,64}})", re.MULTILINE)
_UNSET = when_used(rf"(?<![^\s;&|(`])unset\s+(?:-[vf]\s+)?((?:{_NAME}[ \t]*){{1,64}})", re.MULTILINE)
_PREFIX = when_used(
    rf"^[ \t`]*(?:sudo\s+(?:-\S+\s+){{0,8}}|env\s+)?((?:{_UPPER_NAME}={_VALUE}[ \t]+){{1,64}})([A-Za-z0-9./~_-][^\s=]*)(?=\s|$)", re.MULTILINE
)
_PROGRAM_NAME = when_used(r"[A-Za-z0-9]")
_PROSE_WORDS = frozenset(
    "on for in with and but or is was are were does doesn't didn't don't did do has had have seems seemed still "
    "not to as at from since because when so also too works worked fixed fixes helps helped makes made "
    "solved solves changes changed gives gave".split()
)
"""English words that follow ``NAME=value`` in a sentence ("HSA_OVERRIDE_GFX_VERSION=11.0.0 on my 780M but
ollama still uses CPU", "=10.3.0 and it works"): no program is started with the prefix (h31d)."""
_SUDO_RESETS = (
    "sudo starts the command with a reset environment (env_reset is on by default), so a variable set "
    "before sudo does not reach it; pass it after sudo (sudo NAME=value command) or keep it with sudo --preserve-env=NAME"
)
"""sudoers(5): env_reset is on by default (https://github.com/sudo-project/sudo/blob/SUDO_1_9_15p5/docs/sudoers.man.in)."""
_POWERSHELL = when_used(rf"\$env:({_NAME})\s*=\s*({_VALUE})", re.IGNORECASE)
_PS_REMOVE = when_used(rf"Remove-Item\s+(?:-Path\s+)?['\"]?Env:\\?({_NAME})", re.IGNORECASE)
_PS_PERSIST = when_used(
    rf"\[(?:System\.)?Environment\]::SetEnvironmentVariable\(\s*['\"]({_NAME})['\"]\s*,\s*({_VALUE})\s*(?:,\s*['\"]?(?:\[?\w+\]?::)?(\w+)['\"]?)?",
    re.IGNORECASE,
)
_CMD_SET = when_used(rf"^[ \t`]*set\s+\"?({_NAME})=([^\"\n`]{{0,512}})\"?\s*`?$", re.MULTILINE | re.IGNORECASE)
_SETX = when_used(rf"(?<![^\s`])setx\s+({_NAME})\s+({_VALUE})", re.MULTILINE | re.IGNORECASE)
_FISH = when_used(rf"(?<![^\s;`(])set\s+((?:-[a-zA-Z]+\s+|--[a-z-]+\s+){{1,8}})({_NAME})(?:\s+({_VALUE}))?", re.MULTILINE)
# A unit line as it stands in a file, or wrapped in inline code (`Environment="A=1" "B=2"`,
# ollama/ollama#16539): the backticks are Markdown, not systemd syntax.
_SYSTEMD = when_used(r"^[ \t]*`?Environment[ \t]{0,8}=[ \t]{0,8}(.+)$", re.MULTILINE)
_ASSIGNMENT_INSIDE = when_used(rf"\s({_NAME})=")
JOINED_ASSIGNMENTS = "systemd_env_assignments_in_one_word"
_QUOTED_ASSIGNMENT = when_used(rf"^[ \t]{{0,8}}\"{_NAME}=")
_DOCKERFILE = when_used(rf"^[ \t]*ENV[ \t]+({_NAME})(?:=|[ \t]+)(.*)$", re.MULTILINE)
_DOCKER_RUN = when_used(r"\b(?:docker|podman)\s+(?:container\s+)?(?:run|create|exec)\b")
_DOCKER_ENV = when_used(rf"(?<!\S)(?:-e|--env)(?:=|\s+)({_NAME})(?:=({_VALUE}))?")
_PYTHON = when_used(
    rf"os\.environ(?:\[\s*['\"]({_NAME})['\"]\s*\]\s*=\s*|\.setdefault\(\s*['\"]({_NAME})['\"]\s*,\s*)({_VALUE})"
)
_BARE = when_used(rf"^[ \t>*-]*({_UPPER_NAME})=({_VALUE})[ \t]*$", re.MULTILINE)
_INLINE = when_used(rf"(?<![\w$:-])({_UPPER_NAME})\s*=\s*({_VALUE})")
_MAKE = when_used(
    rf"^[ \t>*-]*(?:export[ \t]+|override[ \t]+)?({_UPPER_NAME})[ \t]{{0,4}}(?::{{1,3}}|\?)=[ \t]{{0,4}}({_VALUE})[ \t]*$", re.MULTILINE
)
"""A Makefile's or a justfile's assignment, ``NAME := value``, ``NAME ?= value``, ``NAME ::= value``, with ``export`` or
``override`` before it (GNU make manual, "Setting Variables" and "Communicating Variables to a Sub-make"; just's
``export NAME := "value"``): with ``export`` the value the recipes' environment gets; without it make passes the
variable to a recipe only where it was in the environment already or the recipe names it (``-e NAME=$(NAME)``). Reports and files that set the GPU stack's variables so:
ComfyUI ROCm docker's Makefile (HardAndHeavy/comfyui-rocm-docker#2, its HSA_OVERRIDE_GFX_VERSION), public Makefiles
with ``export HSA_OVERRIDE_GFX_VERSION := 10.3.0`` and ``export HSA_OVERRIDE_GFX_VERSION ?= 11.0.0``, a justfile's
``export HSA_OVERRIDE_GFX_VERSION := "11.0.0"``. Only the stack's names (:data:`STACK_PREFIXES`), on a line of their
own; ``+=`` appends to a value the paste does not show and is not read. (rev48f: HardAndHeavy/comfyui-rocm-docker#2
shows ``HSA_OVERRIDE_GFX_VERSION = value``, which :data:`_INLINE` reads, not this form; the other files are not named,
so this reader's three independent sources are still to be named.)"""
_MAKE_IF = when_used(r"^[ \t]{0,8}(?:(?:else[ \t]{1,4})?if(?:n?eq|n?def)\b|endif\b)", re.MULTILINE)
"""A Makefile's conditional (``ifeq``, ``ifneq``, ``ifdef``, ``ifndef``, ``else ifeq ...``) and its ``endif``: an
assignment between them holds only when the condition does (GNU make manual, "Conditional Parts of Makefiles"),
which the paste does not show (rev48f: ``ifeq ($(GPU),rdna2)`` / ``export HSA_OVERRIDE_GFX_VERSION := 10.3.0`` /
``endif`` is no override set on an RX 7900 XTX)."""


def _make_conditional_lines(block: Block) -> Set[int]:
    """Numbers of the block's lines inside a Makefile conditional (nested ones counted)."""
    inside: Set[int] = set()
    depth = 0
    for line in block.lines:
        found = _MAKE_IF.match(line.text)
        if found is not None:
            depth = max(0, depth - 1) if found.group(0).strip() == "endif" else (depth if found.group(0).lstrip().startswith("else") else depth + 1)
            continue
        if depth:
            inside.add(line.number)
    return inside
_PROSE_TO = when_used(
    rf"\b({_UPPER_NAME})`?\s+(?:(?:(?:is|was|are|were)\s+)?set\s+to|to|as)\s+`?(\d[\w.:,]*|gfx\w+|true|false|on|off)\b", re.IGNORECASE
)
"""``NAME to value`` ("I set HSA_OVERRIDE_GFX_VERSION to 10.3.0") and ``NAME [is|was] set to value``, the name
before the verb: "OLLAMA_NOHISTORY is set to "true"" (ollama/ollama#5414), "I had HSA_OVERRIDE_GFX_VERSION set to
11.0.0 instead of 10.3.0" (ollama/ollama#8851), "When OLLAMA_HOST is Set to 0.0.0.0" (ollama/ollama-python#407).
"is not set to" is no setting; advice, questions and conditions are dropped as for every prose setting."""
_PROSE_EMPTY = when_used(
    r"\bempty\s{1,3}[`'\"]?(HSA_OVERRIDE_GFX_VERSION(?:_\d{1,2})?)\b(?![^.!?\n]{0,40}?\b(?:no\s{1,3}longer|not|never|isn't|wasn't|aren't)\b)"
    r"|(?<![$\w{])(HSA_OVERRIDE_GFX_VERSION(?:_\d{1,2})?)[`'\"]?\s{1,3}(?:(?:(?:is|was)\s{1,3})?(?:set|defined)\s{1,3}(?:to|as)\s{1,3}(?:an\s{1,3})?\*{0,2}empty\b"
    r"|(?:is|was)\s{1,3}an\s{1,3}\*{0,2}empty\s{1,3}(?:string|value)\b)"
    r"|\b(?:sets|setting|defines|defining)\s{1,3}[`'\"]?(HSA_OVERRIDE_GFX_VERSION(?:_\d{1,2})?)[`'\"]?\s{1,3}(?:to|as)\s{1,3}(?:an\s{1,3})?\*{0,2}empty\b",
    re.IGNORECASE,
)
"""The override said in words to be defined and empty: "Empty `HSA_OVERRIDE_GFX_VERSION` env var breaks ROCm
initialization" (aaronsb/knowledge-graph-system#199); "defines it as an EMPTY STRING" (Osmantic/ODS#1779) and
"sets the variable to an empty string" (jamiepine/voicebox#864) say it of the compose default
``${HSA_OVERRIDE_GFX_VERSION:-}``, which the compose reader takes; an indented results table is not prose. libhsakmt reads a defined-but-empty value as an override
it cannot parse. Only this variable: an empty HIP_VISIBLE_DEVICES or CUDA_VISIBLE_DEVICES means something else.
A bare "X is empty" / "X was empty" / "X empty" is not taken: reporters say it of an unset variable ("echo
$HSA_OVERRIDE_GFX_VERSION is empty", "`env | grep HSA_OVERRIDE_GFX_VERSION` was empty"), which no shell output tells
from an empty one, and a results table ("HSA_OVERRIDE_GFX_VERSION empty -> no ROCm devices", ODS#1779) lists trials;
only the adjective before the name, "set/defined to/as (an) empty", "is an empty string" and "sets X to an empty
string" (voicebox#864 writes it "to an **empty string**"; ODS#1779's title "define HSA_OVERRIDE_GFX_VERSION as an
empty string") state a defined value; "an empty X is no longer exported" (the sentence negates it
within 40 characters) and "is not empty" are no such statement; advice, questions and
conditions are dropped as for every prose setting."""
_BOILERPLATE = when_used(r"consider passing|Compile with `?TORCH_USE|For debugging consider|might be asynchronously reported", re.IGNORECASE)
"""PyTorch's own error text names variables (``For debugging consider passing AMD_SERIALIZE_KERNEL=3``): not settings."""
_LISTING_COMMAND = when_used(r"^\s*(?:sudo\s+)?(env|printenv|export\s+-p|set)\s*(?:\|\s*(grep|findstr|rg|egrep)\s+(.*))?$")
_PS_LISTING_COMMAND = when_used(
    r"^\s*(?:Get-ChildItem|gci|dir|ls)\s+Env:\\?\s*(?:\|\s*(?:Where-Object|where|\?)\s+(?:\{\s*\$_\.)?Name\s+-i?match\s+['\"]([^'\"]+)['\"]\s*\}?)?"
    r"\s*(?:\|\s*(?:ForEach-Object|%)\s*\{[^}]*\}\s*)?(?:\|\s*Format-Table\b.*)?$",
    re.IGNORECASE,
)
"""PowerShell's listing of the environment, optionally filtered by name (``-match`` is a case-insensitive regex)."""
_LISTING_ROW = when_used(rf"^\s*({_NAME})=(.*)$")
_PRINT_ONE = when_used(rf"^\s*(?:echo\s+(?:-[neE]+\s+)?[\"']?\$\{{?({_NAME})\}}?[\"']?|printenv\s+({_NAME}))\s*$")
"""``echo $NAME`` / ``echo "${NAME}"`` / ``printenv NAME`` after a shell prompt: the shell prints the live
value on the next line (bash(1), Parameter Expansion). Pasted so in ROCm/librocdxg#46 (``echo
$LD_LIBRARY_PATH``) and in the many setup guides that check ``echo $HSA_OVERRIDE_GFX_VERSION``; a
line starting with ``#`` there is the guide's "expected" note, not output."""
_PS_ROW = when_used(rf"^\s*({_NAME})(?:=|\s{{2,}})(.*)$")
_PS_HEADER = when_used(r"^\s*(?:Name\s+Value|-{4}\s+-{5})\s*$")
_OLLAMA_CONFIG = when_used(
    r"env=(?:\"map\[((?:(?!env=)[^\n]|\n(?=[^\n])){0,8000}?)\]\"|map\[((?:(?!env=)[^\n]|\n(?=[^\n])){0,8000}?)\][ \t]*$)", re.MULTILINE
)
"""ollama's ``server config env="map[NAME:value ...]"`` line, also when a terminal or a paste wrapped it
over several lines (a line of 700 characters, ollama/ollama#5414): the map runs on until its closing
``]"`` (a ``]`` ending a line when the map is unquoted; OLLAMA_ORIGINS holds brackets of its own), never
across a blank line, nor past another ``env=`` (a map holds none: without this stop, a line of ``env=map[``
repeated was read 8,000 characters from each of its starts, 0.06 MB/s)."""
_LOGFMT = when_used(r"\blevel=\w+\b.*\bmsg=")
_STARTUP_FILE = when_used(
    r"(?<![\w-])(?:~/|\$HOME/|/home/[\w.-]{1,64}/|/root/|/etc/)?(?:\.bashrc|\.bash_profile|\.bash_login|\.profile|\.zshrc|\.zprofile|\.zshenv"
    r"|bash\.bashrc|profile\.d/[\w.-]{1,64}|config\.fish|/etc/profile)(?![\w-])"
)
"""A shell startup file (bash(1) INVOCATION, zsh(1) STARTUP/SHUTDOWN FILES, fish's config.fish): read
by the shells that start, never by a systemd service, cron or another user's process."""
_RC_APPEND = when_used(rf"\becho\s+['\"]export\s+({_NAME})=([^'\"\n]{{0,512}})['\"]\s*>>?\s*(\S+)")
"""``echo 'export NAME=value' >> ~/.bashrc``: a setting written into a startup file."""
_RC_CONTEXT_LINES = 8
"""An export belongs to a startup file named on its own line, in its paragraph above it or in the
paragraph just before ("AMD ROCm setup in .bashrc" / "# ~/.bashrc" over the export lines, "I added
this to my .bashrc:" and a blank line), at most this many lines up: wrapping a sentence moves the
name up a line or two but not out of its paragraph."""

_WHERE = {
    "export": "this shell and the programs it starts",
    "command-prefix": "that one command",
    "powershell": "this PowerShell session",
    "persistent": "new processes of this user or machine (not the window that set it)",
    "cmd-set": "this cmd window",
    "setx": "new processes of this user (not the window that ran setx)",
    "fish": "this fish shell",
    "shell-rc": "shells that read this startup file (interactive or login shells of this user), not services",
    "systemd": "the systemd service whose unit sets it",
    "dockerfile": "the image built from this Dockerfile",
    "docker-run": "the container that docker run starts",
    "compose": "the compose service",
    "python": "the Python process, from that line on",
    "env-listing": "the environment the listing was printed from",
    "app-config": "the application's own process (its log prints it)",
    "assignment": "a setting the report shows without saying where it is made",
    "prose": "a setting the report's text mentions",
}


def _clean(value: Optional[str]) -> Optional[str]:
    if value is None:
        return None
    value = value.strip()
    if "\n" in value:
        value = re.sub(r"[ \t]*\n[ \t]*", " ", value)
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    if len(value) >= 2 and value[0] == value[-1] == "`":
        # Markdown's inline code round one word ("HSA_OVERRIDE_GFX_VERSION=`10.3.0`") is the value; a shell command
        # substitution (`rocminfo | grep gfx`, `cat ids`) has a command and its arguments: it stays an expression
        # whose result the report does not show (:data:`rocm_doctor.ingest.assemble._UNEXPANDED`).
        inner = value[1:-1].strip()
        return inner if inner and not re.search(r"[\s$|;&()<>]", inner) else value
    value = value.rstrip(_TRAILING)
    if value.endswith("?") and "?" not in value.rstrip("?") and "/" not in value:
        # rev50a: a question mark that ends the sentence after the value ("... crash with HSA_OVERRIDE_GFX_VERSION=11.0.0?")
        # is no part of it (a URL's query keeps its own)
        value = value.rstrip("?").rstrip(_TRAILING)
    return value


def _stack(name: str) -> bool:
    return name.upper().startswith(STACK_PREFIXES)


_OWN_DEFAULT = when_used(r"\$\{([A-Za-z_][A-Za-z0-9_]{0,127}):?[-=]([A-Za-z0-9._:,/+-]{0,128})\}?")
"""A script's ``NAME=${NAME:-value}``: the variable keeps a value set before, else takes ``value``, which is what the
script sets (HSA_OVERRIDE_GFX_VERSION=${HSA_OVERRIDE_GFX_VERSION:-10.3.0} and :-9.0.6, :-11.0.2 in three public
scripts; PYTORCH_ROCM_ARCH=${PYTORCH_ROCM_ARCH:-gfx90a} in hyprstream#228). An empty default (``:-``) is the empty
string, which a compose file passes when the host has no value (the variable is then defined and empty: ods#1779,
voicebox#864). A default that is itself an expansion or a placeholder (``:-$DETECTED``, ``:-<unset>``) is no value:
the setting stays an expression (:func:`rocm_doctor.ingest.assemble._shown_unexpanded`)."""


def _own_default(name: str, value: Optional[str]) -> Optional[str]:
    if value is None or "${" not in value:
        return value
    match = _OWN_DEFAULT.fullmatch(value)
    return match.group(2) if match and match.group(1) == name else value


def _sighting(name: str, value: Optional[str], origin: str, line: Line, trust: int, reaches: Optional[bool] = None, reason: Optional[str] = None) -> SettingSighting:
    cleaned = _clean(value)
    taken = _own_default(name, cleaned)
    if taken != cleaned:
        trust -= 1  # the default holds only when nothing set the variable before: a value set beside it wins
    return SettingSighting(name, taken, origin, _WHERE[origin], line, reaches, reason, trust)


def _command_id(line: Line, start: int) -> str:
    """Which one command a prefix belongs to: the same text for every assignment of that command's prefix."""
    return f"{line.source} at {start}"


_INLINE_COMMAND = when_used(rf"(?<![`\w])`((?:{_UPPER_NAME}=[^\s`'\"]{{0,512}}[ \t]+){{1,64}})([A-Za-z0-9./~_-][^\s=`]*)[^`\n]{{0,512}}`")
"""A command written in prose's inline code with its own environment before it: "I run `ROCR_VISIBLE_DEVICES=1 ollama
serve` and ...", "`HSA_OVERRIDE_GFX_VERSION=11.0.0 python x.py` works". Its variables are that command's, not the
session's. Reports that write commands so: AUTOMATIC1111/stable-diffusion-webui#15434 ("`HSA_OVERRIDE_GFX_VERSION=11.0.0
webui.sh`"), ROCm/legacy-rocm-build#1797 ("`HSA_OVERRIDE_GFX_VERSION=10.3.0 python3`"), ollama/ollama#5414
("`OLLAMA_NOHISTORY=1 ollama run <model>`"), ollama/ollama#5574 ("`OLLAMA_HOST=localhost:8080 ollama list`")."""


def _inline_commands(block: Block) -> Dict[int, str]:
    """For every assignment that is the prefix of a command in inline code: its name's offset -> the command's id."""
    out: Dict[int, str] = {}
    for match, line in block.scan(_INLINE_COMMAND):
        program = match.group(2)
        if program.lower() in ("export", "set", "setx", "env") or program.lower().strip(",.;:") in _PROSE_WORDS:
            continue
        command = _command_id(line, match.start(1))
        for token in re.finditer(rf"({_UPPER_NAME})=", match.group(1)):
            out[match.start(1) + token.start(1)] = command
    return out


MAX_ASSIGNMENTS = 64
"""Assignments read from one ``export``/prefix (``export A=1 B=2 ...``): no real command sets more."""


def _assignments(text: str) -> Iterator[Tuple[str, Optional[str]]]:
    """``A=1 B="2 3" C`` -> (A, 1), (B, 2 3), (C, None)."""
    for token in itertools.islice(re.finditer(rf"({_NAME})(?:=({_VALUE}))?", text), MAX_ASSIGNMENTS):
        yield token.group(1), token.group(2)


_NO_ROWS_FLAGS = set("vclLoq")
"""grep flags after which the output is not the matching rows (invert, count, file names, only the match, quiet)."""


def _listing_patterns(tool: Optional[str], arguments: Optional[str]) -> List[str]:
    """What ``env | TOOL ARGUMENTS`` lists every set variable of, as one regular expression over
    names; nothing when that cannot be said (an inverted or counting grep, a pattern anchored at
    the end of the line, which also depends on the value)."""
    if not tool:
        return [".*"]
    try:
        words = shlex.split(arguments or "", posix=tool != "findstr")
    except ValueError:
        words = (arguments or "").split()
    if tool == "findstr":  # findstr STRINGS: any of the space-separated strings; /V inverts, /I ignores case
        options = {w.upper() for w in words if w.startswith("/")}
        strings = [x for w in words if not w.startswith("/") for x in w.strip('"').split()]
        if not strings or options & {"/V", "/M"}:
            return []
        return [("(?i)" if "/I" in options else "") + "|".join(re.escape(x) for x in strings)]
    patterns: List[str] = []
    flags = ""
    expect_pattern = explicit = False
    for word in words:
        if expect_pattern:
            patterns.append(word)
            expect_pattern = False
        elif word in ("-e", "--regexp"):
            expect_pattern = explicit = True
        elif word.startswith("--"):
            if word in ("--invert-match", "--count", "--files-with-matches", "--only-matching", "--quiet"):
                return []
            flags += {"--ignore-case": "i", "--extended-regexp": "E", "--fixed-strings": "F", "--perl-regexp": "P"}.get(word, "")
        elif word.startswith("-") and len(word) > 1:
            flags += word[1:]
        elif not patterns and not explicit:
            patterns.append(word)  # the pattern; later words (and all of them after -e) are files
    patterns = [p for p in patterns if p]
    if not patterns or set(flags) & _NO_ROWS_FLAGS:
        return []
    if "F" in flags:
        regexes = [re.escape(p) for p in patterns]
    elif tool in ("egrep", "rg") or set(flags) & set("EP"):
        regexes = patterns
    else:  # grep's basic syntax: \| alternates, \( \) group
        regexes = [p.replace("\\|", "|").replace("\\(", "(").replace("\\)", ")") for p in patterns]
    pattern = "|".join(f"(?:{r})" for r in regexes)
    if re.search(r"(?<!\\)\$", pattern):
        return []
    try:
        re.compile(pattern)
    except re.error:
        return []
    return [("(?i)" if "i" in flags else "") + pattern]


def _listings(block: Block) -> Tuple[List[SettingSighting], List[str], List[Line]]:
    """``env`` / ``printenv`` output after the command that printed it."""
    if not any(word in block.lower for word in ("env", "printenv", "set", "echo")):
        return [], [], []
    out: List[SettingSighting] = []
    coverage: List[str] = []
    used: List[Line] = []
    lines = block.lines
    for i, line in enumerate(lines):
        if not line.command and block.kind == "prose":
            continue
        printed = _PRINT_ONE.match(line.text) if line.command else None
        if printed is not None:
            value = lines[i + 1] if i + 1 < len(lines) else None
            printed_text = value.text.strip() if value is not None and not value.command else ""
            # One word: the ROCm variables read so (paths, gfx versions, device lists) hold no blank,
            # and a line of words after the command is the reporter's prose ("I set it in .bashrc
            # but nothing prints"), not its output.
            one_word = len(printed_text.split()) == 1
            if one_word and not printed_text.startswith("#") and "=" not in printed_text.split("/")[0]:
                out.append(_sighting(printed.group(1) or printed.group(2), value.text.strip(), "env-listing", value, TRUST_TOOL, True))
                used += [line, value]
            continue
        match = _LISTING_COMMAND.match(line.text)
        powershell = _PS_LISTING_COMMAND.match(line.text) if match is None and "env:" in line.text.lower() else None
        if powershell is None and (match is None or (match.group(1) == "set" and not line.command)):
            continue
        row_pattern = _PS_ROW if powershell else _LISTING_ROW
        rows = 0
        j = i + 1
        while j < len(lines) and not lines[j].command:
            row = lines[j]
            if powershell and (_PS_HEADER.match(row.text) or (not rows and not row.text.strip())):
                j += 1  # PowerShell's table: a blank line, the header and its rule before the rows
                continue
            assignment = row_pattern.match(row.text)
            if assignment is None:
                break
            out.append(_sighting(assignment.group(1), assignment.group(2), "env-listing", row, TRUST_TOOL, True))
            used.append(row)
            rows += 1
            j += 1
        # Complete only when the rows run to the next command or the end of the block: a listing
        # cut short ("...", a note) may have lost rows.
        whole = j == len(lines) or lines[j].command
        filtered = powershell.group(1) if powershell else match.group(2)
        if (rows or filtered) and whole:
            if powershell:
                coverage += ["(?i)" + filtered if filtered else ".*"]
            else:
                coverage += _listing_patterns(match.group(2), match.group(3))
        if rows or filtered:
            used.append(line)
    return out, coverage, used


def _ollama_config(block: Block) -> Tuple[List[SettingSighting], List[str]]:
    if "map[" not in block.text:
        return [], []
    out: List[SettingSighting] = []
    keys: List[str] = []
    for match, line in block.scan(_OLLAMA_CONFIG):
        for pair in re.finditer(rf"({_UPPER_NAME}):(\S*)", match.group(1) or match.group(2) or ""):
            name, value = pair.group(1), pair.group(2)
            keys.append(f"^{name}$")
            if value:
                out.append(_sighting(name, value, "app-config", line, TRUST_TOOL, True))
    return out, keys


def _fish(flags: str) -> Tuple[bool, bool, bool]:
    """(erase, exported, universal) from fish ``set`` flags."""
    letters = "".join(f.lstrip("-") for f in flags.split() if not f.startswith("--"))
    long = flags.split()
    erase = "e" in letters or "--erase" in long
    exported = "x" in letters or "--export" in long
    universal = "U" in letters or "--universal" in long
    return erase, exported, universal


def _systemd(text: str) -> Iterator[Tuple[str, Optional[str]]]:
    text = text.rstrip()
    if text.endswith("`"):
        text = text[:-1]
    try:
        words = shlex.split(text)
    except ValueError:
        words = text.split()
    for word in words:
        if "=" not in word:
            # A unit's Environment= holds only assignments: a word that is none ends it, and what follows
            # on the line is the reporter's prose ("... is in my ollama.service. In my shell I also did
            # export OLLAMA_HOST=..."), not the unit's (r33a).
            return
        name, value = word.split("=", 1)
        if re.fullmatch(_NAME, name):
            yield name, value


def _compose(block: Block) -> List[SettingSighting]:
    if "environment:" not in block.text:
        return []
    out: List[SettingSighting] = []
    lines = block.lines
    for i, line in enumerate(lines):
        head = re.match(r"^(\s*)-?\s*environment:\s*$", line.text)
        if head is None:
            continue
        indent = len(head.group(1))
        for j in range(i + 1, len(lines)):
            row = lines[j]
            depth = len(row.text) - len(row.text.lstrip())
            if not row.text.strip() or depth <= indent:
                break
            item = re.match(rf"^\s*-\s*['\"]?({_NAME})=(.*?)['\"]?\s*$", row.text) or re.match(
                rf"^\s*({_NAME}):\s*(.*?)\s*$", row.text
            )
            if item is None:
                break
            # one service's own environment (env60): a compose file's services are separate containers, and the
            # settings of one never reach another's program
            out.append(replace(_sighting(item.group(1), item.group(2), "compose", row, TRUST_TEMPLATE), command=f"{line.source} (a compose service)"))
    return out


def _docker(block: Block) -> List[Tuple[int, int, SettingSighting]]:
    """``-e NAME=value`` of a ``docker run`` command (continued over ``\\`` lines), with the span of each flag."""
    lowered = block.lower
    if "docker" not in lowered and "podman" not in lowered:
        return []
    out: List[Tuple[int, int, SettingSighting]] = []
    in_command = expecting = False
    container = ""
    for index, line in enumerate(block.lines):
        text = line.text
        run = _DOCKER_RUN.search(text)
        if run is not None:
            in_command, expecting = True, False
            container = _command_id(line, run.start())
        if in_command:
            # only the command's own options: after the image (or exec's container) come the container's
            # command and its arguments ("rocm/pytorch python x.py -e foo")
            offset = run.end() if run is not None else 0
            options, expecting, at_image = docker_options(text, offset, expecting)
            start = block._starts[index]
            for match in _DOCKER_ENV.finditer(options):
                # the container's own environment, not the host shell's: one command's (env60)
                sighting = replace(_sighting(match.group(1), match.group(2), "docker-run", line, TRUST_TEMPLATE), command=container)
                out.append((start + offset + match.start(), start + offset + match.end(), sighting))
            if at_image:
                in_command = False
        if not command_goes_on(block.lines, index, expecting):
            in_command = False
    return out


def _scan(block: Block) -> List[SettingSighting]:
    out: List[SettingSighting] = []
    text = block.text
    taken = Spans()

    def add(match: "re.Match[str]", sightings: List[SettingSighting]) -> None:
        taken.add(match.start(), match.end())
        out.extend(sightings)

    for start, end, sighting in _docker(block):
        taken.add(start, end)
        out.append(sighting)

    if "export" in text:
        for match, line in block.scan(_EXPORT):
            add(match, [_sighting(n, v, "export", line, TRUST_TEMPLATE) for n, v in _assignments(match.group(1)) if v is not None])
    if "unset" in text:
        for match, line in block.scan(_UNSET):
            add(match, [_sighting(n, None, "export", line, TRUST_TEMPLATE) for n, _ in _assignments(match.group(1))])
    if "=" in text:
        for match, line in block.scan(_PREFIX):
            command = match.group(2)
            if command.lower() in ("export", "set", "setx", "env") or match.start() in taken:
                continue
            if (command.lower().strip(",.;:") in _PROSE_WORDS or not _PROGRAM_NAME.search(command)) and not line.command:
                # "HSA_OVERRIDE_GFX_VERSION=11.0.0 on my 780M", "...=10.3.0 - now I wanted ...": a sentence (a dash
                # names no program), read as prose below
                continue
            sudo = command == "sudo"
            add(match, [
                replace(_sighting(n, v, "command-prefix", line, TRUST_TEMPLATE, not sudo, _SUDO_RESETS if sudo else None), command=_command_id(line, match.start(1)))
                for n, v in _assignments(match.group(1))
            ])
    lowered = block.lower
    if "$env:" in lowered:
        for match, line in block.scan(_POWERSHELL):
            add(match, [_sighting(match.group(1), match.group(2), "powershell", line, TRUST_TEMPLATE)])
    if "env:" in lowered and "remove-item" in lowered:
        for match, line in block.scan(_PS_REMOVE):
            add(match, [_sighting(match.group(1), None, "powershell", line, TRUST_TEMPLATE)])
    if "setenvironmentvariable" in lowered:
        for match, line in block.scan(_PS_PERSIST):
            add(match, [_sighting(match.group(1), match.group(2), "persistent", line, TRUST_TEMPLATE)])
    if "setx" in lowered:
        for match, line in block.scan(_SETX):
            add(match, [_sighting(match.group(1), match.group(2), "setx", line, TRUST_TEMPLATE)])
    if "set " in lowered:
        for match, line in block.scan(_FISH):
            if match.start() in taken:
                continue
            erase, exported, universal = _fish(match.group(1))
            if erase:
                add(match, [_sighting(match.group(2), None, "fish", line, TRUST_TEMPLATE)])
            elif match.group(3) is not None:
                reason = None if exported else (
                    "fish exports a variable only when it is set with -x (--export); "
                    + ("a universal variable (-U) without -x is shared between fish sessions but never reaches the programs they start" if universal else "without -x it stays inside fish")
                )
                add(match, [_sighting(match.group(2), match.group(3), "fish", line, TRUST_TEMPLATE, None if exported else False, reason)])
        for match, line in block.scan(_CMD_SET):
            if match.start() in taken:
                continue
            origin = "cmd-set" if (line.command or block.kind != "prose") else "prose"
            value = match.group(2)
            if origin == "cmd-set" and not line.command and _printed_hint(match.group(0), value):
                # a program's printed hint in a log ("Set XFORMERS_MORE_DETAILS=1 for more details", xFormers'
                # warning; "set HALOGEN_VISION_TOWER=/models/x.hgn to accept images.", halogen-flash-server's start-up
                # log, peonist-ai/halogen-flash-server#46): a sentence, read as prose (an imperative: advice), not a
                # cmd line run
                origin = "prose"
            if origin == "prose" and _prose_after_value(value):
                value = value.split(None, 1)[0]  # "Set X=10.3.0 in my .bashrc.": the value alone (cmd would take the rest)
            add(match, [_sighting(match.group(1), value, origin, line, TRUST_TEMPLATE if origin == "cmd-set" else TRUST_PROSE)])
    if "Environment" in text:
        for match, line in block.scan(_SYSTEMD):
            # the service's own environment (env60): a unit's Environment= lines, shown in one block, are that service's
            unit = f"{block.lines[0].source if block.lines else line.source} (a systemd unit)"
            add(match, [replace(_sighting(n, v, "systemd", line, TRUST_TEMPLATE), command=unit) for n, v in _systemd(match.group(1))])
    if "ENV" in text:
        for match, line in block.scan(_DOCKERFILE):
            if text[match.end(1) : match.end(1) + 1] == "=":  # ENV A=1 B="2 3"
                pairs = [(n, v) for n, v in _assignments(f"{match.group(1)}={match.group(2)}") if v is not None]
            else:  # the legacy form: ENV NAME the whole value
                pairs = [(match.group(1), match.group(2))]
            add(match, [_sighting(n, v, "dockerfile", line, TRUST_TEMPLATE) for n, v in pairs])
    if "environ" in text:
        for match, line in block.scan(_PYTHON):
            # that Python process's own environment (the session's and what the script sets): one program's (env60)
            script = f"{block.lines[0].source if block.lines else line.source} (a Python script)"
            add(match, [replace(_sighting(match.group(1) or match.group(2), match.group(3), "python", line, TRUST_TEMPLATE), command=script)])
    if "=" in text and ("?=" in text or ":=" in text):
        conditional = _make_conditional_lines(block) if ("ifeq" in text or "ifneq" in text or "ifdef" in text or "ifndef" in text) else set()
        for match, line in block.scan(_MAKE):
            if match.start(1) in taken or not _stack(match.group(1)) or line.number in conditional:
                continue
            if line.command and line.raw.lstrip().startswith("#"):
                # "# export NAME := value" is a make or just comment: no shell runs "export NAME := ..." (rev48f)
                continue
            add(match, [_sighting(match.group(1), match.group(2), "assignment", line, TRUST_PROSE)])
    if "=" in text:
        for match, line in block.scan(_BARE):
            if match.start(1) in taken:
                continue
            if not _stack(match.group(1)):
                # Fenced or not, a bare NAME=value of another program is no setting of the GPU stack
                # (``cat /etc/os-release`` prints NAME="Ubuntu", VERSION="25.10 ..."; ROCm/ROCm#5905).
                continue
            origin = "app-config" if _LOGFMT.search(line.text) else ("assignment" if block.kind != "prose" else "prose")
            add(match, [_sighting(match.group(1), match.group(2), origin, line, TRUST_TOOL if origin == "app-config" else TRUST_PROSE, True if origin == "app-config" else None)])
        commands = _inline_commands(block) if "`" in text else {}
        for match, line in block.scan(_INLINE):
            if match.start(1) in taken or not _stack(match.group(1)) or _BOILERPLATE.search(line.text):
                continue
            origin = "app-config" if _LOGFMT.search(line.text) else "prose"
            sighting = _sighting(match.group(1), match.group(2), origin, line, TRUST_TOOL if origin == "app-config" else TRUST_PROSE, True if origin == "app-config" else None)
            command = commands.get(match.start(1))
            add(match, [replace(sighting, command=command) if command is not None and origin == "prose" else sighting])
    if "empty" in lowered and "hsa_override_gfx_version" in lowered:
        for match, line in block.scan(_PROSE_EMPTY):
            group = match.lastindex or 1  # the one name group of the alternative that matched
            if match.start(group) in taken:
                continue
            add(match, [_sighting(match.group(group), "", "prose", line, TRUST_PROSE)])
    if " to " in lowered or " as " in lowered:
        for match, line in block.scan(_PROSE_TO):
            if match.start(1) in taken or not _stack(match.group(1)) or not re.match(r"^[\w.:,-]+$", _clean(match.group(2)) or ""):
                continue
            add(match, [_sighting(match.group(1), match.group(2), "prose", line, TRUST_PROSE)])
    return out


_VAGUE = ("prose", "assignment")

_ADVICE = when_used(
    r"\b(?:can|could|should|would|might|may|must)\s+(?:be\s+)?(?:\w+\s+){0,2}(?:with|by|using)\b"
    r"|\byou\s+(?:can|could|should|need\s+to|have\s+to|must|may)\b|\b(?:suggest\w*|recommend\w*|advis\w*)\b"
    # a condition put to the reader ("If you set HSA_OVERRIDE_GFX_VERSION to 10.3.0 it should work") and an
    # imperative ("Try setting ...", not "I try setting ..."): advice, not a setting made (h36g)
    r"|\b(?:if|when|once)\s+you\b|(?<!\bI\s)(?<!\bwe\s)\btry\s+(?:setting|exporting|adding|using|to\s+set|to\s+export)\b"
    # a check put to the reader ("Make sure HSA_OVERRIDE_GFX_VERSION is set to 10.3.0", "Please check that
    # HIP_VISIBLE_DEVICES is set to 0", "Ensure ..."), a yes/no question ("Is HSA_OVERRIDE_GFX_VERSION set to
    # 10.3.0 in your environment?") and a condition ("If HSA_OVERRIDE_GFX_VERSION is set to 10.3.0, rocBLAS loads
    # ..."): the "NAME is set to value" form h36g added reads these as settings made (r36a)
    r"|\b(?:make\s+sure|ensure|double-?check|check|verify|confirm)\s+(?:that\s+|whether\s+|if\s+)?(?:the\s+)?(?:variable\s+|env\w*\s+)?[`'\"]?$"
    r"|^\s*(?:is|are|was|were)\s+(?:the\s+)?(?:variable\s+|env\w*\s+)?[`'\"]?$|\b(?:if|unless|whether)\s+(?:the\s+)?(?:variable\s+|env\w*\s+)?[`'\"]?$"
    r"|\b(?:should|shall|can|could|do|would|must)\s+(?:I|we)\s+(?:\w+\s+){0,3}?(?:set|use|export|try|add|put|change|pass|need)\b"
    # ov50: "Do I need HSA_OVERRIDE_GFX_VERSION=10.3.0?", "Is HSA_OVERRIDE_GFX_VERSION=11.0.0 needed for ...?": a question
    r"|^\s*(?:do|does|did)\s+(?:I|we|you|it|this|one)\s+(?:\w+\s+){0,2}?(?:need|require|want)\s+(?:to\s+(?:set|use|export|add)\s+)?(?:the\s+)?(?:variable\s+|env\w*\s+)?[`'\"]?$"
    # pkgenv47: a reply's imperative opening the sentence ("Set `HSA_OVERRIDE_GFX_VERSION=10.3.0` in the server
    # config", ollama/ollama#12903; "Try HIP_VISIBLE_DEVICES=1"), a question to the reader ("Have you tried
    # `HSA_OVERRIDE_GFX_VERSION=10.3.0`?", ollama/ollama#3547's "have you tried setting the override
    # variable?"), the variable given as an example ("Environment variables like `HSA_OVERRIDE_GFX_VERSION=10.3.0`
    # can also be used", ROCm/legacy-rocm-build#3401) and a negated setting ("Don't set
    # `HSA_OVERRIDE_GFX_VERSION=10.3.0` by default", vladmandic/sdnext#1805; "I did not set ..."): no setting
    # made on this machine. A numbered or bulleted step ("1. Set X=... 2. Run ...") is a reproduction step, the
    # reporter's own: :func:`_advice` keeps it.
    # ("Then export ..." is not among them: a step the reporter tells in order, "Then export X=... and launch
    # webui.sh", as read before pkgenv47; rev47c)
    r"|^\s*(?:please\s+|just\s+|also\s+)?(?:try:?\s+[`'\"]?)?(?:set|export|add|put|try|define|pass|use)\s+(?:the\s+)?(?:variable\s+|env\w*\s+)?[`'\"]?$"
    r"|\b(?:have|did|do)\s+you\s+(?:\w+\s+){0,2}?(?:tried|try|set|use|used|export|exported|add|added)\b"
    # ov50: a tip addressed to other users ("Tip for RX 6000 users: export HSA_OVERRIDE_GFX_VERSION=10.3.0", "PSA: set
    # ...", "For 780M owners, export ..."): an imperative after the address is advice, as one opening the sentence is
    r"|(?:\b(?:tips?|hint|psa|fyi)\b[^.!?\n]{0,60}?:|\bfor\s+(?:[\w-]+\s+){0,4}?(?:users|owners)\b[^.!?\n]{0,10}?[:,]?)\s{0,3}(?:please\s+|just\s+)?(?:set|export|add|put|try|define|use)\s+(?:the\s+)?(?:variable\s+|env\w*\s+)?[`'\"]?$"
    r"|\b(?:variables?|vars|settings?|options?|flags?|things)\s+(?:like|such\s+as)\s+[`'\"]?$"
    r"|\b(?:don['\u2019]?t|do\s+not|does\s+not|doesn['\u2019]?t|did\s+not|didn['\u2019]?t|never|no\s+need\s+to)\s+(?:\w+\s+){0,2}?(?:set|export|use|add|define|pass|put|need)\s+(?:the\s+)?(?:variable\s+|env\w*\s+)?[`'\"]?$"
    r"|" + REPORTED_SPEECH + r"|" + DOCUMENT_SAYS,
    re.IGNORECASE,
)
"""Words that make a variable named in a sentence advice or a possibility, not a setting made: "On linux,
a similar problem ... can be resolved with ... HSA_OVERRIDE_GFX_VERSION = 10.3.0"
(leejet/stable-diffusion.cpp#160), "I would recommend setting the environment variable
HSA_OVERRIDE_GFX_VERSION=10.3.0" (ROCm/rocBLAS#1339), "Maybe ... HSA_OVERRIDE_GFX_VERSION=10.3.0 might
help" (ROCm/ROCm#2354). A question the reporter asks before it is none either ("Should I set
HIP_VISIBLE_DEVICES=1?", "Do I need to export HSA_OVERRIDE_GFX_VERSION=10.3.0?", h31d). Another person's words are no setting made here either ("someone wrote ...
HSA_OVERRIDE_GFX_VERSION=10.3.0 fixed it": :data:`rocm_doctor.ingest.formats.common.REPORTED_SPEECH`), nor a
document's ("the docs say \"HSA_OVERRIDE_GFX_VERSION=10.3.0 is required ...\"")."""
_ADVICE_AFTER = when_used(
    r"^\S{0,600}\s(?:[^.!?\n]{0,60}?\b(?:might|may|would|could|should)\s+(?:help|work|fix)|[^.!?\n]{0,60}?\bcan\s+(?:also\s+)?be\s+(?:used|set|tried|added)\b|(?:(?:is|was|are)\s+)?(?:set\s+to\s+)?\S{1,40}\s+by\s+default\b)",
    re.IGNORECASE,
)
"""After the setting itself (its value may hold dots), the rest of the sentence says it "might help", or that the
value is a program's default ("PYTORCH_TUNABLEOP_ENABLED is set to 0 by default": no setting made, r36a; only right
after the value: "I set HIP_VISIBLE_DEVICES to 0 because the iGPU is picked by default" is a setting)."""
_SENTENCE_END = when_used(r"[.!?](?:\s|$)")


_PAST_BEFORE = when_used(
    r"\b(?:used\s+to|no\s+longer|previously|formerly|in\s+the\s+past|back\s+(?:when|then|in)|on\s+(?:my\s+)?(?:old|previous|other)\s+(?:machine|pc|setup|system|card|gpu)"
    r"|before\s*,|before\s+(?:I|we)\s+(?:had|used|set|exported)|before\s+(?:the|my|this|that)\s+(?:update|upgrade|reinstall\w*)|previous\s+(?:job|work|employer|machine|pc|setup|system|cluster|server|project)(?:['\u2019]s)?)\b",
    re.IGNORECASE,
)
_PAST_AFTER = when_used(
    r"^\S{0,600}(?:[^.!?\n]|[.!?](?=\S)){0,80}?\b(?:(?:is|was|are)\s+no\s+longer\s+(?:needed|required|necessary)|(?:not|never)\s+(?:needed|required)\s+any\s?more"
    r"|(?:I|we)\s+(?:then\s+)?(?:removed|deleted|unset|dropped|changed|replaced|commented\s+out|took\s+out)\s+(?:it|that|this|the\s+(?:line|variable|setting|export))\b)",
    re.IGNORECASE,
)
"""A sentence that gives the setting as an earlier state ("I used to need HSA_OVERRIDE_GFX_VERSION=10.3.0 on
ROCm 5.2", "previously I exported ...", "HSA_OVERRIDE_GFX_VERSION=10.3.0 is no longer needed"): not the
environment now (a report's state and context; h31d). Also "Before, I had HIP_VISIBLE_DEVICES=1 set in .bashrc,
I removed it", "CUDA_VISIBLE_DEVICES=1 was set by the script, I changed it to 0", "In my previous job's cluster
we used ..." (r31a): a setting the reporter took away or left on another machine."""


_TAKEN_AWAY = when_used(
    r"(?:(?<!n['\u2019]t\s)(?<!\bnot\s)(?<!\bnever\s)(?<!\bto\s)\b(?:"
    r"stop(?:s|ped|ping)?\s{1,3}(?:setting|exporting|using|passing|defining|forcing|adding)"
    r"|(?:remov|delet)(?:e|es|ed|ing)|unset(?:s|ting)?|comment(?:s|ed|ing)?\s{1,3}out|(?:got|get|gets|getting)\s{1,3}rid\s{1,3}of"
    r"|(?:took|take|takes|taking)\s{1,3}out|drop(?:s|ped|ping)?)"
    r"|\b(?:not|without|never)\s{1,3}(?:setting|exporting|using|passing|defining|forcing)|\bwithout|\bw/o)"
    r"\s{1,3}(?:the\s{1,3}|my\s{1,3}|that\s{1,3}|this\s{1,3}|any\s{1,3})?(?:(?:line|variable|env(?:ironment)?(?:\s{1,3}var(?:iable)?)?|override|setting)\s{1,3})?"
    r"(?:export\s{1,3})?[`'\"*]{0,3}$",
    re.IGNORECASE,
)
"""The sentence before the setting says it was taken away or is not in force: "I stopped setting ...", "PR #1076 stopped
forcing HSA_OVERRIDE_GFX_VERSION=11.0.0 on ..." (Crosstalk-Solutions/project-nomad#1134), "Removes
`HSA_OVERRIDE_GFX_VERSION=9.0.0` from `test_gpu.rs`" (hyprstream/hyprstream#263), "Without `HSA_OVERRIDE_GFX_VERSION=11.5.1`,
the ROCm runtime may not ..." (PrismML-Eng/Bonsai-demo#90), "if i let it use my iGPU by not using HIP_VISIBLE_DEVICES=0"
(ggml-org/llama.cpp#8618), "after removing ... from my .bashrc", "I commented out ...": no setting in force now (prec57). Not
after a negation or "to" ("I didn't remove X=...", "forgot to remove X=...": the setting stays)."""

_USED_OBJECT = r"(?:it|that|this|them|the\s{1,3}(?:override|variable|setting|env\w{0,12}|line)|@NAME@)\b"
_TRIED_WITH_AFTER = (
    rf"\bwith\s{{1,3}}{_USED_OBJECT}"
    rf"|\b(?:so|then|and|but)\s{{1,3}}(?:I|we)\s{{1,3}}(?:(?:also|then|just|had\s{{1,3}}to|have\s{{1,3}}to|did)\s{{1,3}})?(?:set|added|exported|export|used|put)\s{{1,3}}{_USED_OBJECT}"
    rf"|\b(?:after|once|when)\s{{1,3}}(?:I\s{{1,3}}|we\s{{1,3}})?(?:set(?:ting)?|add(?:ed|ing)|export(?:ed|ing)?|us(?:ed|ing))\s{{1,3}}{_USED_OBJECT}"
)
"""After a setting said to be absent ("without X=...", "not setting X=..."), the rest of the line says it was used too:
"Without X=10.3.0 it crashes, with it it works", "It segfaults without X=..., so I set it", "I tried without X=... and
with it", "Without X=... nothing works, after setting it everything works": the setting was tried both ways and is the
reporter's working (or current) one, not taken away (rev57i)."""

_ABSENT_STATE = when_used(r"^(?:without|w/o|not|never)\b", re.IGNORECASE)
"""The _TAKEN_AWAY match is a state ("without X", "not setting X"), not an act of removal ("removed X", "stopped setting X")."""


def _taken_away(block: Block, line: Line, column: int, name: str, length: int) -> bool:
    """The sentence before ``column`` says the setting at ``column`` was taken away or is not in force, and (for a
    state such as "without X=...") the rest of the line (after ``length`` characters) does not say ``name`` was used as
    well (rev57i)."""
    found = _TAKEN_AWAY.search(_sentence_before(block, line, column))
    if found is None:
        return False
    if not _ABSENT_STATE.match(found.group(0)):
        return True
    return not _tried_with(name).search(line.text[column + length :])


_ASSIGNMENT_GAP = re.compile(r"[=\"'` ]*")
"""What may stand between a setting's name and its value where the line names it."""


def _every_mention_taken_away(block: Block, sighting: SettingSighting) -> bool:
    """Each place the line names this setting (with its value, where it has one) is taken away: "I removed X=10.3.0 from
    .bashrc but it is still set via /etc/environment: X=10.3.0" keeps the setting the second mention shows (rev57i)."""
    text = sighting.line.text
    places = [m.start() for m in re.finditer(re.escape(sighting.name), text)]
    if sighting.value is not None:
        # the value right after the name and its "=", quotes or spaces, read in place: slicing the rest of the line at
        # each mention made a line of many mentions quadratic
        valued = [at for at in places if text.startswith(sighting.value, _ASSIGNMENT_GAP.match(text, at + len(sighting.name)).end())]
        places = valued or places
    return bool(places) and all(_taken_away(block, sighting.line, at, sighting.name, len(sighting.name)) for at in places)


@functools.lru_cache(maxsize=64)
def _tried_with(name: str) -> "re.Pattern[str]":
    """_TRIED_WITH_AFTER with ``name`` itself among the objects ("... with HSA_OVERRIDE_GFX_VERSION=10.3.0 it works")."""
    return re.compile(_TRIED_WITH_AFTER.replace("@NAME@", re.escape(name)), re.IGNORECASE)


_LIST_STEP = when_used(r"^\s{0,8}(?:>\s{0,4})?(?:\d{1,2}[.)]|[-*+])\s")
"""A numbered or bulleted item: a reproduction step ("1. Set HSA_OVERRIDE_GFX_VERSION=10.3.0"), the reporter's own."""
_OPENING_IMPERATIVE = when_used(r"^\s*(?:please\s+|just\s+|then\s+|also\s+)?(?:set|export|add|put|try|define|pass|use)\s+(?:the\s+)?(?:variable\s+|env\w*\s+)?[`'\"]?$", re.IGNORECASE)


_COMMAND_LINE = when_used(rf"^\s{{0,8}}@?(?:set|SET|export|EXPORT)\s{{1,4}}{_NAME}=(.{{0,600}})$")
_PROSE_WORD = when_used(r"(?:^|\s)[A-Za-z][a-z]{1,20}[.,;:!?]?(?=\s|$)")


def _command_line(text: str) -> bool:
    """A line that is the command itself: ``set NAME=value`` (cmd, a ``webui-user.bat``) or ``export NAME=value``,
    lower or upper case, nothing but the value after ``=`` (``set COMMANDLINE_ARGS=--use-zluda --medvram``): not a
    reply's imperative ("Set `NAME=value` in the server config", title case, or prose words after the value)."""
    match = _COMMAND_LINE.match(text)
    return match is not None and "`" not in text and not _prose_after_value(match.group(1))


def _printed_hint(line: str, written: str) -> bool:
    """A ``set NAME=value`` line a program printed as advice: title case with a sentence after the value ("Set
    XFORMERS_MORE_DETAILS=1 for more details"), or any case where the word after the value is one of the English
    function words of :data:`_PROSE_WORDS` ("set HALOGEN_VISION_TOWER=/models/x.hgn to accept images."). A
    ``webui-user.bat`` line's further words are the value's own ("set COMMANDLINE_ARGS=--precision full --no-half")."""
    if line.lstrip(" \t`").startswith("Set ") and _prose_after_value(written):
        return True
    rest = written.strip().split(None, 2)
    return len(rest) > 1 and rest[1].rstrip(".,;:!?").lower() in _PROSE_WORDS


def _prose_after_value(written: str) -> bool:
    """What follows ``NAME=`` goes on as a sentence after its first word ("10.3.0 in my .bashrc."), where a command's
    value runs to the end of the line ("--use-zluda --medvram")."""
    rest = written.strip().split(None, 1)
    return len(rest) > 1 and bool(_PROSE_WORD.search(" " + rest[1]))


_STEPS_HEADING = when_used(
    r"^\s{0,8}(?:#{1,6}\s{0,3}|\*\*|__)?(?:steps\s+to\s+reproduce|(?:how\s+)?to\s+reproduce|reproduction(?:\s+steps)?|repro\s+steps"
    r"|what\s+I\s+(?:did|ran|tried|do)|I\s+(?:did|ran|tried|do)\s+(?:the\s+following|this|these\s+steps)|I\s+ran|my\s+steps|steps\s+I\s+(?:took|followed))\b[^\n]{0,40}$",
    re.IGNORECASE,
)
"""A heading that gives the lines after it as what the reporter did ("Steps to reproduce:", "**To Reproduce**",
"What I did:", "I ran:"): an imperative under it ("Set HSA_OVERRIDE_GFX_VERSION=10.3.0") is a step the reporter
took, not a reply's advice (rev47c: pkgenv47's opening-imperative test dropped these; numbered steps were kept)."""


def _under_steps_heading(block: Block, index: int) -> bool:
    return any(_STEPS_HEADING.match(line.text) for line in _context_above(list(block.lines), index)[1:])


def _sentence_before(block: Block, line: Line, column: int) -> str:
    """The sentence up to ``column`` of ``line`` (200 characters at most), the line before included when the
    break between them may be one a wrapping tool made."""
    before = line.text[max(0, column - 200) : column]
    index = block.position_of(line)
    if index > 0 and may_be_wrapped(block.lines[index - 1].text, line.text.strip()):
        before = (block.lines[index - 1].text[-200:] + " " + before)[-200:]
    ends = list(_SENTENCE_END.finditer(before))
    return before[ends[-1].end() :] if ends else before


_IN_OWN_FILE_AFTER = when_used(r"^\S{0,600}?[`'\"]?\s{1,4}(?:in|to|into|inside)\s{1,4}(?:my|our)\s{1,4}[^?\n]{0,120}?(?:[.!](?=\s|$)|$)", re.IGNORECASE)
"""After the setting, the rest of the sentence puts it in the reporter's own file or config ("... in my .bashrc.", "... to
my webui-user.sh"), with no question mark: the reporter's own act, however tersely written."""


def _advice(block: Block, line: Line, column: int, past: bool = True) -> bool:
    """The sentence around ``column`` of ``line`` (200 characters before it at most, the line before
    included when the break between them may be one a wrapping tool made) gives advice or a possibility."""
    before = line.text[max(0, column - 200) : column]
    if _LIST_STEP.match(line.text) and _OPENING_IMPERATIVE.match(_LIST_STEP.sub("", before, count=1)):
        return False  # "1. Set X=..." opens a step of the reporter's reproduction: a setting made
    if _command_line(line.text):
        return False  # "set HSA_OVERRIDE_GFX_VERSION=10.3.0" on a line of its own is the command (a .bat), not advice
    sentence = _sentence_before(block, line, column)
    if _OPENING_IMPERATIVE.match(sentence) and _under_steps_heading(block, block.position_of(line)):
        sentence = ""  # "Steps to reproduce:\nSet X=..." : the reporter's step; what follows the value still decides
    after = line.text[column : column + 800]
    if _OPENING_IMPERATIVE.match(sentence) and _IN_OWN_FILE_AFTER.match(after):
        sentence = ""  # "Also set X=... in my .bashrc.": the reporter's own file says whose act it is ("in your ..." stays advice)
    if _asked(sentence, after):
        return True
    if not past:
        return bool(_ADVICE.search(sentence) or _ADVICE_AFTER.match(after))
    return bool(_ADVICE.search(sentence) or _ADVICE_AFTER.match(after) or _PAST_BEFORE.search(sentence) or _PAST_AFTER.match(after))


_QUESTION_END_AFTER = when_used(r"^(?:[^.!?\n]|[.!](?=\S)){0,200}?\?")
"""The rest of the sentence from the setting ends in a question mark (a dot inside the value, "10.3.0", does not end it)."""
_OWN_ACT_BEFORE = when_used(
    r"\b(?:I|we)(?:['\u2019](?:ve|m|d))?\s+(?:\w+\s+){0,2}?(?:set|setting|export|exported|exporting|use|used|using|have|had|having|added|adding|put|tried|trying|run|ran|running|launch\w{0,3}|start\w{0,3}|pass\w{0,2}|define\w{0,2}|changed|configured)\b"
    r"|\b(?:my|our)\s+(?:\S+\s+){0,2}?(?:has|have|had|sets?|contains?|includes?)\b",
    re.IGNORECASE,
)


_ASKING_OPENING = when_used(
    r"^\W{0,3}(?:(?:so|also|and|but|btw|ok(?:ay)?|quick\s+question)\W{1,3})?(?:do|does|did|should|shall|can|could|would|will|is|are|was|were|what|what['\u2019]?s|which"
    r"|why\s+(?:would|should|do|does)\s+(?:anyone|anybody|people|you|one|they|the\s+\w+|guides?|docs?|tutorials?)|how\s+(?:do|does|should|can|would|is|are)|where|when\s+(?:do|does|should|would))\b",
    re.IGNORECASE,
)
"""The opening of a question about a variable itself ("Do I need ...", "What does ...", "Is it ... or ...", "Why would anyone
set ..."), not of one about a failure with it ("Why does torch segfault with ...?", "Anyone else getting a crash with ...?",
"Running X=... python main.py crashes, any idea?"): rev50a."""
_VALUE_ASKED = when_used(r"^[^\s?]{0,600}\?+[`'\")]{0,2}(?=\s|$)")
"""ov50: the setting's own word ends in a question mark ("... HSA_OVERRIDE_GFX_VERSION=10.3.0?"): asked, not made; rev50a: only
where the question tells no failure and no act of the reporter's ("Why does ComfyUI crash with HSA_OVERRIDE_GFX_VERSION=11.0.0?",
"Why does torch segfault when I set HSA_OVERRIDE_GFX_VERSION=11.0.0?" keep the setting, its value without the "?")."""
_FAILURE_ASKED = when_used(
    r"\b(?:crash\w{0,3}|segfault\w{0,3}|seg\w{0,2}\s+fault\w{0,3}|fail\w{0,3}|errors?|hangs?|hung|freez\w{0,3}|frozen|ignor\w{0,3}|cpu|core\s+dumped"
    r"|(?:not|n['\u2019]t)\s+(?:\w+\s+){0,2}?(?:work\w{0,3}|used?|using|detect\w{0,3}|found|see\w{0,3}|load\w{0,3}|start\w{0,3}))\b",
    re.IGNORECASE,
)
"""A failure the question tells ("Do ... crash with X=...?", "Does ollama ignore X=...?"): the setting is the reporter's (rev50a)."""


def _asked(sentence: str, after: str) -> bool:
    """The sentence that holds the setting ends in a question mark and says nothing of the reporter's own act before it
    ("What does ROCR_VISIBLE_DEVICES=-1 do?", "Why would anyone set HSA_ENABLE_DXG_DETECTION=0 on WSL?", "Is it
    HIP_VISIBLE_DEVICES=1 or ROCR_VISIBLE_DEVICES=1 for the second card?"): a variable asked about, not one set (ov50:
    each gave an error, RD681, RD720, RD710, on a healthy question). "I set HIP_VISIBLE_DEVICES=1, is that right?" and "My
    .bashrc has ... - why?" stay settings; so does a question about a failure with the setting ("Why does torch segfault with
    HSA_OVERRIDE_GFX_VERSION=11.0.0 on my RX 6700 XT?", "Anyone else getting a crash with ...?", the form many reports'
    titles take): only a question that opens on the variable's own question (:data:`_ASKING_OPENING`) and tells no failure
    (rev50a)."""
    question = _QUESTION_END_AFTER.match(after)
    if question is None or _OWN_ACT_BEFORE.search(sentence) or _FAILURE_ASKED.search(sentence + question.group(0)):
        return False
    return bool(_ASKING_OPENING.match(sentence) or _VALUE_ASKED.match(after))


_PROGRAM_SETS = when_used(r"\b(?:auto-?)?sets\s+[`'\"]?$", re.IGNORECASE)
_ON_CONDITION = when_used(r"^\S{0,600}?[`'\"]?\s+[^.!?\n]{0,24}?\b(?:when|whenever|if|unless)\b", re.IGNORECASE)


def _set_by_a_program_on_condition(line: Line, column: int) -> bool:
    """The sentence says a program sets the variable when some condition holds ("AMDGPU.jl sets
    `HSA_OVERRIDE_GFX_VERSION=10.3.0` when a KFD topology node is named `navy_flounder`",
    JuliaGPU/AMDGPU.jl#1039; "the backend auto-sets HSA_OVERRIDE_GFX_VERSION when ... your card's GFX ID
    is missing", "sets HSA_OVERRIDE_GFX_VERSION when the arch needs one", "Sets HSA_OVERRIDE_GFX_VERSION
    if needed for gfx1010-family GPUs" in public launchers' docs): what the program may do, not a
    setting the report shows made on its machine. ("I set X=..." is the reporter's own: "sets" only.)"""
    return bool(_PROGRAM_SETS.search(line.text[max(0, column - 40) : column]) and _ON_CONDITION.match(line.text[column : column + 800]))


_EXPORT_IN_SENTENCE = when_used(r"(?:^|[^A-Za-z'\u2019])[A-Za-z'\u2019]{2,}[,:]?\s{1,4}[`'\"]?$")
"""The text before ``export`` ends with a word: ``export`` inside a sentence ("Maybe `export HSA_OVERRIDE_GFX_VERSION=10.3.0`
might help", ROCm/legacy-rocm-build#2354), not opening a command line; the sentence decides whether it is a setting
made (pkgenv47)."""

_OWN_ACT = when_used(
    r"(?<!\bshould\s)(?<!\bcould\s)(?<!\bwould\s)(?<!\bcan\s)(?<!\bdo\s)(?<!\bdid\s)(?<!\bmust\s)(?<!\bshall\s)"
    r"\b(?:I|we)\s{1,3}(?:(?:also|already|then|always|just|have|had)\s{1,3}){0,2}"
    r"(?:added|put|set|used|exported|tried|ran|placed|wrote|included|have|had|(?<=also\s)export|(?<=already\s)export|(?<=then\s)export|(?<=always\s)export)\b"
    r"(?!\s{1,3}(?:not|never|no)\b)[^.!?\n]{0,80}$",
    re.IGNORECASE,
)
"""Before ``export`` in the same sentence, the reporter's own act ("As suggested in #1234 I also added export
X=...", "The wiki says to use it, so I have export X=... in my .bashrc"): a setting made, whatever advice the
sentence names first. Not a question ("Should I use export ...?", "Do I need to export ..."; rev47c)."""


def _mentioned_as_advice(sighting: SettingSighting, block: Block) -> bool:
    if sighting.origin == "export":
        position = sighting.line.text.find(sighting.name)
        start = sighting.line.text.rfind("export", 0, max(0, position))
        if block.kind != "prose" or position < 0 or start <= 0 or not _EXPORT_IN_SENTENCE.search(sighting.line.text[max(0, start - 120) : start]):
            return False  # a script's line ("if ...; then export X=..."), a command line: no sentence to read
        if _taken_away(block, sighting.line, start, sighting.name, position + len(sighting.name) - start):
            return True  # "I removed `export X=...` from my .bashrc": taken away, not set (prec57)
        if _OWN_ACT.search(_sentence_before(block, sighting.line, start)):
            return False  # "As suggested in #123 I also added export X=..." : the reporter's own act (rev47c)
        # advice and questions only: an export's past is read where it is judged (failed_with, h31d)
        return _advice(block, sighting.line, position, past=False)
    if sighting.origin != "prose":
        return False
    position = sighting.line.text.find(sighting.name)
    if position >= 0 and _every_mention_taken_away(block, sighting):
        return True  # "I stopped setting X=...", "without X=... it works": not in force (prec57)
    return position >= 0 and (_advice(block, sighting.line, position) or _set_by_a_program_on_condition(sighting.line, position))


_PLACEHOLDER = when_used(
    r"^(?:<[^<>\n]{1,80}>?|\{[A-Za-z_][^{}\n]{0,40}\}?(?:[.-]\{[A-Za-z_][^{}\n]{0,40}\}?){0,3}|[A-Za-z](?:\.[A-Za-z]){1,2})$"
)
"""A value that stands for one the text does not show: ``{MAJOR}.{MINOR}.{PATCH}`` and ``X.Y.Z``
(ROCm/TheRock#1719), ``<your gfx>``, ``<x.y.z>``, ``<major.minor.step>``, ``<version>``, ``<a supported
version, e.g. 10.3.0>`` (setup guides and launcher docs that reports copy, e.g. immich's ROCm
hardware-acceleration page). Not a setting: libhsakmt never sees the placeholder itself."""


def _placeholder(sighting: SettingSighting) -> bool:
    return sighting.value is not None and bool(_PLACEHOLDER.match(sighting.value.strip("`*")))


def _most_specific(sightings: List[SettingSighting]) -> List[SettingSighting]:
    """One sighting per line and name: a recognised syntax (compose, Dockerfile ...) over a bare mention,
    and of two alike the later one, as on separate lines (``export A=1 A=2`` leaves A=2: the shell
    assigns from left to right), so a line wrapped between the two reads the same."""
    best: dict = {}
    for sighting in sightings:  # one syntax's sightings of a line come from left to right
        key = (sighting.line.number, sighting.name)
        current = best.get(key)
        if current is None or not (current.origin not in _VAGUE and sighting.origin in _VAGUE):
            best[key] = sighting
    return sorted(best.values(), key=lambda s: s.line.number)


def _context_above(lines: List[Line], index: int) -> List[Line]:
    """The line, the rest of its paragraph above it and the paragraph before (blank lines end a paragraph)."""
    out: List[Line] = [lines[index]]
    paragraphs = 0
    i = index - 1
    while i >= 0 and len(out) <= _RC_CONTEXT_LINES:
        if not lines[i].text.strip():
            while i >= 0 and not lines[i].text.strip():
                i -= 1
            paragraphs += 1
            if paragraphs > 1:
                break
            continue
        out.append(lines[i])
        i -= 1
    return out


def _in_startup_file(block: Block, sighting: SettingSighting) -> bool:
    lines = block.lines
    index = next((i for i, line in enumerate(lines) if line.number == sighting.line.number), None)
    if index is None:
        return False
    return any(_STARTUP_FILE.search(line.text) for line in _context_above(lines, index))


def _startup_files(block: Block, sightings: List[SettingSighting]) -> List[SettingSighting]:
    """Exports that a shell startup file holds become ``shell-rc`` settings, plus ``echo 'export ...' >> ~/.bashrc``."""
    if not _STARTUP_FILE.search(block.text):
        return sightings
    out = [
        _sighting(s.name, s.value, "shell-rc", s.line, s.trust) if s.origin == "export" and s.value is not None and _in_startup_file(block, s) else s
        for s in sightings
    ]
    if "echo" in block.text:
        for match, line in block.scan(_RC_APPEND):
            if _STARTUP_FILE.search(match.group(3)):
                out.append(_sighting(match.group(1), match.group(2), "shell-rc", line, TRUST_TEMPLATE))
    return out


_FAILED_WITH = when_used(
    r"\b(?:does|did|do|would|will|wo|is|was)\s*(?:n[o']?t|n't)\s+(?:work|help|change|fix|apply|matter)\w*"
    r"|\beven\s+(?:after|with|when)\b|\bstill\s+(?:get|fails?|crash|not|the\s+same|no\b)\w*"
    r"|\bno\s+(?:luck|change|effect|difference)\b|\bsame\s+(?:error|issue|problem|result|crash)\b"
    r"|\bI\s+get\s+the\s+(?:following|same)\b",
    re.IGNORECASE,
)
"""A sentence that says the program failed with the setting in force: "Also doesn't work when running
`$env:HSA_OVERRIDE_GFX_VERSION="10.3.0"; ollama serve`" (ollama/ollama#3107), "export
HSA_OVERRIDE_GFX_VERSION=10.3.0 doesn't help" (ollama/ollama#6152), "fails to recognize my GPU ...
even after setting the Environment=..." (ollama/ollama#8679), "when I set ... `export
HIP_VISIBLE_DEVICES=0; ...`, I get the following HIP error message" (ROCm/rocALUTION#197)."""
_SENTENCE_SPAN = 240
"""Characters on each side of a setting that its sentence is looked for in."""


def _failed_with(block: Block, sighting: SettingSighting) -> bool:
    """A command setting written inside a sentence that says the program failed with it: in force
    for the reported failure wherever the sentence stands (after the pasted error, in the same
    paragraph or in another one), not a line of a transcript ordered in time. A sentence that says it
    worked with the setting ("it runs fine with `export ...`") is left to the transcript's order: a
    fix written after the error was not in force for it. Inline code at the start of a line continues
    the sentence of a line it may be wrapped from."""
    if sighting.line.command:
        return False
    text = sighting.line.text
    column = max(text.find(sighting.name), 0)
    before = text[max(0, column - _SENTENCE_SPAN) : column]
    index = block.position_of(sighting.line)
    if index > 0 and may_be_wrapped(block.lines[index - 1].text, text.strip()):
        before = (block.lines[index - 1].text + " " + before)[-_SENTENCE_SPAN:]
    ends = list(_SENTENCE_END.finditer(before))
    before = before[ends[-1].end() :] if ends else before
    after = text[column : column + _SENTENCE_SPAN]
    stop = _SENTENCE_END.search(after)
    after = after[: stop.start()] if stop else after
    sentence = before + after
    return bool(_FAILED_WITH.search(sentence)) and not _NO_LONGER_FAILS.search(sentence)


_NO_LONGER_FAILS = when_used(
    r"\bno\s+longer\s+(?:get|see|have|fails?|crash|hangs?)\b|\bnot\s+any\s?more\b|\b(?:works?|worked|runs?|ran)\s+(?:fine\s+|well\s+)?even\s+(?:after|with|when)\b",
    re.IGNORECASE,
)
"""A sentence whose failure words say the failure went ("I no longer get the same error with ...", "it works even
with ..."): the setting was in force for no failure."""


_WORKED_WITH = when_used(
    r"\b(?:works?|worked|runs?|ran)\s+(?:(?:just\s+)?fine|well|perfectly|great|ok(?:ay)?|now|again)\b|\bnow\s+(?:it\s+)?(?:works|runs)\b"
    r"|\b(?:fixed|solved|resolved)\s+(?:it|the\s+(?:issue|problem|error))\b|\bthat\s+did\s+(?:it|the\s+trick)\b",
    re.IGNORECASE,
)
"""A sentence that says the program worked with the setting: "It runs fine after I did `$env:NAME=...`", "export
NAME=... fixed it", "now it works with ..."."""


def _worked_with(block: Block, sighting: SettingSighting) -> bool:
    """A command setting written inside a sentence that says the program worked with it (and not that it failed):
    a fix, which was not in force for an error printed before it, whether a fence stands between them or not."""
    if sighting.line.command:
        return False
    text = sighting.line.text
    column = max(text.find(sighting.name), 0)
    before = text[max(0, column - _SENTENCE_SPAN) : column]
    ends = list(_SENTENCE_END.finditer(before))
    before = before[ends[-1].end() :] if ends else before
    after = text[column : column + _SENTENCE_SPAN]
    stop = _SENTENCE_END.search(after)
    sentence = before + (after[: stop.start()] if stop else after)
    return bool(_WORKED_WITH.search(sentence)) and not _FAILED_WITH.search(sentence)


_SESSION_ORIGINS = ("export", "cmd-set", "powershell", "fish", "python")
_PARAGRAPH_REACH = 400
"""Lines looked at above a setting for the blank line that opens its paragraph: a bound per setting, so a long log
without a blank line costs no more per setting than this."""


def _paragraph_from(block: Block, sighting: SettingSighting) -> Optional[int]:
    """For a session setting written without a prompt: the number of the first line of its paragraph, when a blank
    line above it in the block opens that paragraph (None otherwise). A prompted command is a transcript's, ordered
    in time; an unprompted ``export`` set apart from a log by a blank line is the reporter's note, as it is when the
    log stands in its own fence."""
    if sighting.origin not in _SESSION_ORIGINS or sighting.line.command:
        return None
    index = block.position_of(sighting.line)
    first = index
    while first > 0 and index - first < _PARAGRAPH_REACH and block.lines[first - 1].text.strip():
        first -= 1
    if first == 0 or index - first >= _PARAGRAPH_REACH:
        return None
    return block.lines[first].number


def _ordered(block: Block, sighting: SettingSighting) -> SettingSighting:
    if _failed_with(block, sighting):
        return replace(sighting, failed_with=True)
    if _worked_with(block, sighting):
        return replace(sighting, worked_with=True)
    start = _paragraph_from(block, sighting)
    return replace(sighting, paragraph_from=start) if start is not None else sighting


def joined_assignments(block: Block) -> List[Piece]:
    """``systemd_env_assignments_in_one_word`` when a unit's ``Environment=`` line quotes two
    assignments as one word (``"A=1 B=2"``): systemd sets A to ``1 B=2`` and never sets B
    (systemd.exec(5), Environment=)."""
    if "Environment" not in block.text:
        return []
    lines = block.lines
    for match, line in block.scan(_SYSTEMD):
        text = match.group(1)
        # An 80-column wrap may cut the unit line: the next line goes on with a quote left open or
        # with another quoted assignment (systemd itself allows no break without a backslash).
        index = block.position_of(line)
        following = lines[index + 1].text if index + 1 < len(lines) else ""
        if may_be_wrapped(line.text, following) and (text.count('"') % 2 or _QUOTED_ASSIGNMENT.match(following)):
            text = f"{text} {following.strip()}"
        for name, value in _systemd(text):
            inner = _ASSIGNMENT_INSIDE.search(value or "")
            if inner is not None and inner.group(1).isupper():
                return [make_piece(f"context:{JOINED_ASSIGNMENTS}", [line], [Observation("symptoms.context", [JOINED_ASSIGNMENTS], line, TRUST_TEMPLATE)])]
    return []


_ENV_FILE = when_used(r"(?<!\S)--env-file\b")
_SETTING_LINE = when_used(rf"^[ \t]*(?:export[ \t]+|unset[ \t]+|{_UPPER_NAME}=)")
"""A line that only sets variables: between an export and the container command, it starts no program."""
_HOST_SIDE = (
    "set in the shell that starts the container (line {line}), not inside it: docker/podman run and exec pass "
    "the container only the variables their -e/--env options name (a bare -e NAME forwards the shell's value)"
)


def _container_starts(block: Block) -> List[Tuple[int, int, Set[str]]]:
    """Each ``docker``/``podman`` run, create or exec command of the block: the index of its first line,
    the column of its ``docker`` word, and the names it forwards from the shell (``-e NAME`` without a
    value; ``*`` for ``--env-file``, which may name any)."""
    out: List[Tuple[int, int, Set[str]]] = []
    current: Optional[Set[str]] = None
    expecting = False
    for index, line in enumerate(block.lines):
        text = line.text
        run = _DOCKER_RUN.search(text)
        if run is not None:
            current, expecting = set(), False
            out.append((index, run.start(), current))
        if current is not None:
            options, expecting, at_image = docker_options(text, run.end() if run is not None else 0, expecting)
            current.update(match.group(1) for match in _DOCKER_ENV.finditer(options) if match.group(2) is None)
            if _ENV_FILE.search(options):
                current.add("*")
            if at_image or not command_goes_on(block.lines, index, expecting):
                current = None
    return out


def _host_side(block: Block, sightings: List[SettingSighting]) -> List[SettingSighting]:
    """An ``export`` or ``NAME=value`` prefix in the shell right before a container command is the host
    shell's: the program inside the container does not run under it unless the command forwards the
    name (Docker's run reference: "-e, --env: set environment variables"; a variable without a value is
    taken from the shell). Such a setting is marked as not in force for the reported error."""
    if "docker" not in block.lower and "podman" not in block.lower:
        return sightings
    starts = _container_starts(block)
    if not starts:
        return sightings
    lines = block.lines
    out: List[SettingSighting] = []
    for sighting in sightings:
        if sighting.origin in ("export", "command-prefix") and sighting.value is not None:
            at = block.position_of(sighting.line)
            for index, column, forwarded in starts:
                if index < at or index > at + 3:
                    continue
                if index == at and not 0 <= lines[at].text.find(sighting.name + "=") < column:
                    continue
                if sighting.name in forwarded or "*" in forwarded:
                    break
                if all(_SETTING_LINE.match(lines[between].text) for between in range(at + 1, index)):
                    sighting = replace(sighting, for_error=False, reaches=False, reason=_HOST_SIDE.format(line=sighting.line.number))
                break
        out.append(sighting)
    return out


_SUDO_START = when_used(r"^[ \t`]*(?:\$\s+|#\s+)?sudo(?:[ \t]+(-\S+))*[ \t]+([A-Za-z0-9./~_-][^\s=]*)(?=\s|$)")
"""A line that starts a program with sudo: its options (group 1, the last one) and the program (group 2)."""
_SUDO_KEEPS = when_used(r"(?:^|\s)(?:-\w*E\w*|--preserve-env\b)")
_SUDO_ADMIN = frozenset(
    "apt apt-get aptitude dnf yum zypper pacman emerge snap flatpak dpkg rpm usermod gpasswd groupadd adduser "
    "systemctl service journalctl modprobe rmmod dmesg reboot shutdown amdgpu-install dkms update-grub grub-mkconfig "
    "update-initramfs mkinitcpio dracut nano vim vi tee chmod chown chgrp ln cp mv rm mkdir cat ls echo sh -c su "
    "docker podman rocm-smi amd-smi rocminfo lspci mount umount".split()
)
"""Programs that administer the machine: a sudo line running one of them starts no program that uses the GPU."""
_SUDO_AFTER = "exported in the shell, and the next command starts the program with sudo (line {line}): " + _SUDO_RESETS
"""sudoers(5): env_reset is on by default, and -E / --preserve-env keep the caller's variables
(https://github.com/sudo-project/sudo/blob/SUDO_1_9_15p5/docs/sudoers.man.in). Reports of an export lost to a
later sudo command: WIttyJudge/adless#1, arkime/arkime#958, aitrios/aitrios-edge-device-core#6,
bitsandbytes-foundation/bitsandbytes#385 (LD_LIBRARY_PATH lost to `sudo python`) (h31d)."""


def _sudo_side(block: Block, sightings: List[SettingSighting]) -> List[SettingSighting]:
    """An ``export`` whose next command (only other settings between, three lines at most) starts a program
    with ``sudo`` and without -E / --preserve-env does not reach that program: sudo resets the environment.
    Marked as not reaching it; a sudo line that administers the machine (apt, usermod ...) is no program start."""
    if "sudo" not in block.lower:
        return sightings
    lines = block.lines
    out: List[SettingSighting] = []
    for sighting in sightings:
        if sighting.origin == "export" and sighting.value is not None and sighting.reaches is None:
            at = block.position_of(sighting.line)
            for index in range(at + 1, min(at + 4, len(lines))):
                text = lines[index].text
                if not text.strip() or _SETTING_LINE.match(text):
                    continue
                start = _SUDO_START.match(text)
                if start is not None and not _SUDO_KEEPS.search(text[: start.start(2)]) and start.group(2).split("/")[-1] not in _SUDO_ADMIN \
                        and sighting.name + "=" not in text:
                    sighting = replace(sighting, reaches=False, reason=_SUDO_AFTER.format(line=lines[index].number))
                break
        out.append(sighting)
    return out


_PYTHON_RUN = (
    r"(?:python(?:\d(?:\.\d{1,2})?)?|py)(?:[ \t]{1,4}-[uOBIsE]{1,4})*"
    r"(?:[ \t]{1,4}(?!setup\.py\b)[\w./\\-]{0,200}\.py\b"
    r"|[ \t]{1,4}-c[ \t]{1,4}[^\n]{0,400}?\b(?:cuda|hip|device|empty_cache|mem_get_info)\b"
    r"|[ \t]{1,4}-m[ \t]{1,4}(?!(?:pip|pip3|venv|virtualenv|ensurepip|site|http\.server|torch\.utils\.collect_env|pytest|build|wheel|setuptools)\b)[\w.]{1,80}"
    r"|[ \t]*$)"
)
"""rev62: Python running a program: a script (not ``setup.py``), ``-c`` code that touches the GPU, a module that is no
installer, environment tool or diagnostic (``-m pip``, ``-m venv``, ``-m torch.utils.collect_env``), or the bare REPL.
Not ``python --version`` nor ``-c 'import torch; print(torch.__version__)'`` (no GPU touched)."""
_GPU_PROGRAM = (
    r"(?:" + _PYTHON_RUN + r"|torchrun|accelerate[ \t]{1,4}launch|ollama[ \t]{1,4}serve|vllm[ \t]{1,4}serve|koboldcpp[\w.-]{0,40}"
    r"|(?:(?:\.{1,2}/|\.\\)(?:[\w.-]{1,80}[/\\]){0,8})?llama-(?!quantize|gguf|tokenize|export|convert)[\w-]{1,40}(?:\.exe)?"
    r"|(?:\.{1,2}/|\.\\)(?:[\w.-]{1,80}[/\\]){0,8}(?:main|server|koboldcpp[\w.-]{0,40})(?:\.exe)?"
    r"|(?:(?:bash|sh)[ \t]{1,4})?(?:\.{0,2}/)?(?:[\w.-]{1,80}/){0,8}webui(?:-user)?\.sh)"
    r"(?![\w-])(?![ \t]{1,4}(?:--version|-V|--help|-h|list|ls|ps|pull|show|--list-devices)\b)"
)
"""A program that picks a GPU, as the first word of a command: Python running a program (:data:`_PYTHON_RUN`; torch, a
web UI's launch.py), torchrun, ``accelerate launch``, ``ollama serve`` (``ollama run`` is a client: the model runs in
the server, under the server's environment), llama.cpp's tools by name or path (not its converters), ``vllm serve``,
koboldcpp, a web UI's shell launcher. Not a version or help query, a listing (``--list-devices``), an installer
(``python -m pip``, ``./configure``, ``./amdgpu-install``, ``bash install.sh``), a tool that lists the GPUs (rocminfo,
rocm-smi), a package manager or a shell builtin (:func:`_session_programs`)."""
_BARE_SHELL_PROGRAM = when_used(rf"^[ \t]*{_GPU_PROGRAM}")
_BARE_INLINE_PROGRAM = when_used(rf"(?<![`\w])`{_GPU_PROGRAM}[^`\n]{{0,512}}`")
_NOT_A_RUN = when_used(
    r"\b(?:if|unless|whether|try|trying|should|could|would|might|must|need\s{1,4}to|have\s{1,4}to|please|can\s{1,4}you"
    r"|never|not|don[''’]?t|do\s{1,4}not|instead\s{1,4}of)\b[^.!?\n]{0,120}$"
    # rev62: an order or a question opens the sentence ("Run `python b.py` to check.", "Is `python b.py` meant to ...")
    r"|(?:^|[.!?:;]\s{1,4})[\W_]{0,3}(?:run|try|use|execute|launch|start|type|do|does|did|is|are|was|were|can|could|will"
    r"|why|what|how|when\s{1,4}(?:you|one))\b[^.!?\n]{0,120}$",
    re.IGNORECASE,
)
"""Words before a command in the same sentence that make it no run of the reporter's: a condition, advice, a request,
a negation, an order or a question ("If you run `python b.py`", "try `python b.py`", "I never run `python b.py`",
"Run `python b.py` to check")."""
_PAST_RUN = when_used(
    r"\b(?:yesterday|last\s{1,4}(?:week|night|time|month|year)|ago|earlier|before|previously|used\s{1,4}to|at\s{1,4}first"
    r"|back\s{1,4}then|originally|in\s{1,4}the\s{1,4}past|old\s{1,4}(?:version|kernel|driver|install|setup))\b",
    re.IGNORECASE,
)
"""rev62: the past anywhere in the command's sentence ("When I ran `python b.py` last week it worked"): a run of then,
whose environment the report does not show to be the session's now."""


def _session_programs(block: Block) -> List[Line]:
    """The lines that start a GPU program (:data:`_GPU_PROGRAM`) with no environment prefix of their own: a transcript's
    shell command (``$ python b.py``) or a command in prose's inline code ("plain `python b.py` crashes"). Such a
    program runs under the session's settings; a prefix another command has (``ROCR_VISIBLE_DEVICES=1 python a.py``)
    is not its environment. ``sudo python x.py`` is no such line (sudo resets the environment, :data:`_SUDO_RESETS`),
    nor ``env NAME=... python`` (a prefix)."""
    out: List[Line] = []
    # rev62: a block put in the past, under advice, another person's or a quoted reply holds no run of the session now
    if block.scope != "current":
        return []
    for line in block.lines:
        if line.shell and _BARE_SHELL_PROGRAM.search(line.text):
            out.append(line)
    if block.kind == "prose" and "`" in block.text:
        for match, line in block.scan(_BARE_INLINE_PROGRAM):
            # the reporter's own run now: not the past, another machine's, a document's, advice or a question
            before = line.text[: max(0, line.text.find(match.group(0)))]
            after = line.text[len(before):]
            end = _SENTENCE_END.search(after, len(match.group(0)))
            sentence = before[max(before.rfind(". "), before.rfind("! "), before.rfind("? "), 0):] + (after[: end.end()] if end else after)
            if scope_before(line.text, len(before)) != NOW or _NOT_A_RUN.search(before) or "?" in after or _PAST_RUN.search(sentence):
                continue
            out.append(line)
    return out


def parse(block: Block) -> List[Piece]:
    programs = _session_programs(block)
    piece_of_programs = (
        [make_piece("session-programs", programs, [Observation("env.session_programs", [line.source for line in programs], programs[0], TRUST_TEMPLATE)])]
        if programs else []
    )
    return _parse(block) + piece_of_programs


def _parse(block: Block) -> List[Piece]:
    sightings, coverage, used = _listings(block)
    config, keys = _ollama_config(block)
    listed = {(s.line.number, s.name) for s in sightings + config}
    scanned = _most_specific(_sudo_side(block, _host_side(block, _startup_files(block, [
        _ordered(block, s)
        for s in _scan(block) + _compose(block)
        if (s.line.number, s.name) not in listed and not _mentioned_as_advice(s, block) and not _placeholder(s)
    ]))))
    all_sightings = sightings + config + scanned
    pieces: List[Piece] = []
    if sightings or coverage:
        piece = make_piece("env-listing", used or [s.line for s in sightings], [])
        piece.settings, piece.coverage = sightings, coverage
        pieces.append(piece)
    if config:
        piece = make_piece("app-env", [s.line for s in config], [])
        piece.settings, piece.coverage = config, keys
        pieces.append(piece)
    if scanned:
        piece = make_piece("env-settings", [s.line for s in scanned], [])
        piece.settings = scanned
        pieces.append(piece)
    return (pieces if all_sightings or coverage else []) + joined_assignments(block)
