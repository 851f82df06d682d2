"""Split pasted text into numbered blocks of lines, the way people paste it.

A bug report is GitHub markdown: prose, fenced code blocks (```` ``` ```` or
``~~~``), ``<details>`` sections, block quotes, several tool outputs one after
the other, Windows line endings, cut-off outputs. Every later step works on
:class:`Line` objects that remember their block and their line number in the
original text, so a fact can say where it was read (``paste:block 2 line 14``).

Splitting is linear in the size of the text: blank lines are skipped by a regex
scan (a run of them becomes one blank line, which still separates what it
separated), and the per-line prompt and quote checks run only on lines that can
hold one. Readers that scan a whole block use :attr:`Block.text` with
:meth:`Block.line_at` instead of a Python loop over lines.

Nothing here can fail: any string splits into zero or more blocks.
"""

from __future__ import annotations

import bisect
import heapq
import itertools
import re
from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from typing import Dict, Iterator, List, Optional, Sequence, Set, Tuple

from rocm_doctor.anchors import pattern_anchors
from rocm_doctor.lazy_regex import when_used

_FENCE = when_used(r"^\s{0,3}(`{3,}|~{3,})")
_INFO_WORD = when_used(r"^(?:\{[^{}\n]*\}|\{?[\w.+#-]*\}?)(?:\s+(?:\{[^{}\n]*\}|[\w-]+=(?:\"[^\"\n]*\"|'[^'\n]*'|[^\s\"'{}]+)))*$")
"""A fence's info string that is a language tag (``shell``, ``c++``, ``{.python}``), not report text; the tag may
carry attributes, a ``{...}`` group (pandoc, ``bash {.line-numbers}``) or ``key=value`` words (MkDocs Material
and Docusaurus, ``python title="repro.py"``), which are no line of the report either."""
_DETAILS_OPEN = when_used(r"^\s*<details\b[^>]*>", re.IGNORECASE)
_DETAILS_CLOSE = when_used(r"^\s*</details\s*>", re.IGNORECASE)
_TAG_ONLY = when_used(r"^\s*</?(summary|details|pre|code|br)\b[^>]*>.*$", re.IGNORECASE)
_LEADING_TAGS = when_used(r"^\s*(?:</?(?:details|pre|code|br)\b[^>]*>\s*){1,8}", re.IGNORECASE)
"""The tags that open a line (``<pre>Running on device ...``): what follows them on the line is the report's text
(ROCm/rocm-libraries#2169 pasted its whole log on one ``<pre>`` line; wrapped, only its first line was lost)."""
_QUOTE = when_used(r"^\s{0,3}>(?!>>)\s?")
_CONTROL = when_used(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")

WINDOWS_ENV_PREFIX = r"(?:\([\w.-]{1,64}\) ?){0,2}"
"""The active environments' names a Windows prompt may open with ("(venv) ", "(base) (venv) ")."""

SLASH_PROMPT_PATH = r"/[^>:<\"|*?\n]*(?<![\s=-])"
"""The path of a cmd prompt after its drive with ``/`` as separators ("C:/Users/x>"): only characters a Windows path may
hold (a compiler's "C:/x/a.cpp:12: error: ... <int>" is no prompt), and not a space, ``-`` or ``=`` before the ``>``
(cmd prints the folder right before it: "A:/B testing > baseline", "C:/x/model.ckpt -> loaded" are no prompts)."""

# Prompts that precede a command a reporter ran; stripped to leave the command.
_PROMPTS = (
    when_used(r"^[ \t]{0,8}(?:\([\w.-]{1,64}\) ?)?[\w.-]{1,64}@[\w.-]{1,64}:[^$#\n]{0,256}[$#]\s?"),  # (venv) user@host:~/dir$
    when_used(r"^\s*\[[\w.-]+@[\w.-]+[^\]]*\][$#]\s?"),  # [root@host ~]#
    # a Windows prompt may carry the active environments' names, "(venv) PS C:\x>" from venv's Activate.ps1
    # (https://github.com/python/cpython/blob/v3.12.0/Lib/venv/scripts/common/Activate.ps1), "(base) C:\x>" from conda,
    # both at once "(base) (venv) PS C:\x>" (openmmlab/PIA#30 pastes "(pia) PS E:\PIA> python ...")
    when_used(rf"^\s*{WINDOWS_ENV_PREFIX}PS [A-Za-z]:[\\/][^>]*>\s?"),  # PS C:\Users\x> (PS C:/Users/x> where a path was typed with slashes)
    # cmd's prompt with the path's separators as a paste or an edit leaves them, "C:/Users/x>" beside "C:\Users\x>"
    # (:data:`SLASH_PROMPT_PATH`)
    when_used(rf"^\s*{WINDOWS_ENV_PREFIX}[A-Za-z]:(?:\\[^>]*|{SLASH_PROMPT_PATH})>\s?"),  # C:\Users\x>
    when_used(r"^\s*In \[\d+\]:\s?"),  # ipython
    when_used(r"^\s*>>>\s?"),  # python REPL
    when_used(r"^\s*\$\s"),  # $ command
    when_used(r"^\s*#\s(?=(?:sudo\s+)?(?:[\w./-]*/)?(?:rocminfo|rocm-smi|amd-smi|groups|id|ls|cat|dmesg|lspci|uname|python[\d.]*|pip[\d.]*|docker|apt|dkms|modinfo|env|printenv|export|hipconfig|clinfo|ollama)\b)"),  # root shell '# cmd'
)
_PROMPT_HINT = when_used(r"[$#>]|In \[")
"""A line can start with a prompt only if it holds one of these (checked before the prompt patterns)."""


@dataclass(frozen=True)
class Line:
    """One line of the paste: its text (prompt removed), its block and original line number."""

    text: str
    block: int
    number: int
    raw: str = ""
    command: bool = False
    """The line started with a shell or Python prompt (so ``text`` is a command)."""
    shell: bool = False
    """The prompt was a shell's (``$``, ``#``, ``user@host:~$``, ``PS C:\\>``), not a Python REPL's:
    what follows is that command's output, until the next shell prompt (:func:`command_runs`)."""
    logged_by: str = ""
    """The service or program a log collector's prefix taken off this line named (``ollama`` from ``ollama  | `` or
    ``Jun 19 14:38:07 host ollama[15932]: ``), on the first line that named it (:func:`log_prefixes_taken_off`): the
    user's line holds the name, its ``text`` no longer does."""

    @property
    def source(self) -> str:
        """Where the line came from, in the form facts use."""
        return f"paste:block {self.block} line {self.number}"


_FEW_LINES_BLOCK = 64
"""Blocks shorter than this are scanned whole: finding the anchor lines would cost more."""

MAX_MATCHES_PER_LINE = 256
"""Matches of one pattern read in one line: ``export A=1 A=1 ...`` 20 MB long says nothing a
few hundred of them did not."""


@dataclass(frozen=True)
class Block:
    """A run of lines: one fenced block, one ``<details>`` body or one stretch of prose."""

    index: int
    kind: str
    """``fenced``, ``details`` or ``prose``."""
    lines: Tuple[Line, ...]
    scope: str = "current"
    """``other`` for a quote the report attributes to someone else (:func:`past_blocks`); ``past`` when the report introduces the block as an earlier state ("Last working environment:",
    ``<summary>Before the update</summary>``): evidence of what changed, not the machine as it is now;
    ``elsewhere`` when it introduces the block as another machine only ("On my other machine:"), which
    need not have worked (:func:`past_blocks`); ``quoted`` for a quote inside the reporter's text that the
    reporter does not take as their own (a reply's quote of advice or of another comment): its messages
    count, its statements of the machine's state do not; ``advice`` for a block a conditional advice
    introduces ("If you get an error like:"): no facts, only what the report is about."""

    @property
    def first_line(self) -> int:
        return self.lines[0].number if self.lines else 0

    @property
    def last_line(self) -> int:
        return self.lines[-1].number if self.lines else 0

    @cached_property
    def text(self) -> str:
        """The lines' texts (prompts removed) joined with newlines: what block-wide regex scans read."""
        return "\n".join(line.text for line in self.lines)

    @cached_property
    def lower(self) -> str:
        """:attr:`text` in lower case, for cheap ``in`` tests before a scan, as long as :attr:`text`
        (offsets in one are offsets in the other): a character whose lower case is longer ("İ" lowers
        to two) stays as it is."""
        lowered = self.text.lower()
        if len(lowered) != len(self.text):
            lowered = "".join(c.lower() if len(c.lower()) == 1 else c for c in self.text)
        return lowered

    @cached_property
    def _starts(self) -> List[int]:
        starts, position = [], 0
        for line in self.lines:
            starts.append(position)
            position += len(line.text) + 1
        return starts

    @cached_property
    def _numbers(self) -> List[int]:
        return [line.number for line in self.lines]

    def position_of(self, line: Line) -> int:
        """The position in :attr:`lines` of ``line`` (by its number; lines are in order)."""
        return bisect.bisect_left(self._numbers, line.number)

    def line_at(self, offset: int) -> Line:
        """The line holding character ``offset`` of :attr:`text`."""
        return self.lines[max(0, bisect.bisect_right(self._starts, offset) - 1)]

    def offset_of(self, index: int) -> int:
        """Where line ``index`` of :attr:`lines` starts in :attr:`text`."""
        return self._starts[index]

    def column_at(self, offset: int) -> int:
        """Where character ``offset`` of :attr:`text` stands in its line."""
        return offset - self._starts[self.index_at(offset)]

    def index_at(self, offset: int) -> int:
        """The position in :attr:`lines` of the line holding character ``offset`` of :attr:`text`."""
        return max(0, bisect.bisect_right(self._starts, offset) - 1)

    def can_hold(self, pattern: "re.Pattern[str]") -> bool:
        """False when the block holds none of the words every match of ``pattern`` contains
        (:mod:`rocm_doctor.anchors`): then no scan is needed."""
        words = pattern_anchors(pattern.pattern)
        return words is None or any(word in self.lower for word in words)

    def lines_with(self, words: Tuple[str, ...]) -> Iterator[int]:
        """Indexes of the lines that hold any of ``words`` (lower case), in order, each once, found
        with ``str.find`` (lazily: a caller that needs the first one stops there)."""
        if len(words) == 1:  # one word's lines come in order, each once: nothing to merge
            yield from self._lines_with_word(words[0])
            return
        last = -1
        for index in heapq.merge(*(self._lines_with_word(word) for word in words)):
            if index != last:
                last = index
                yield index

    def _lines_with_word(self, word: str) -> Iterator[int]:
        lowered = self.lower
        position = lowered.find(word)
        while position >= 0:
            index = self.index_at(position)
            yield index
            if index + 1 >= len(self.lines):
                return
            position = lowered.find(word, self._starts[index + 1])  # the rest of this line adds nothing

    def scan(self, pattern: "re.Pattern[str]") -> Iterator[Tuple["re.Match[str]", Line]]:
        """Every match of ``pattern`` in :attr:`text` with the line it starts on.

        A pattern with anchors (:mod:`rocm_doctor.anchors`) is not run at all when the block
        holds none of them, and only on the lines that hold one when those are few; a match then
        ends with its line.
        """
        words = pattern_anchors(pattern.pattern)
        if words is not None:
            if not any(word in self.lower for word in words):
                return
            if len(self.lines) >= _FEW_LINES_BLOCK:
                most = len(self.lines) // 8
                few = list(itertools.islice(self.lines_with(words), most + 1))
                if len(few) <= most:
                    for index in few:
                        start = self._starts[index]
                        matches = pattern.finditer(self.text, start, start + len(self.lines[index].text))
                        for match in itertools.islice(matches, MAX_MATCHES_PER_LINE):
                            yield match, self.lines[index]
                    return
        text, position = self.text, 0
        while position <= len(text):
            index, count = -1, 0
            for match in pattern.finditer(text, position):
                at = self.index_at(match.start())
                count = count + 1 if at == index else 1
                index = at
                if count > MAX_MATCHES_PER_LINE:  # the rest of this line: nothing new, only time
                    break
                yield match, self.lines[at]
            else:
                return
            if index + 1 >= len(self.lines):
                return
            position = self._starts[index + 1]


WRAPPED_AT = 60
"""A line at least this long, followed by another, may be one message a terminal, an editor or a
mail client wrapped (at 72, 80 or 100 columns): a signature is also looked for across the break."""

NARROWEST_WRAP = 72
"""The narrowest width people's tools wrap at: a shorter line whose next line starts with a word that
would not have fitted on it (``Cannot read`` before a 120-character path) may be wrapped too."""

def may_be_wrapped(text: str, following: str) -> bool:
    """The break between two lines may be one a wrapping tool made: the first line is long, or the
    next line's first word would not have fitted after it."""
    if not following:
        return False
    if len(text) >= WRAPPED_AT:
        return True
    word = following.split(None, 1)[0] if following.strip() else ""
    return len(text) + 1 + len(word) > NARROWEST_WRAP


COMMAND_ARGUMENT = when_used(r"^\s*(?:[\w.-]{1,40}\s{1,3}){0,3}(?:--?[A-Za-z]|[\w.-]+(?:==|>=|<=|~=)|https?://)")
"""A line that starts as the next argument of a command: a wrapped command line continues on it. Up to three bare
words may come first, as when the wrap fell inside the package list (``pip3 install --pre torch torchvision`` /
``torchaudio -f https://...``, pytorch/audio#1750 wrapped at 80 columns); an index URL after its option
(``--extra-index-url`` / ``https://download.pytorch.org/whl/rocm5.2``, AUTOMATIC1111/stable-diffusion-webui#7459
wrapped at 80 columns)."""

COMMAND_LINES = 3
"""Lines one wrapped command is read over (:func:`wrapped_command`)."""


def command_goes_on(lines: Sequence["Line"], index: int, expecting: bool = False) -> bool:
    """Whether the command line ``lines[index]`` goes on to the next line: a shell continuation (``\\``), or a break a
    wrapping tool made (:func:`may_be_wrapped`) before a line that starts as the command's next argument
    (:data:`COMMAND_ARGUMENT`) or is the value its last option waits for (``expecting``: ``--security-opt`` /
    ``seccomp=unconfined --name ...``, a ``docker run`` pasted unbroken and wrapped at 80 columns). A line with its own
    prompt starts another command."""
    text = lines[index].text
    if text.rstrip().endswith("\\"):
        return True
    if index + 1 >= len(lines) or lines[index + 1].command:
        return False
    following = lines[index + 1].text
    goes_on = expecting or COMMAND_ARGUMENT.match(following) is not None
    return goes_on and may_be_wrapped(text, following.strip())


def wrapped_command(lines: Sequence["Line"], at: int) -> List["Line"]:
    """Line ``at`` with the lines before it that a wrapping tool cut the same command line from, first to last: each
    break may have been wrapped (:func:`may_be_wrapped`) and the line after it starts as a command's next argument
    (:data:`COMMAND_ARGUMENT`), at most :data:`COMMAND_LINES` lines in all. ``[lines[at]]`` when it goes on no line."""
    start = at
    while start > 0 and at - start + 1 < COMMAND_LINES:
        following = lines[start].text
        if not COMMAND_ARGUMENT.match(following) or not may_be_wrapped(lines[start - 1].text, following.strip()):
            break
        start -= 1
    return list(lines[start : at + 1])


TYPOGRAPHY_ASCII = {
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"',
    "\u00a0": " ", "\u2007": " ", "\u2009": " ", "\u202f": " ",
    "\u2010": "-", "\u2011": "-",
    # the full-width forms of ASCII and the ideographic space a Chinese or Japanese input method types: "设备：AMD Radeon
    # RX 7900 XTX" (legacy-rocm-build#5725), "R9显卡（gfx1201）" (ollama#14989), "（CUDA is not available.）" (SenseNova-U1#281)
    **{chr(0xFF01 + offset): chr(0x21 + offset) for offset in range(94)}, "\u3000": " ",
}
"""What a phone keyboard, a word processor, a web page or a CJK input method (full-width forms) makes of ASCII: curly quotes ("doesn’t",
“gfx1030”), no-break and thin spaces ("ROCm 6.2" copied from a rendered page) and Unicode
hyphens. Read as the ASCII they stand for, so a reader's pattern sees what was meant; dashes stay
(an en dash is a range as often as a mangled ``--``)."""
_TYPOGRAPHY = str.maketrans(TYPOGRAPHY_ASCII)


_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
CJK_RANGES = _CJK
"""The Chinese, Japanese and Korean characters :func:`_script_seams` parts from Latin words (a character class's ranges)."""
_CJK_CHAR = when_used(f"[{_CJK}]")
_SCRIPT_SEAM = when_used(f"(?<=[{_CJK}])(?=[A-Za-z0-9])|(?<=[A-Za-z0-9])(?=[{_CJK}])")


def _script_seams(text: str) -> str:
    """A space where Chinese, Japanese or Korean text meets a Latin letter or digit with none between them ("显卡是RX
    7900XTX", "Windows版本的ollama"): those scripts put no space between words, and a regex word boundary needs one, so
    "ollama", "Windows" or "RX 7900" would not be read. Not inside a path (a token with ``/`` or ``\\``, such as
    ``D:\\AI工具\\venv``), whose spelling a command may need as written."""
    if _CJK_CHAR.search(text) is None:
        return text
    return "\n".join(
        " ".join(part if ("/" in part or "\\" in part) else _SCRIPT_SEAM.sub(" ", part) for part in line.split(" "))
        for line in text.split("\n")
    )


_ANSI_ESCAPE = when_used(r"\x1b(?:\[[0-9;?]{0,32}[ -/]{0,2}[@-~]|\][^\x07\x1b\n]{0,512}(?:\x07|\x1b\\)|[@-Z\\-_])")
"""A terminal's escape sequence (a colour, a cursor move, a window title): what a log copied from a terminal that colours
it holds around its words (ESC[32mINFO ESC[0m)."""
_BARE_RESET = when_used(r"\[0m")
_BARE_SEQUENCE = when_used(r"\[\d{1,3}(?:;\d{1,3}){0,7}m(?!\])|\[\?\d{1,4}[hl](?!\])|\[[0-2]?K(?![\]A-Za-z])")
"""The same sequences once a web form or an editor dropped their ESC ("[32mINFO[0m", "[?25l" from a progress bar): taken
off only in a paste that holds a bare reset ``[0m``, the mark every coloured span ends with, so "[5m 30s]" or "[K]"
written by a person stays. A colour's numbers are needed and an erase is not read before a letter: "[model_runner.py:1001]"
and "[Kernel]" in a vLLM log whose colours lost their ESC are words (rev50c)."""
_HTML_BREAK_AT_END = when_used(r"[ \t]{0,8}<br[ \t]{0,2}/?>[ \t]{0,8}$", re.IGNORECASE | re.MULTILINE)
_HTML_ENTITY = when_used(r"&(?:(amp|lt|gt|quot|apos|nbsp)|#(\d{2,3})|#[xX]([0-9a-fA-F]{2}));")
_NAMED_ENTITIES = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'", "nbsp": " "}


_TAG_AFTER = when_used(r"/?(?:details|summary|pre|code|br)\b", re.IGNORECASE)
"""What follows an escaped ``<`` that would make it a tag :func:`split_blocks` reads as the paste's structure."""


def _entity(match: "re.Match[str]") -> str:
    """The ASCII character an entity stands for (a number outside printable ASCII stays as written). An escaped ``<``
    that would open a ``<details>``, ``<summary>``, ``<pre>``, ``<code>`` or ``<br>`` stays as written: a page shows it
    as text ("&lt;details&gt;" in a ``<pre>`` block), which must not become a section or a summary's scope."""
    if match.group(1):
        char = _NAMED_ENTITIES[match.group(1)]
    else:
        code = int(match.group(2)) if match.group(2) else int(match.group(3), 16)
        if not 32 <= code < 127:
            return match.group(0)
        char = chr(code)
    if char == "<" and _TAG_AFTER.match(match.string, match.end()):
        return match.group(0)
    return char


def without_terminal_and_html_marks(text: str) -> str:
    """``text`` without what a terminal or a web page put around the words: escape sequences (colours, cursor moves),
    with their ESC or having lost it (:data:`_BARE_SEQUENCE`, only where a bare reset shows the paste lost them), a
    ``<br>`` ending a line, and HTML's entities for ASCII (``&gt;`` ``&lt;`` ``&quot;`` ``&amp;`` ``&#39;``, once:
    ``&amp;gt;`` is ``&gt;``). The words are what the program printed; a reader's pattern should see them."""
    if "\x1b" in text:
        text = _ANSI_ESCAPE.sub("", text)
    if "[0m" in text and _BARE_RESET.search(text):
        text = _BARE_SEQUENCE.sub("", text)
    if "<br" in text or "<BR" in text:
        text = _HTML_BREAK_AT_END.sub("", text)
    if "&" in text:
        text = _HTML_ENTITY.sub(_entity, text)
    return text


def normalise(text: str) -> str:
    """CRLF and CR become LF; a terminal's escape sequences, a ``<br>`` ending a line and HTML entities go
    (:func:`without_terminal_and_html_marks`); NULs and other control characters go, tabs stay; typographic quotes,
    spaces and hyphens become their ASCII (:data:`_TYPOGRAPHY`); a space where CJK text meets a Latin word
    (:func:`_script_seams`)."""
    text = without_terminal_and_html_marks(text.replace("\r\n", "\n").replace("\r", "\n"))
    return _script_seams(_CONTROL.sub("", text).translate(_TYPOGRAPHY))


_LINE_HEAD = r"\n([ \t]{0,8}(?:>[ \t]?){0,2}[ \t]{0,4})"
"""What stays before a log prefix taken off: the line's indentation and quote markers. The prefixes' patterns start at
the newline before the line (:func:`without_log_prefixes` reads the text with one put first), which the regex engine
finds by a fast scan where a multi-line ``^`` is tried at every character (three times slower on a 5 MB log)."""
_COMPOSE_PREFIX = when_used(_LINE_HEAD + r"([A-Za-z0-9][\w.-]{0,63}|\[[\w.-]{1,64}\])( {1,40})\| ?")
"""``docker compose``'s prefix: the service's (or container's) name padded with spaces, then ``| ``; podman-compose's
name in brackets ("[vllm] | (EngineCore pid=344) ERROR ...", vllm-project/vllm#46110)."""
_LOG_LEVEL = when_used(r"(?i:error|err|warn|warning|info|debug|trace|critical|fatal|notice|success)$")
"""A log level padded before ``|`` ("ERROR    | RuntimeError: ...", a logger's own column): the program's line, not a
collector's service name."""


def _compose_name(match: "re.Match[str]") -> str:
    """The name a compose prefix match is taken off by, or "" where it is content: a level's column (:data:`_LOG_LEVEL`),
    or one space before ``|`` after a bare word ("rocminfo | grep gfx", "dmesg | grep amdgpu": a shell's pipe). Compose's
    names carry a replica number ("web_1 | ", compose v1's longest name) or the padding of the longest name plus one
    ("ollama  | "); podman-compose's are bracketed."""
    name = match.group(2)
    if _LOG_LEVEL.match(name) or (len(match.group(3)) < 2 and not name.startswith("[") and not _REPLICA.search(name)):
        return ""
    return name


_PROCESS_PREFIX = when_used(
    _LINE_HEAD + r"\([A-Za-z][\w]{0,40}(?: rank=\d{1,4})? pid=\d{1,10}(?:, ip=[\w.:]{3,45})?\) (?= {0,40}\S)"
)
"""The process vLLM names before each line its processes print: "(EngineCore pid=500) ", "(APIServer pid=1) "
(ROCm/legacy-rocm-build#6055, vllm-project/vllm#36615), "(VllmWorker rank=1 pid=839) " (ROCm/legacy-rocm-build#5567),
"(EngineCore pid=344) " after podman-compose's name (vllm-project/vllm#46110); a traceback under it reads as one."""
_REPLICA = when_used(r"[-_]\d{1,3}$")
_TABLE_RULE = when_used(r"\n[ \t]{0,8}\|?[ \t]{0,4}:?-{3,}:?[ \t]{0,4}\|")
_JOURNAL_PREFIX = when_used(
    _LINE_HEAD + r"(?:\w{3,4}\.? {1,2}\d{1,2} \d\d:\d\d:\d\d [\w.-]{1,64} [\w.@/-]{1,64}(\[\d{1,10}\])?"
    r"|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:[.,]\d{1,9})?(?:Z|[+-]\d\d:?\d\d)? [\w.-]{1,64} [\w.@/-]{1,64}(\[\d{1,10}\])): ",
)
"""journalctl's prefix (syslog's too): date (the month in the system's language), host, program and pid; with ``-o
short-iso``'s date only with the pid (an ISO time, then "clip missing: " is a program's own line after a container's
time)."""
_STAMP_PREFIX = when_used(
    _LINE_HEAD + r"(?:\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(?:Z|[+-]\d\d:?\d\d)|\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) (?= {0,40}[^\s|-])",
)
"""The time ``docker logs -t`` puts before each line (RFC 3339 with its zone) and Docker Desktop's log view ("2025-01-17
20:40:33 "): not Python logging's ``2024-05-02 10:14:07,512 - root -`` (a fraction after a comma, a ``-`` after it), which
is the program's own line."""

_APP_STAMP = when_used(
    _LINE_HEAD + r"(?:\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\](?: \[(?:info|warn|warning|error|debug|verbose)\] ?)? "
    r"|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6} - )(?= {0,40}\S)",
)
"""The time ComfyUI's log puts before each line: "[2026-03-03 12:51:32.116] " (its console and log file), with Comfy
Desktop's level after it ("[2026-01-29 17:04:49.071] [info]  "), or "2026-07-11T14:06:46.577801 - " (the log its error
report and ComfyUI-Manager copy; a fraction of a second in each, so a date a person writes is not one)."""
_GLUED_STAMP = when_used(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6} - ?")
"""That last time glued after a chunk of output written without its newline ("comfyui-frontend-package:
1.23.42025-06-29T14:57:59.550991 - ", patientx/ComfyUI-Zluda#198; "Exception in thread 2026-07-11T14:12:14.951104 -
Thread-8", Comfy-Org/ComfyUI#14881), or alone on a line: the version and the message are whole again without it.
Only in a paste whose lines carry ComfyUI's time (:data:`_APP_STAMP`)."""


MAX_LOGGERS_NAMED = 8
"""Programs a log's prefixes name that are remembered (:func:`log_prefixes_taken_off`): a log interleaves a few."""


def log_prefixes_taken_off(text: str) -> Tuple[str, Dict[str, int]]:
    """``text`` without what a log collector puts before each line a program printed (:func:`without_log_prefixes`),
    and the services and programs those prefixes named (``ollama`` from ``ollama  | `` or ``ollama[15932]: ``; never
    the host), each at the number of the first line whose prefix named it. The names are no text of the paste's: a
    reader of what the report is about reads them at that line (:attr:`Line.logged_by`), where the user's own text
    holds them."""
    text = "\n" + text
    named: Dict[str, int] = {}

    def name_at(name: str, start: int) -> None:
        # the line's number: the newlines up to the one that opens it (the text read has one put first)
        if name and name not in named and len(named) < MAX_LOGGERS_NAMED:
            named[name] = text.count("\n", 0, start + 1)

    if " |" in text:
        names = [name for name in map(_compose_name, _COMPOSE_PREFIX.finditer(text)) if name]
        if names:
            table = _TABLE_RULE.search(text) is not None
            counts = Counter(names)
            # in a paste with a Markdown table, a name on one line is a row's first cell ("GPU_0 | RX 7900 XTX", "rocm-6 |
            # works"), replica number or not: a service's log there needs two lines
            strip = {n for n in counts if (_REPLICA.search(n) and not table) or (not table and counts[n] >= 2)
                     or ((n.startswith("[") or _REPLICA.search(n)) and counts[n] >= 2)}
            if strip:
                for m in _COMPOSE_PREFIX.finditer(text):
                    if len(named) < MAX_LOGGERS_NAMED and _compose_name(m) in strip:
                        name_at(_REPLICA.sub("", m.group(2).strip("[]")), m.start())
                text = _COMPOSE_PREFIX.sub(lambda m: "\n" + m.group(1) if _compose_name(m) in strip and m.end() < len(text)
                                           and text[m.end()] != "\n" else m.group(0), text)
    if "pid=" in text:
        text = _PROCESS_PREFIX.sub("\n\\1", text)
    if ":" in text:
        if _APP_STAMP.search(text) is not None:
            text = _APP_STAMP.sub("\n\\1", text)
            if _GLUED_STAMP.search(text) is not None:
                text = _GLUED_STAMP.sub("", text)
        for prefix in (_JOURNAL_PREFIX, _STAMP_PREFIX):
            found = list(prefix.finditer(text))
            if len(found) >= 2 or (found and any(found[0].groups()[1:])):
                if prefix is _JOURNAL_PREFIX:
                    for m in found:
                        name_at(m.group(0).rstrip().rstrip(":").rsplit(" ", 1)[-1].split("[")[0], m.start())
                text = prefix.sub(lambda m: "\n" + m.group(1) if m.end() < len(m.string) and m.string[m.end()] != "\n" else m.group(0), text)
    return text[1:], named


def without_log_prefixes(text: str) -> str:
    """``text`` without what a log collector puts before each line a program printed: ``docker compose``'s service name
    (``ollama-1  | ``), journalctl's date, host and program (``Jun 19 14:38:07 host ollama[15932]: ``), and the time
    ``docker logs -t`` or Docker Desktop puts first, the time ComfyUI's log puts first (:data:`_APP_STAMP`), and the
    process vLLM names first (:data:`_PROCESS_PREFIX`). Each only where it is one: a compose prefix whose name carries a
    replica number or starts two lines or more of a paste that has no Markdown table (a table's first column looks
    the same); a journal prefix with the program's pid, or on two lines or more; a container's time with a fraction of
    a second (``docker logs -t``'s nanoseconds), or on two lines or more. The line's quote marker and indentation stay;
    a line that would be left empty keeps its prefix. Every line keeps its number, and nothing is added: the names the
    prefixes held are given apart (:func:`log_prefixes_taken_off`)."""
    return log_prefixes_taken_off(text)[0]


_MARGIN_QUOTE = when_used(r"^[ \t]{0,3}> ?", re.MULTILINE)


def without_margin(text: str) -> str:
    """The paste without a margin every non-blank line shares: a quote marker (``> ``, the whole
    report quoted in a reply or an e-mail) or an indentation (the whole report indented as a
    Markdown code block), twice at most (an indented quote). One pass over the lines per margin."""
    for _ in range(2):
        lines = text.split("\n")
        filled = [line for line in lines if line.strip()]
        if not filled:
            return text
        if all(_MARGIN_QUOTE.match(line) for line in filled):
            text = _MARGIN_QUOTE.sub("", text)
            continue
        margin = min(len(line) - len(line.lstrip(" \t")) for line in filled)
        if margin == 0:
            return text
        text = "\n".join(line[margin:] if line.strip() else "" for line in lines)
    return text


def strip_prompt(text: str) -> Tuple[str, bool]:
    """Remove a leading shell / REPL prompt; returns the rest and whether one was found."""
    rest, prompt = _prompt(text)
    return rest, prompt is not None


_REPL_PROMPTS = frozenset(index for index, prompt in enumerate(_PROMPTS) if prompt.pattern.startswith((r"^\s*In \[", r"^\s*>>>")))


def _prompt(text: str) -> Tuple[str, Optional[int]]:
    """The text without a leading prompt, and which of :data:`_PROMPTS` it was (None: no prompt)."""
    if _PROMPT_HINT.search(text) is None:
        return text, None
    for index, prompt in enumerate(_PROMPTS):
        match = prompt.match(text)
        if match:
            return text[match.end() :], index
    return text, None


_BOLD = when_used(r"(?<![*\w/\\])\*\*(?=[^\s*])([^*\n]{1,200}?)(?<=[^\s*])\*\*(?![*\w])")
"""A span set in bold in Markdown prose ("installs the **CUDA** wheel", "my **RX 7900 XTX**"): the reader reads the
words. Not ``__``, which also wraps Python names (``__init__``)."""


_BOLD_LABEL_LINE = when_used(r"^[ \t]{0,3}(?:[-*+][ \t]{1,3})?\*\*[^*\n]{1,80}\*\*[ \t]{0,2}:?[ \t]{0,2}$")
"""A line that is only a bold label ("**Expected Behavior:**"): a template's heading, which the section readers
find by its marks."""


_ITALIC = when_used(r"(?<![*\w/\\])\*(?=[^\s*])([^*\n]{1,120}?)(?<=[^\s*])\*(?![*\w])")
"""A span in italics ("runs on the *CPU*"); not a glob (``*.py``: no closing mark after a word; ``library/*1010*``: a mark
right after a path separator opens nothing) nor a product (``2 * 3``)."""


_CODE_SPAN = when_used(r"`[^`\n]{1,400}`")
"""Inline code: Markdown sets no emphasis inside it, and a command there keeps its globs ("`sudo cp
/opt/rocm/lib/rocblas/library/*1010* PATH/TO/VENV/...`", a reporter's fix in a ctranslate2 report)."""


_CODE_NAME = when_used(
    r"(?<!`)`((?:ROCm|CUDA|HIP(?: SDK)?|PyTorch|torch|Windows|Linux|Ubuntu|Fedora|Arch|WSL2?|ollama)(?:[ -]?v?\d{1,4}(?:\.\d{1,4}){0,3})?"
    r"|[ci]?GPU|CPU|APU|gfx\d{3,4}[a-z]?|(?:AMD )?(?:Radeon )?(?:RX|PRO|Pro) ?[A-Z]?\d{3,4}[A-Z]{0,3}(?: XTX?| GRE)?|(?:AMD )?Radeon(?: [\w-]{1,12}){0,3})`(?!`)",
    re.IGNORECASE,
)
"""A product, platform or version name set as inline code in prose ("runs on the `CPU`", "with `ROCm 6.2`", "my `RX 7900
XTX`", "`gfx1100`"): read as the name. Other inline code keeps its backticks, which readers take as a quoted message ("it
stops with `no nvidia driver found`"), a shell expression (``VAR=`cmd` ``) or a command named (``as `sudo` ``)."""


def without_emphasis(text: str) -> str:
    """``text`` with Markdown bold and italic marks taken off the words they wrap (not inside inline code, where ``*`` is
    code), and the backticks off a name set as inline code, except on a line that is only a bold label (a heading). Fenced
    blocks too: a report read with its fences added or stripped reads the same (a held-back case's diagnosis changed under
    "add Markdown fences" while fences kept the marks), and code's stars (``**kwargs``, ``x**2``, globs) do not pair."""
    if "`" in text:
        text = _CODE_NAME.sub(r"\1", text)
    if "*" not in text or _BOLD_LABEL_LINE.match(text):
        return text
    if "`" not in text:
        return _ITALIC.sub(r"\1", _BOLD.sub(r"\1", text))
    # the marks are found in the line with its code spans blanked (same length), and taken off the line as written
    masked = _CODE_SPAN.sub(lambda code: "`" + "x" * (len(code.group()) - 2) + "`", text)
    for pattern in (_BOLD, _ITALIC):
        marks = [(m.start(), m.start(1), m.end(1), m.end()) for m in pattern.finditer(masked)]
        if marks:
            keep = [0] + [edge for start, inner, end, after in marks for edge in (start, inner, end, after)] + [len(text)]
            text = "".join(text[a:b] for a, b in zip(keep[::2], keep[1::2]))
            masked = "".join(masked[a:b] for a, b in zip(keep[::2], keep[1::2]))
    return text


def _make_line(raw: str, block: int, number: int, logged_by: str = "") -> Line:
    body = _QUOTE.sub("", raw, count=1) if ">" in raw[:5] and _QUOTE.match(raw) else raw
    body = without_emphasis(body)
    text, prompt = _prompt(body)
    return Line(text=text.rstrip(), block=block, number=number, raw=raw, command=prompt is not None,
                shell=prompt is not None and prompt not in _REPL_PROMPTS, logged_by=logged_by)


def output_end(block: Block, line: Line, boundaries: "set[int]") -> int:
    """The last line of the output of the command on ``line``: the lines after it up to the next
    command (a prompt), blank line or line of ``boundaries`` (other commands the caller recognised)."""
    index = block.position_of(line)
    end = line.number
    for after in block.lines[index + 1 :]:
        if after.command or not after.text.strip() or after.number in boundaries:
            break
        end = after.number
    return end


def command_runs(block: Block) -> List[Block]:
    """The block cut before every shell command line after its first line: each part is one command
    with its output (``$ rocminfo`` ... ``$ clinfo`` ...), so a tool's reader does not read the next
    command's output as its own. A block with no such line is returned whole."""
    cuts = [index for index, line in enumerate(block.lines) if index and line.shell]
    if not cuts:
        return [block]
    bounds = [0] + cuts + [len(block.lines)]
    return [Block(block.index, block.kind, block.lines[a:b], block.scope) for a, b in zip(bounds, bounds[1:]) if b > a]


def _numbered_lines(text: str) -> Iterator[Tuple[str, int]]:
    """Non-blank lines with their 1-based numbers; a run of blank lines yields one ``""``."""
    last = 0
    for number, raw in enumerate(text.split("\n"), 1):
        if not raw or raw.isspace():
            continue
        if last and number - last >= 2:
            yield "", last + 1
        yield raw, number
        last = number


def split_blocks(text: str) -> List[Block]:
    """Split ``text`` into blocks; block numbers start at 1 in the order they appear."""
    blocks: List[Block] = []
    current: List[Tuple[str, int]] = []
    kind = "prose"
    fence = ""
    quoted = block_quoted = False
    intros: Dict[int, str] = {}
    summary = ""

    def flush(next_kind: str) -> None:
        nonlocal current, kind, block_quoted
        block_quoted = False
        while current and not current[-1][0]:
            current.pop()
        while current and not current[0][0]:
            current.pop(0)
        if current:
            index = len(blocks) + 1
            blocks.append(Block(index, kind, tuple(_make_line(raw, index, n, logged_by.get(n, "")) for raw, n in current)))
        current = []
        kind = next_kind

    plain, named = log_prefixes_taken_off(without_margin(normalise(text)))
    logged_by = {number: name for name, number in named.items()}
    for raw, number in _numbered_lines(plain):
        head = raw[:8].lstrip()
        if not fence:
            # A quoted run inside unquoted text is its own block: a reply may quote someone else. As in
            # Markdown, a quote ends at a blank line; an unmarked line right after a quoted one continues it.
            if not raw:
                quoted = False
            else:
                now = (bool(_QUOTE.match(raw)) and ">>>" not in raw[:6]) or quoted
                if now != block_quoted and kind == "prose" and any(line for line, _ in current):
                    flush("prose")
                quoted = block_quoted = now
        if head.startswith(("```", "~~~")):
            fence_match = _FENCE.match(raw)
            if fence_match is not None:
                mark = fence_match.group(1)
                if fence and mark[0] == fence[0] and len(mark) >= len(fence):
                    flush("prose")
                    fence = ""
                    continue
                rest = raw[fence_match.end():].strip()
                closing = len(rest) - len(rest.rstrip("`"))
                if not fence and mark[0] == "`" and closing == len(mark):
                    # CommonMark (0.31.2, 4.5 "Fenced code blocks"): the info string of a backtick fence has no
                    # backtick, so "``` text ```" on one line opens no fence; it is an inline code span, and its
                    # text is the report's (ROCmSoftwarePlatform/tensorflow#90 pasted TensorFlow's skip line so).
                    # Only a closing run as long as the opening one makes the span (CommonMark 6.1): an opening
                    # line that merely holds a backtick ("```RuntimeError: `torch.cuda` ...", "... `libx.so`")
                    # is still the fence its author opened, with its text as the first line.
                    raw = rest[:-closing].strip()
                    if not raw:
                        continue
                elif not fence:
                    flush("fenced")
                    fence = mark
                    if rest and _INFO_WORD.match(rest) is None:
                        # Output pasted on the opening fence line itself ("```rocBLAS error: Cannot read ...",
                        # ROCm/Tensile#1936; "```common_init_from_params: warming up ...", ggml-org/llama.cpp#22013;
                        # "```Error occurred when executing CLIPTextEncode:", Comfy-Org/ComfyUI#2842; "```Building
                        # initial module for 5.8.0-7630-generic", pop-os/pop#1402):
                        # more than a language tag, it is the block's first line.
                        current.append((rest, number))
                    continue
        if not fence and head.startswith("<"):
            if _DETAILS_OPEN.match(raw):
                flush("details")
                continue
            if _DETAILS_CLOSE.match(raw):
                flush("prose")
                continue
            if _TAG_ONLY.match(raw):
                if "<summary" in raw.lower():
                    summary = raw
                    continue
                raw = _LEADING_TAGS.sub("", raw)
                if not raw.strip() or _TAG_ONLY.match(raw):
                    continue
        if summary and not current:
            intros[len(blocks) + 1] = summary
            summary = ""
        current.append((raw, number))
    flush("prose")
    return past_blocks(blocks, intros)


_EARLIER_WORDS = (
    r"before (?:the |my |i |we )?(?:up(?:date|grade)|install|switch|mov)\w*|last (?:known[ -])?(?:working|good)"
    r"|previously (?:working|worked|installed|used)|used to work|(?:was|were|it's|it was) working (?:before|with|on)"
    r"|worked (?:fine |well |perfectly )?(?:before|with|on|until)|working (?:version|setup|environment|config\w*|install\w*|state)"
    r"|(?:old|older|previous|earlier|prior) (?:setup|environment|install\w*|version|system|config\w*|kernel|driver)"
)
_OTHER_MACHINE_WORDS = r"on (?:my|another|the other|a different) (?:other |old |second )?(?:machine|pc|computer|laptop|system|box|server)"
_PAST = when_used(rf"\b(?:{_EARLIER_WORDS}|{_OTHER_MACHINE_WORDS})\b", re.IGNORECASE)
"""Words that introduce a block as an earlier state or another machine."""
_EARLIER = when_used(rf"\b(?:{_EARLIER_WORDS})\b", re.IGNORECASE)
"""Of those, the words of an earlier (working) state: "On my other machine:" alone says nothing of
whether that machine works, so its block is ``elsewhere``, not ``past``."""
_NOT_WORKING = when_used(r"(?:non|not|n't|never)[ -]?$", re.IGNORECASE)
_SUMMARY = when_used(r"<summary>(.*?)</summary>", re.IGNORECASE)


_PERSON = r"(?:friend|colleague|co-?worker|coworker|teammate|classmate|roommate|brother|sister|dad|father|son|boss|buddy|mate)"
_MACHINE_WORDS = r"machine|pc|computer|laptop|desktop|system|box|server|workstation|rig|setup|node"
_MACHINE = r"(?:" + _MACHINE_WORDS + r")"
_ANOTHERS_LABEL = when_used(
    r"\b(?:(?:my|a|his|her|their|our)\s{1,4}" + _PERSON + r"(?:['\u2019]s|s['\u2019])?"
    r"|some(?:one|body)\s{1,4}else(?:['\u2019]s)?|(?:an)?other\s{1,4}(?:user|person)(?:['\u2019]s)?"
    # mend60: a person on a forum, a thread or a chat, where the label hands the block to another's post ("Someone on reddit
    # got this:", "A user on the forum posted:", "Somebody posted this on Discord:"): the words the error rows' unless_line
    # already reads on one line (prec55, rocm_library_not_found: "A user on reddit had ...")
    r"|(?:some(?:one|body)|a\s{1,4}(?:user|person|poster|commenter)|another\s{1,4}(?:poster|commenter)|a\s{1,4}redditor)"
    r"\s{1,4}(?:(?:on|in|at|from)\s{1,4}(?:the\s{1,4}|a\s{1,4}|an\s{1,4}|this\s{1,4}|that\s{1,4})?(?:reddit|r/\w{1,30}|subreddit|forums?|discord"
    r"|github|stack\s?overflow|thread|issue|discussion|community)\b|(?:posted|shared|pasted|reported)\b)|\bredditor\b"
    r"|(?:his|her|their)\s{1,4}" + _MACHINE
    + r"|(?:the|a|another)\s{1,4}(?:other\s{1,4})?" + _MACHINE + r"\s{1,4}(?:that|which)\s{1,4}(?:works|worked|is\s{1,4}working|still\s{1,4}works)"
    r"|(?:the|a|another)\s{1,4}(?:working|good)\s{1,4}" + _MACHINE
    # ollama/ollama#2502: "Here's an example run of 0.1.25 on a Radeon RX 7600 test system for reference" (a maintainer's machine)
    + r"|\b(?:a|an|another)\s{1,4}(?:[\w.+-]{1,20}\s{1,4}){0,4}(?:test|testing|reference|lab)\s{1,4}" + _MACHINE
    # ROCm/tensorflow-upstream#1106: "whereas on my host (Ubunut 20.04) it seem to work properly:" (the report is the container's)
    + r"|(?:but|while|whereas)\s{1,4}(?:on|with|in)\s{1,4}(?:my|the|our)\s{1,4}(?:host|" + _MACHINE_WORDS + r"))\b",
    re.IGNORECASE,
)
"""Words of a label that hand the block under it to another person or another machine than the one the report is about
(elsewhere59): "My friend gets this on his machine:", "My colleague's machine fails with:", "A colleague's log:", "Here is
the output from the server that works:"."""
_ADOPTS_ANOTHERS = when_used(
    r"\b(?:as|like|than)\s{1,4}(?:my|a|his|her|their|our)\b|\bsame\s{1,4}(?:here|for\s{1,4}me)\b|\b(?:told|tells|asked|suggested|advised)\b",
    re.IGNORECASE,
)
"""Words that make the reporter's own what a label says of another person: "Same as my friend:", "my friend told me to run X,
and I get:" (the reporter ran it: this machine's output)."""
_OWN_WORDS = when_used(r"\b(?:I|me|my|mine|myself|we|us|our|ours)\b", re.IGNORECASE)


def _labels_anothers(stripped: str) -> bool:
    """A label (a short line ending in ':') that hands what follows to another person or machine (:data:`_ANOTHERS_LABEL`)
    and says nothing of the reporter's own once those words are taken out ("I get this:", "Here is my log:", "Same as my
    friend, I get:", "my friend told me to run X, and I get:" stay the reporter's)."""
    if not _ANOTHERS_LABEL.search(stripped) or _ADOPTS_ANOTHERS.search(stripped):
        return False
    return not _OWN_WORDS.search(_ANOTHERS_LABEL.sub(" ", stripped))


def _introduces_past(text: str) -> bool:
    """A short line that names an earlier state or another machine or person's: a heading, a label ending in ':' or a summary."""
    summary = _SUMMARY.search(text)
    stripped = (summary.group(1) if summary else text).strip().strip("*_#>` ").strip()
    if not stripped or len(stripped) > 100:
        return False
    label = summary is not None or text.lstrip().startswith(("#", "**")) or stripped.endswith(":")
    match = _PAST.search(stripped)
    if match is None or _NOT_WORKING.search(stripped[: match.start()]):
        return label and _labels_anothers(stripped)
    return label


_WORKS = when_used(r"\b(?:works|worked|working)\b", re.IGNORECASE)


def _intro_scope(text: str) -> str:
    """``past`` when an introducing line (:func:`_introduces_past`) names an earlier state or says the
    other machine works ("On my other machine (works):"), ``elsewhere`` when it only names another machine."""
    if _EARLIER.search(text):
        return "past"
    if not _PAST.search(text):  # another person's or machine's (_labels_anothers): its state now, not this machine's past
        return "elsewhere"
    works = _WORKS.search(text)
    return "past" if works and not _NOT_WORKING.search(text[: works.start()].rstrip(" (")) else "elsewhere"


def _one_paragraph(block: Block) -> bool:
    """A fenced or details block, or prose without a blank line: a heading over it speaks of all of it."""
    return block.kind != "prose" or all(line.text for line in block.lines)


_ATTRIBUTION = when_used(
    r"^\W{0,6}(?:@[\w-]{1,39}|\*\*@?[\w-]{1,39}\*\*|[\w.-]{1,39})\W{0,4}\s+(?:wrote|said|writes|says|commented|replied|posted|reported)\b[^\n]{0,40}:?\s*$"
    r"|^\W{0,6}On .{1,80}\bwrote:\s*$|^\W{0,6}(?:Quote|Quoting)\b[^\n]{0,60}:?\s*$",
    re.IGNORECASE,
)
"""A line that attributes the quote after it to someone ("@alice wrote:", "On Mon, 3 Jun, Bob wrote:",
"Quoting @alice:"): what follows is that person's text, not the reporter's."""


CONDITIONAL_ADVICE = (
    r"\b(?:if|in\s{1,4}case|should|whenever)\s{1,4}(?:you|one|users?|people)(?:['\u2019]re|\s{1,4}are)?"
    r"\s{1,4}(?:still\s{1,4}|ever\s{1,4}|also\s{1,4})?"
    r"(?:get|gets|getting|see|sees|seeing|hit|hits|hitting|encounter|encounters|encountering|run\s{1,4}into|runs\s{1,4}into"
    r"|receive|receives|receiving|face|faces|facing|experience|experiences|experiencing)\b"
    # "If you see the rocminfo output above, ..." / "If you see my log, ...": the reader pointed at the report's own output
    r"(?!\s{1,4}(?:(?:the|my|our|this|that|these|those|attached|full|whole|complete|[\w-]{1,20}(?=\s{1,4}(?:logs?|outputs?)\b))\s{1,4}){0,3}"
    r"(?:logs?|outputs?|screenshots?|traces?|tracebacks?|pictures?|images?|above|below|attached|attachments?)\b)"
)
"""Words that make what follows a case an advice is for, not what happened here: "If you get \"HIP error: invalid device
function\", set HSA_OVERRIDE_GFX_VERSION", "In case you see hipErrorNoBinaryForGpu, ...", "Should you get ...", "If you're
getting ...". Documentation words it so ("If you get an error like:", "If you get the error `...`, ..."), and replies
and READMEs pasted into a report carry it (henk717/KoboldAI#262: "If you get True, you should be good to go. If you get
False, then there is some problem"; ROCm/legacy-rocm-build#2536 and xuhuisheng/rocm-build#8: advice quoted back in a
reply). The reporter's own conditions speak in the first person ("If I run it with --lowvram I get ..."): not these; nor
"if you have" ("If you have any idea why torch.cuda.is_available() returns False": a request for help with the state), nor
"if anyone/someone ..." ("If anyone has a fix for ..."), nor "in case of" (a reporter's "In case of my RX 7900 XTX,
torch.cuda.is_available() returns False", "In case of ROCm 6.2 I get the following:" names their own setup)."""
_CONDITIONAL_INTRO = when_used(r"(?:^[\W_]{0,8}(?:[\w-]{1,20}\s{1,4}){0,3}?|[.!?;]\s{1,4})(?:" + CONDITIONAL_ADVICE + r")"
    r"(?![^\n]{0,120}\b(?:me|my|mine|I|we|our)\b)[^\n,;]{0,120}:[\s*_`]*$",
    re.IGNORECASE,
)
"""A line that introduces the block after it as the case an advice is for ("If you get an error like:", "Note: in case you
see this:"): what the block holds is the advice's example, not this machine's output. The condition must run to the colon:
after a comma a main clause owns the block ("If you get an error, paste it here:", a bug template's heading; "If you run
into the same problem, here is my log:"), and a condition in the first person ("If you get the same error as me:") points
at the reporter's own output."""
_ADOPTED = when_used(
    r"\b(?:(?:the\s{1,4})?same(?:\s{1,4}(?:here|issue|problem|error|thing|for\s{1,4}me))?|me\s{1,4}too|(?:for|to)\s{1,4}me\s{1,4}(?:too|as\s{1,4}well)"
    r"|(?:I|we)\s{1,4}(?:also|too)\s{1,4}\w{1,12}|(?:similar|identical)\s{1,4}(?:issue|problem|error|output))\b(?:[^\n]{0,80}:[\s*_`]*$|[^\n]{0,24}$)"
    r"|\b(?:(?:I|we)(?:['\u2019]m|\s{1,4}am|\s{1,4}are|\s{1,4}still|\s{1,4}also)?\s{1,4}(?:get|got|getting|see|saw|seeing|have|had|having|hit|receive|received)"
    r"|(?:my|our|the)\s{1,4}(?:output|error|log|logs|result|traceback|message)|output|error|log|traceback|returns?|prints?|says?|shows?)\b[^\n]{0,60}:[\s*_`]*$"
    # the reporter quoting their own earlier words: "As I wrote above:", "From my first post:"
    r"|\b(?:as\s{1,4}(?:I|we)(?:\s{1,4}(?:have|had|already))?\s{1,4}(?:wrote|written|said|mentioned|posted|reported|described|explained|showed|shown)"
    r"|(?:my|our)\s{1,4}(?:first|earlier|previous|original|initial|own|last)\s{1,4}(?:post|comment|message|report|reply))\b[^\n]{0,80}:[\s*_`]*$",
    re.IGNORECASE,
)
"""The line before a quote that takes it as the reporter's own ("I get the same:", "Same here", "Here is my output:",
"Error:"): the quote holds this machine's output or state, not another comment's words. A short line or a label only: a
sentence that ends a report's paragraph ("... I get exactly the same issue.") does not introduce the quote under it. The
reporter's own earlier words quoted back ("As I wrote above:", "As I said in my first post:") are theirs too."""


_PROSE_AFTER_NAME = (
    r"(?:shows|showed|showing|says|said|lists|listed|returns?|returned|reports?|reported|finds?|found|detects?|detected"
    r"|sees?|saw|gives?|gave|displays?|displayed|prints?|printed|outputs?|works?|worked|fails?|failed|crashes|crashed|hangs?"
    r"|is|was|are|were|isn't|wasn't|does|did|doesn't|didn't|do\s{1,4}not|can|can't|cannot|could|couldn't|will|won't|would"
    r"|should|only|still|also|just|never|then|now|recognizes|recognises|recognized|recognised|uses|used|runs|ran"
    r"|has|had|have|seems?|seemed|and|but|or|on|in|for|to|with|itself|too)\b"
)
"""The words that make a tool's name at a ``> `` line's start the subject of a sentence, not a command: "> clinfo shows
no devices", "> rocminfo does not list my GPU" (a reply quoting someone's words, or the docs' words). Only verb forms no
tool takes as a subcommand ("> ollama show", "> ollama list", "> ollama run", "> conda list" stay commands)."""


_PROMPTED_COMMAND = when_used(
    r"^\s{0,4}(?:\.{1,2}[\\/]|[A-Za-z]:\\|[\w.-]{1,60}\.(?:exe|bat|cmd|ps1|sh|py)\b|\$env:"
    r"|(?:python3?|py|pip3?|uv|ollama|docker|podman|sudo|conda|rocminfo|rocm-smi|amd-smi|hipconfig|hipinfo|clinfo|llama-\w{1,20}|git|cd|set|export)"
    r"(?:\s(?!\s{0,3}" + _PROSE_AFTER_NAME + r")|$))",
    re.IGNORECASE,
)
"""A quoted line that is a command at a ``>`` prompt (cmd, PowerShell, a shell's continuation): what follows is its
output as pasted, not another person's words. Not a tool's name that a sentence's verb follows ("> clinfo shows no
devices", "> rocminfo lists gfx1100", "> ollama does not use the GPU"): that is a sentence about the tool, quoted
from someone else, and its statements are not the reporter's."""


_ANOTHERS_WORDS = when_used(
    r"(?:\b(?:you|he|she|they|someone|somebody|others?|maintainers?|devs?|developers?|docs?|documentation|readme|wiki|guide|faq"
    r"|manual|post|comment|article|answer|reply)\b|(?<![\w@])@[\w-]{1,39}\b)[^\n]{0,60}\b(?:say|says|said|saying|wrote|write|writes|written"
    r"|suggest|suggests|suggested|mention|mentions|mentioned|recommend|recommends|recommended|posted|replied|commented|state|states"
    r"|stated|told|tells|advised|advises|answered|asked|asks)\b"
    r"|^[\W_]{0,6}(?:from|according\s{1,4}to|per|quoting|quote|citing)\b(?!\s{1,4}(?:my|our|me)\b)|\bto\s{1,4}quote\b(?!\s{1,4}(?:my|our|me)\b)",
    re.IGNORECASE,
)
"""A line that hands the quote under it to someone else or to a document ("You said:", "The README says:", "From the
wiki:", "According to @bob:"): a colon there does not make the quote the reporter's output."""


_OWN_COLON = when_used(
    r"\b(?:results?|update|updated|edit|edited|now|again|still|got|ran|rerun|tried|here\s{1,4}(?:you\s{1,4}go|it\s{1,4}is))\b",
    re.IGNORECASE,
)
"""Words of a line ending in a colon that make it the reporter introducing what they ran and got ("I ran it again:", "Result:",
"Update:", "Here you go:"); a heading or a description ("My system:", "Additional context:") may end a report that a
reply's quote follows."""


_ADVICE_IN_QUOTE = when_used(
    r"(?:" + CONDITIONAL_ADVICE + r")|\byou\s{1,4}(?:should|need\s{1,4}to|have\s{1,4}to|must|might\s{1,4}want\s{1,4}to)\b"
    r"|^[\W_]{0,6}(?:try|make\s{1,4}sure|please\s{1,4}(?:try|set|install|run|use))\b",
    re.IGNORECASE,
)
"""A quoted line that gives advice ("If you get ...", "you should ...", "Try ..."): the quote is a reply's or a document's
words even under a line of the reporter's that ends in a colon."""


_FIRST_PERSON = when_used(r"\b(?:I|me|my|we|us|our)\b", re.IGNORECASE)


def _quote_scope(block: Block, previous: "Block | None") -> str:
    """``quoted`` for a quote inside the reporter's own text (a reply quoting advice or another comment: "> Try setting
    HIP_VISIBLE_DEVICES=0, torch doesn't see the GPU when the iGPU is first") that the line before it does not adopt
    (:data:`_ADOPTED`) nor introduces with a colon of the reporter's own ("Result:", "I ran it again:": a '> ' block is also
    how a report sets off its own output; "You said:", "From the README:" hand it to someone else, :data:`_ANOTHERS_WORDS`);
    ``current`` for any other block. A report quoted whole lost its margin before blocks were cut
    (:func:`without_margin`), so it is not a quote here."""
    if block.kind != "prose" or not block.lines or not _QUOTE.match(block.lines[0].raw):
        return "current"
    before = previous.lines[-1].raw if previous is not None and previous.kind == "prose" and previous.lines else ""
    handed = bool(before) and not _QUOTE.match(before) and bool(_ANOTHERS_WORDS.search(before))
    if any(line.command for line in block.lines) or _PROMPTED_COMMAND.match(block.lines[0].text):
        # "> .\\list_hip_devices.exe", "> python main.py" and the output under it: a Windows or shell prompt, not a quote;
        # under "The README says:", "Someone in the other thread wrote:" the command is another's, run nowhere here
        # ("> pip install ... cu121" gave RD100/RD528 errors): what the report is about, no facts
        # ("@bob asked me to run:", "You told me to run:" introduce what the reporter ran: their output)
        return "other" if handed and not _FIRST_PERSON.search(before) else "current"
    if handed or any(_ADVICE_IN_QUOTE.search(line.text) for line in block.lines):
        # "The README says:", "@bob suggested:", or a quote that gives advice: not the reporter's output, whatever the line says
        return "quoted"
    if before and not _QUOTE.match(before) and (_ADOPTED.search(before) if len(before.strip()) <= 60 or before.rstrip(" *_`").endswith(":") else False):
        return "current"
    if before and not _QUOTE.match(before) and before.rstrip(" *_`\r").endswith(":") and _OWN_COLON.search(before):
        # "Result:", "I ran it again:", "Update:", "Here you go:" over a '> ' block: the reporter setting off their own output
        # (an empty template heading a report ends with, "Additional context:", does not take a reply's quote under it)
        return "current"
    return "quoted"


_DENIED_AFTER_QUOTE = when_used(
    r"^\W{0,4}(?:(?:but|well|no|nope|hmm|actually)\W{1,3})?(?:(?:(?:I|we)\s{1,4}(?:do\s{0,2}n['\u2019]?t|do\s{1,4}not|don['\u2019]?t|never)"
    r"\s{1,4}(?:(?:ever|actually|even)\s{1,4})?(?:get|see|hit|experience|reproduce|observe)\s{1,4}(?:this|that|the\s{1,4}same|any\s{1,4}such|such)\b"
    r"|(?:this|that|it)\s{1,4}(?:does\s{0,2}n['\u2019]?t|does\s{1,4}not|never)\s{1,4}happens?\s{1,4}(?:for|to|on|with)\s{1,4}(?:me|us|my|mine)"
    r"|not\s{1,4}(?:for|on|with)\s{1,4}(?:me|my|mine)\b)"
    # rev50a: not a denial bound to a condition or another setup ("I don't see this error on the CPU / when HSA_OVERRIDE is
    # unset / before the update / only with ..."): the quote is still this machine's output
    r"(?![^\n]{0,120}\b(?:cpu|when|whenever|if|unless|without|only|except|before|until|previous\w{0,3}|older?)\b)"
    r"|(?:you|you['\u2019]re|you\s{1,4}are)\s{1,4}(?:get|see|got|saw|getting|seeing|hit|hitting)\s{1,4}(?:this|that|it)\b(?!\s{1,4}too\b))",
    re.IGNORECASE,
)
"""The line right after a quote that says the reporter does not get what the quote shows ("I don't get this error on my RX
7900 XTX", "This doesn't happen for me", "Not for me: ..."), or that answers the quote's author about it ("You get this because
torch 2.0 had no gfx1100 kernels"): the quote is another person's output, not this machine's. Only a present denial of
what the quote shows, bound to no condition (rev50a): "I can't get it to work", "I didn't have this problem with torch 2.0.1",
"I never had this before the update", "I don't get it, the same script ran fine yesterday" follow the reporter's own quote."""


def _denied_inside(block: Block) -> bool:
    """The first unmarked line after the quoted ones denies them (:data:`_DENIED_AFTER_QUOTE`): with no blank line
    between ("> HIP error: invalid device function" then "I don't get this error, ...") Markdown's lazy continuation
    keeps the reply in the quote's block, and it is the reporter's answer all the same (review rev50d)."""
    for before, line in zip(block.lines, block.lines[1:]):
        if _QUOTE.match(before.raw) and not _QUOTE.match(line.raw):
            return _DENIED_AFTER_QUOTE.match(line.text) is not None
    return False


_ANOTHER_GOT = when_used(
    r"\b(?:some(?:one|body)(?:\s{1,4}else)?|(?:an)?other\s{1,4}(?:user|person|commenter)|other\s{1,4}(?:users|people)|the\s{1,4}(?:op|reporter|author)"
    r"|(?<![\w@])@[\w-]{1,39})\s{1,4}(?:also\s{1,4})?(?:got|gets|had|has|saw|sees|hit|posted|pasted|reported|shared)\b",
    re.IGNORECASE,
)


_MINE = when_used(r"\b(?:mine|myself)\b", re.IGNORECASE)
"""rev55p: first person that :data:`_FIRST_PERSON` does not list ("Also reported in the linked issue, here is mine:")."""


def _handed_to_another(before: str) -> bool:
    """prec55: the line right above a fenced block hands it to someone else with a colon ("Someone else got this in the
    linked issue:", "@bob wrote:") and says nothing in the first person: the fence holds another person's output, not this
    machine's (RD521 read "Someone else got this in the linked issue:" over a loader error as this machine's). "I get the
    same as @bob:" or "Same here, my log:" keep it the reporter's; so does "From the traceback:" (amdsmi-186: the reporter's
    own log), which is why the quote's wider :data:`_ANOTHERS_WORDS` ("From the wiki:") is not used for a fence."""
    text = before.strip()
    if not text.rstrip(" *_`\r").endswith(":") or _FIRST_PERSON.search(text) or _MINE.search(text):
        return False
    return bool(_ATTRIBUTION.match(text) or _ANOTHER_GOT.search(text))


def _attributed(block: Block, previous: "Block | None") -> bool:
    """A quoted block that the report attributes to someone else, on the line before it or its own first line."""
    if not block.lines or not _QUOTE.match(block.lines[0].raw):
        return False
    before = previous.lines[-1].raw if previous is not None and previous.kind == "prose" and previous.lines else ""
    return bool(_ATTRIBUTION.match(before.strip())) or bool(_ATTRIBUTION.match(block.lines[0].text.strip()))


def past_blocks(blocks: List[Block], intros: Dict[int, str]) -> List[Block]:
    """The blocks with ``scope='past'`` where the report introduces them as an earlier state: the
    summary of their ``<details>`` (``intros``: block index -> summary text), the last line of the
    block before them, or their own first line, when that line is a heading or label; with
    ``scope='other'`` a quote the report attributes to someone else (another person's machine)."""
    out: List[Block] = []
    for position, block in enumerate(blocks):
        previous = blocks[position - 1] if position else None
        intro = intros.get(block.index, "")
        if _attributed(block, previous):
            out.append(Block(block.index, block.kind, block.lines, "other"))
            continue
        candidates = [intro]
        before_line = ""
        if previous is not None and previous.kind == "prose" and previous.lines:
            before_line = _label_text(previous.lines, len(previous.lines) - 1)  # a label wrapped over lines read whole
            candidates.append(before_line)
        own_label = block.lines[0].raw if block.lines and _one_paragraph(block) else None
        if own_label is not None and not (block.kind != "fenced" and _is_label(own_label)):
            candidates.append(own_label)  # a prose label over its own lines: _past_paragraphs says where they end
        said = next((text for text in candidates if _introduces_past(text)), None)
        if said is not None:
            out.append(Block(block.index, block.kind, block.lines, _intro_scope(said)))
        elif any(_CONDITIONAL_INTRO.search(text) for text in (intro, before_line) if text):
            out.append(Block(block.index, block.kind, block.lines, "advice"))
        elif block.kind == "fenced" and _handed_to_another(before_line):
            out.append(Block(block.index, block.kind, block.lines, "other"))
        elif _quote_scope(block, previous) != "current":
            scope = _quote_scope(block, previous)
            following = blocks[position + 1] if position + 1 < len(blocks) else None
            if scope == "quoted" and (_denied_inside(block) or (following is not None and following.kind == "prose" and following.lines and _DENIED_AFTER_QUOTE.match(following.lines[0].text))):
                scope = "other"  # "> hipErrorNoBinaryForGpu ..." then "I don't get this error": another's output, no fact of this machine
            # a quoted support table is a document's all the same (review rev50d: "> | RX 6700 XT | HSA_OVERRIDE_GFX_VERSION=10.3.0 |"
            # rows gave RD214/RD702 errors on a healthy RX 7900 XTX)
            out += _without_support_tables(Block(block.index, block.kind, block.lines, scope), before_line)
        else:
            pieces = _past_paragraphs(block)
            for number, piece in enumerate(pieces):
                lead = pieces[number - 1].lines[-1].text if number and pieces[number - 1].lines else before_line
                out += _without_support_tables(piece, lead)
    return out


_TABLE_GPU = when_used(
    r"\bgfx\d{3,4}[a-z]?\b|\bRX\s?\d{3,4}[A-Z]{0,2}\b(?:\s{1,2}XTX?\b)?|\bRadeon\s{1,4}(?:Pro\s{1,4}\w{2,6}|VII\b|\d{3,4}M\b)"
    r"|\bMI\d{2,3}[A-Z]{0,2}\b|\bVega\s{0,2}(?:56|64|\d{0,2})\b|\b\d{4}\s?XTX?\b|\b[6-9]\d0M\b|\bNavi\s?\d{2}\b",
    re.IGNORECASE,
)
"""A GPU named as support tables and lists name it: a gfx target, an RX/Radeon/Instinct model, a chip name."""
_PIPE_ROW = when_used(r"^\s{0,3}\|?[^|\n]{0,200}\|[^\n]{0,400}$")
_LIST_ROW = when_used(r"^\s{0,3}(?:[-*+\u2022]\s{1,3}|\d{1,2}[.)]\s{1,3})?[^\n]{0,48}?(?:\s[-\u2013\u2014]\s|:|=>|->|\u2192)")
_ROW_SETTING = when_used(
    r"HSA_OVERRIDE_GFX_VERSION|\boverrid\w{1,4}|\b\d{1,2}\.\d\.\d\b|\b(?:un)?supported\b|\bnot\s{1,4}supported\b"
    r"|\b(?:needs?|requires?|use|set)\b|\bworks?\b|[\u2705\u274c\u2713\u2717\u2714\u2716]",
    re.IGNORECASE,
)
_SUPPORT_TABLE_RULE = when_used(r"^\s{0,3}\|?\s{0,3}:?-{3,}")
SUPPORT_TABLE_GPUS = 3
"""Distinct GPUs a run of table or list rows names before it is read as a support table, not this machine."""


def _support_row(text: str) -> "str | None":
    """The GPU a line of a support table or list names first (lower case, spaces removed), or None: a Markdown table row
    that names a GPU, or a list row ("gfx1031: use override 10.3.0", "- RX 6700 XT - needs HSA_OVERRIDE_GFX_VERSION=10.3.0")
    whose GPU stands before its separator and that gives a setting or a support verdict."""
    gpu = _TABLE_GPU.search(text)
    if gpu is None:
        return None
    if _PIPE_ROW.match(text) and text.count("|") >= 2:
        # the row is keyed by the GPU: it stands in the first cell ("| RX 6700 XT | gfx1031 | 10.3.0 |"), not after a
        # label of the reporter's own environment table ("| dGPU (target) | AMD Radeon RX 7900 XT, gfx1100 |")
        first = next((cell for cell in text.split("|") if cell.strip()), "")
        key = _TABLE_GPU.search(first)
        if key is not None:
            return re.sub(r"\s+", "", key.group(0).lower())
        # or a row that lists products after a family's name ("| AMD Radeon RX | `7900 XTX` `7900 XT` `7800 XT` ... |": ollama's
        # GPU docs): three or more models in one row are a list, never one machine's card
        models = {re.sub(r"\s+", "", m.group(0).lower()) for m in itertools.islice(_TABLE_GPU.finditer(text), 64) if not m.group(0).lower().startswith("gfx")}
        return "|".join(sorted(models)) if len(models) >= SUPPORT_TABLE_GPUS else None
    row = _LIST_ROW.match(text)
    if row is None or gpu.start() > row.end() or not _ROW_SETTING.search(text, gpu.end()):
        return None
    return re.sub(r"\s+", "", gpu.group(0).lower())


_INLINE_SUPPORT_ITEM = when_used(
    r"(?:" + _TABLE_GPU.pattern + r")[^,;.\n]{0,48}?(?:HSA_OVERRIDE_GFX_VERSION|\boverrid\w{1,4}|\b\d{1,2}\.\d\.\d\b|\b(?:un)?supported\b|\b(?:needs?|requires?)\b)",
    re.IGNORECASE,
)


def support_list_keys(sentence: str) -> Set[str]:
    """The distinct GPUs a sentence lists each with a setting or a support verdict before the next comma ("RX 6700 XT needs
    HSA_OVERRIDE_GFX_VERSION=10.3.0, RX 7600 needs 11.0.0, RX 5700 XT is unsupported"): a support list written inline, as
    :func:`_without_support_tables` reads one written a row a line."""
    keys: Set[str] = set()
    for item in itertools.islice(_INLINE_SUPPORT_ITEM.finditer(sentence), 64):
        gpu = _TABLE_GPU.match(item.group(0))
        if gpu is not None:
            keys.add(re.sub(r"\s+", "", gpu.group(0).lower()))
    return keys


_OWN_ROWS_INTRO = when_used(
    r"\b(?:my|our)\s{1,3}(?:[\w-]{1,20}\s{1,3}){0,3}?(?:gpus?|cards?|machines?|servers?|box|rig|setup|systems?|nodes?|workstation|pc|computer|"
    r"results?|tests?|devices?|hardware)\b|\b(?:I|we)\s{1,3}(?:\w{1,12}\s{1,3}){0,2}?(?:tested|tried|ran|benchmarked|measured|checked|got|have|own)\b"
    r"(?!\s{1,3}(?:seen|read|found|heard|looked|come))|\b(?:test|my)\s{1,3}results?\b|\bthis\s{1,3}(?:box|machine|server|system|rig|pc|computer|workstation|node)\b",
    re.IGNORECASE,
)
"""The line before a run of rows that gives them as the reporter's own ("I tested torch on my three GPUs:", "My server has
three cards:", "Test results:", "I have three GPUs in this box:"): a table of the reporter's own machines or results (rev50a)."""
_DOCUMENT_INTRO = when_used(
    r"\b(?:readme|docs?|documentation|wiki|guide|faq|manual|matrix|compatibility|release\s{1,3}notes|changelog|according\s{1,3}to|says|said|states)\b",
    re.IGNORECASE,
)
"""An intro line that names a document ("I have an RX 6700 XT. From the README:"): the rows are the document's whatever else it says."""
_OWN_ROW_WORD = when_used(r"\b(?:I|[Mm]y|MY|[Ww]e|[Oo]ur|[Mm]ine)\b")
"""A row that speaks in the first person ("- RX 6600: I use HSA_OVERRIDE_GFX_VERSION=10.3.0"): the reporter's own card (rev50a)."""
_OWN_STATE_COLUMN = when_used(
    r"(?:^|\|)\s{0,3}(?:temp\w{0,9}|power|avg\s?pwr|pwr|vram\s{0,2}%|gpu\s{0,2}%|util\w{0,9}|usage|pci\w{0,4}|bus(?:\s{0,2}id)?|slot|node(?:\s{0,2}id)?|agent|fan|sclk|mclk|"
    r"results?|tested|torch\s{0,2}\S{0,12}\s{0,2}(?:result|status))\s{0,3}(?:\(\w{1,6}\)\s{0,3})?\|",
    re.IGNORECASE,
)
"""A table column that only a machine's own state or the reporter's own tests give ("| GPU | Temp | Power | VRAM% |", "| GPU |
Result |"): no support table has it (rev50a)."""


def _without_support_tables(block: Block, lead: str = "") -> List[Block]:
    """``block`` with each run of support-table rows cut out as a block of its own with ``scope='other'``: a pasted
    compatibility table or list that names several GPUs with their settings or support ("| RX 6700 XT | gfx1031 |
    HSA_OVERRIDE_GFX_VERSION=10.3.0 |", "gfx1031: use override 10.3.0") is a document's, not this machine's GPUs and
    variables (RD214 and RD702 read such a table's overrides as set for this machine's GPUs). A run must name at
    least :data:`SUPPORT_TABLE_GPUS` distinct GPUs: a machine with two GPUs listed with their settings stays this
    machine's. Shapes: ROCm/legacy-rocm-build#2391 (a GPU specifications table pasted into an issue), ollama's GPU
    docs (https://github.com/ollama/ollama/blob/074d639b5211a0c31f012d2308e249f5ae0074cd/docs/gpu.md: "Family | Cards and accelerators" tables and the
    override list), ROCm's system requirements (https://rocm.docs.amd.com/projects/install-on-linux/en/docs-6.2.0/
    reference/system-requirements.html: "GPU | LLVM target | ..." rows), the override list pasted in review of
    ollama/ollama#2885. Not a run the line before gives as the reporter's own ("I tested torch on my three GPUs:", "My
    server has three cards:", :data:`_OWN_ROWS_INTRO`, ``lead``: the line before the block) nor one with a row in the
    first person ("- RX 6600: I use HSA_OVERRIDE_GFX_VERSION=10.3.0"): the reporter's results on their own GPUs (rev50a).
    Parts keep the block's number."""
    if block.scope not in ("current", "quoted") or len(block.lines) < SUPPORT_TABLE_GPUS or not _TABLE_GPU.search(block.text):
        return [block]
    runs: List[Tuple[int, int]] = []
    start, names = -1, set()
    rows = 0
    for position, line in enumerate(block.lines + (Line("", block.index, 0),)):
        name = _support_row(line.text) if line.text else None
        filler = name is None and bool(line.text) and start >= 0 and (_SUPPORT_TABLE_RULE.match(line.text) is not None or (_PIPE_ROW.match(line.text) is not None and line.text.count("|") >= 2))
        if name is not None:
            if start < 0:
                start, names, rows = position, set(), 0
                header = position - 1
                while header >= 0 and (_SUPPORT_TABLE_RULE.match(block.lines[header].text) or (_PIPE_ROW.match(block.lines[header].text) and block.lines[header].text.count("|") >= 2)):
                    header -= 1
                start = header + 1
            names.update(name.split("|"))
            rows += 1
        elif filler:
            continue
        elif start >= 0:
            intro = " ".join(line.text for line in block.lines[max(0, start - 2) : start]) if start else lead
            own = (_OWN_ROWS_INTRO.search(intro) and not _DOCUMENT_INTRO.search(intro)) or any(_OWN_ROW_WORD.search(line.text) or _OWN_STATE_COLUMN.search(line.text) for line in block.lines[start:position])
            if len(names) >= SUPPORT_TABLE_GPUS and not own:  # rev50a: the reporter's own three GPUs or results stay theirs
                runs.append((start, position))
            start = -1
    if not runs:
        return [block]
    out: List[Block] = []
    at = 0
    for first, end in runs:
        if first > at:
            out.append(Block(block.index, block.kind, block.lines[at:first], block.scope))
        out.append(Block(block.index, block.kind, block.lines[first:end], "other"))
        at = end
    if at < len(block.lines):
        out.append(Block(block.index, block.kind, block.lines[at:], block.scope))
    return out


_EXPECTED_HEADING = when_used(
    r"^[ \t]{0,3}(?:#{1,6}[ \t]{1,4}|\*\*)[ \t]{0,4}(?:expected\s{1,3}(?:behaviou?r|results?|outputs?|outcome)"
    r"|what\s{1,3}(?:should\s{1,3}have\s{1,3}happened|(?:did\s{1,3})?you\s{1,3}expect(?:ed)?(?:\s{1,3}to\s{1,3}happen)?)"
    r"|desired\s{1,3}behaviou?r)\b[^\n]{0,60}$",
    re.IGNORECASE,
)
"""An issue template's heading over what the reporter wanted, not what happened: PyTorch's "## Expected behavior"
(https://github.com/pytorch/pytorch/blob/dfb94b9717803b11ec9613c70a6812a9ace041f4/.github/ISSUE_TEMPLATE/bug-report.md),
AUTOMATIC1111's "### What should have happened?"
(https://github.com/AUTOMATIC1111/stable-diffusion-webui/blob/5ef669de080814067961f28357256e8fe27544f4/.github/ISSUE_TEMPLATE/bug_report.yml),
the "### Expected Behavior" of ComfyUI's, SwarmUI's and other templates."""
_ANY_HEADING = when_used(r"^[ \t]{0,3}(?:#{1,6}[ \t]{1,4}\S|\*\*[^*\n]{1,80}\*\*[ \t]{0,2}:?[ \t]{0,2}$)")
"""Any Markdown heading or a line that is only a bold label: where a template's section ends."""
_SECTION_END = when_used(
    r"^[ \t>*_-]{0,6}(?:environment|system\s{1,3}info(?:rmation)?|sysinfo|versions?|actual(?:\s{1,3}(?:behaviou?r|results?|outputs?|outcome))?"
    r"|current\s{1,3}behaviou?r|what\s{1,3}(?:actually\s{1,3})?happen(?:s|ed)|(?:steps\s{1,3})?to\s{1,3}reproduce|additional\s{1,3}(?:context|info\w{0,8})"
    r"|(?:error|console|debug)\s{1,3}logs?|logs?|traceback|instead)\b[ \t*_]{0,3}(?::|$)"
    r"|\b(?:but|and)\s{1,3}(?:instead\s{1,3})?(?:I|it|we|this)\s{1,3}(?:\w{1,12}\s{1,3})?(?:get|gets|got|see|saw|has|have|had|is|was|shows?|showed|returns?|returned|prints?|printed|says?|said|gives?|gave)\b"
    r"|\binstead\b|\bactual(?:ly)?\b|\bhowever\b|\bin\s{1,3}reality\b"
    r"|\bCollecting\s{1,3}environment\s{1,3}information\b|^[ \t]{0,3}<(?:details|summary)\b",
    re.IGNORECASE,
)
"""Where what the reporter got starts inside an "Expected behavior" section without a Markdown heading (rev48g): a plain
label of another template section ("Environment:", "Actual:", "System Info"), a contrast ("..., but I get:",
"instead", "actually", "however"), PyTorch's environment script's output, or a collapsed ``<details>`` section (a
log or a listing folded away, not a wish). Everything from that line on is what
happened, not what was wanted."""

_ENVIRONMENT_SECTION_LINE = when_used(
    r"^[ \t]{0,4}[-*][ \t]{1,3}[A-Za-z][\w /.-]{0,40}\(e\.g\.,?[ \t]{0,3}[^)\n]{1,40}\)[ \t]{0,3}:"
)
"""A line of the "## Environment" section that follows "Expected behavior" in PyTorch's template (same commit as
:data:`_EXPECTED_HEADING`): its checklist (" - PyTorch Version (e.g., 1.0): 1.6.0", " - OS (e.g., Linux): ..."; collect_env's first line is
one of :data:`_SECTION_END`'s). A report that deleted the heading but kept the section describes the machine there, not a
wish (rev48h: the shared case pytorch-51213 lost its torch 1.6.0, read again once a fence moved the heading)."""


def expected_lines(blocks: List[Block]) -> Set[int]:
    """The numbers of the lines under an issue template's "Expected behavior" heading (:data:`_EXPECTED_HEADING`),
    up to the next heading: what the reporter wanted, not what happened ("Output: torch 1.7.1+cu110 / torchvision
    0.8.2+cu110" under "## Expected behavior", pytorch/pytorch#52571). Headings count in prose only (a fence is in the
    section it sits in); a ``<details>`` body and what :data:`_SECTION_END` finds end it (rev48g). Only the software state read there is dropped
    (:data:`rocm_doctor.ingest.EXPECTED_DROPS`): people paste what they got under that heading too (pytorch/audio#1749's
    traceback), and the hardware it names is the reporter's ("The system should detect the Radeon 8060S",
    ROCm/ROCm#4809), and only where the report shows the same fact elsewhere (``_without_software_state``). Line by
    line, so a report whose fences a forum stripped reads the same. The section also ends at a line of the template's
    Environment checklist whose heading the report deleted (:data:`_ENVIRONMENT_SECTION_LINE`, rev48h)."""
    under = False
    found: Set[int] = set()
    for block in blocks:
        under = under and block.kind != "details"  # a collapsed section: a log or a listing folded away (rev48g)
        for line in block.lines:
            # the heading as marked too: "**Expected behavior:** no error" loses its bold in the line's text (rev49d)
            expected = block.kind == "prose" and bool(
                _EXPECTED_HEADING.match(line.text) or _EXPECTED_HEADING.match(_QUOTE.sub("", line.raw, count=1))
            )
            if block.kind == "prose" and (_ANY_HEADING.match(line.text) or expected):
                under = expected
            elif under and (_SECTION_END.search(line.text) or _ENVIRONMENT_SECTION_LINE.match(line.text)):
                under = False  # "..., but I get:", "Environment:", the template's checklist without its heading: what happened (rev48g, rev48h)
            elif under:
                found.add(line.number)
    return found


def _label_scope(text: str) -> str:
    """The scope a label or introducing line gives what follows it: ``past`` / ``elsewhere`` (:func:`_intro_scope`),
    ``advice`` for a conditional advice's case ("If you get an error like:"), else ""."""
    if _introduces_past(text):
        return _intro_scope(text)
    return "advice" if _CONDITIONAL_INTRO.search(text) else ""


def _is_label(text: str) -> bool:
    """A short line that labels what follows it ("Before the update:", "**Now:**")."""
    stripped = text.strip().strip("*_#>` ").strip()
    return 0 < len(stripped) <= 100 and stripped.endswith(":")


_SENTENCE_END = when_used(r"[.!?][\s*_`)\"']*$")


def _colon_wrapped_in_sentence(lines: Sequence[Line], at: int) -> bool:
    """Line ``at`` ends with a colon only because a wrapping tool broke the sentence right after it: the line may have been
    wrapped (:func:`may_be_wrapped`), the next line goes on in lower case with words (three or more) and the sentence
    ends, with a full stop, within the next :data:`LABEL_LINES` lines, each wrapped onto the next. "I can still boot the
    previous kernel, 4.13.0-32, and then everything works fine:" / "many more amdgpu lines in dmesg, ... screen update
    is" / "fast, fan is low." (ROCm/legacy-rocm-build#344 under the metamorphic "wrap at 80 columns" rewrite) is one
    sentence, no label over an earlier state; a label's lines are output ("torch 2.4.1+rocm6.1"), not a sentence's end."""
    if at + 1 >= len(lines):
        return False
    text, following = lines[at].raw.rstrip(), lines[at + 1].raw.strip()
    if not may_be_wrapped(text, following) or not _GOES_ON_LOWER.match(following) or len(following.split()) < 3:
        return False
    for n in range(at + 1, min(at + 1 + LABEL_LINES, len(lines))):
        line = lines[n].raw.rstrip()
        if not line.strip() or line.endswith(":"):
            return False
        if _SENTENCE_END.search(line):
            return True
        if n + 1 >= len(lines) or not may_be_wrapped(line, lines[n + 1].raw.strip()):
            return False
    return False


def _label_at(lines: Sequence[Line], at: int) -> bool:
    """Line ``at`` of a paragraph is a label (:func:`_is_label`), not a sentence wrapped after its colon."""
    return _is_label(lines[at].raw) and not _colon_wrapped_in_sentence(lines, at)


LABEL_LINES = 3
"""Lines one label may have been wrapped over (a label is at most 100 characters: :func:`_is_label`)."""
_GOES_ON_LOWER = when_used(r"^[\s>*_]{0,6}[\"'(`]?[a-z]")
"""A line that goes on with the sentence of the line before it: it starts with a lower-case word (a new sentence, a log
line or a label of its own starts with a capital, a digit or a mark)."""
_ENDS_SENTENCE = when_used(r"[.!?:;][\s*_`)\"']*$")


def _label_start(lines: Sequence[Line], at: int) -> int:
    """The first line of the label that ends on line ``at``: a label a wrapping tool broke ("Old version used offload-arch
    that sees more gpus than pytorch resulting in" / "pytest failing with:", ROCm/TheRock#2195 under the metamorphic
    "wrap at 80 columns" rewrite) starts on the line its sentence started on; the lines it goes on from end no sentence,
    may have been wrapped (:func:`may_be_wrapped`) and are followed by a lower-case word (meta53). ``at`` itself when the
    line is no label."""
    start = at
    if not _label_at(lines, at):
        return at
    while start > 0 and at - start + 1 < LABEL_LINES:
        before = lines[start - 1].raw.rstrip()
        following = lines[start].raw.strip()
        if not before.strip() or _ENDS_SENTENCE.search(before) or not _GOES_ON_LOWER.match(following) or not may_be_wrapped(before, following):
            break
        start -= 1
    return start


def _label_text(lines: Sequence[Line], at: int) -> str:
    """The text of the label that ends on line ``at``, joined over the lines it was wrapped onto (:func:`_label_start`);
    the line as pasted when it is no label."""
    return " ".join(line.raw.strip() for line in lines[_label_start(lines, at) : at + 1])


def _labelled_parts(paragraph: List[Line]) -> List[List[Line]]:
    """A paragraph cut before each label line inside it when one of its labels names an earlier state:
    "Before the update:\ntorch 2.5\nNow:\ntorch 2.6" is two parts, the first of them past. A report
    whose outputs were not fenced (or whose fences a forum or a mail stripped) says what a fenced one
    says with a label over each block. A label wrapped over lines is cut before its first line (:func:`_label_start`)."""
    labels = [i for i in range(len(paragraph)) if _label_at(paragraph, i)]
    if not any(_label_scope(_label_text(paragraph, i)) for i in labels):
        return [paragraph]
    cuts = [0] + [start for start in (_label_start(paragraph, i) for i in labels) if start] + [len(paragraph)]
    return [paragraph[a:b] for a, b in zip(cuts, cuts[1:]) if b > a]


def _opening_label_scope(part: List[Line]) -> str:
    """The scope of the label a part opens with (wrapped over its first lines or not), when lines follow it."""
    for at in range(min(LABEL_LINES, len(part) - 1)):
        if _label_at(part, at):
            return _label_scope(_label_text(part, at)) if _label_start(part, at) == 0 else ""
    return ""


def _past_paragraphs(block: Block) -> List[Block]:
    """A prose block cut around the paragraphs it introduces as an earlier state: a paragraph after
    one that ends with such a label ("Reverting to the previous kernel works:") is ``past``, as a
    fenced block after it would be, and so are the lines under such a label inside a paragraph, up to
    the next label (:func:`_labelled_parts`). The parts keep the block's number; a block with no such
    paragraph is returned whole. A ``<details>`` block is prose too when its outputs are not fenced, and a fenced
    block is read the same (meta53): a report pasted whole inside one fence ("Old version used offload-arch ...
    resulting in pytest failing with:" over the error, ROCm/TheRock#2195 under the metamorphic "add Markdown fences"
    rewrite) says with its labels what it says unfenced: the lines under "... failing with:" are the earlier state up to
    a blank line or the next label, in a fence as in prose. A fenced block whose own first line is such a label is past
    whole (:func:`past_blocks`), as before: one output under one heading."""
    if block.kind not in ("prose", "details", "fenced") or len(block.lines) < 2:
        return [block]
    paragraphs: List[List[Line]] = [[]]
    gaps: List[Optional[Line]] = [None]
    for line in block.lines:
        if line.text:
            paragraphs[-1].append(line)
        elif paragraphs[-1]:
            paragraphs.append([])
            gaps.append(line)
    parts_of: List[List[Line]] = []
    gap_before: List[Optional[Line]] = []
    for paragraph, gap in zip(paragraphs, gaps):
        for n, part in enumerate(_labelled_parts(paragraph) if paragraph else [paragraph]):
            parts_of.append(part)
            gap_before.append(gap if n == 0 else None)
    marks = [
        _opening_label_scope(part)
        or (_label_scope(_label_text(parts_of[i - 1], len(parts_of[i - 1]) - 1)) if i and parts_of[i - 1] else "")
        for i, part in enumerate(parts_of)
    ]
    if not any(marks):
        return [block]
    out: List[Block] = []
    run: List[Line] = []
    for part, gap, past in zip(parts_of, gap_before, marks):
        if past:
            if run:
                out.append(Block(block.index, block.kind, tuple(run)))
                run = []
            out.append(Block(block.index, block.kind, tuple(part), past))
        else:
            run += ([gap] if run and gap is not None else []) + part
    if run:
        out.append(Block(block.index, block.kind, tuple(run)))
    return out


class Spans:
    """Character ranges of a text already read by one reader: a later pattern skips a match that
    starts inside one. Sorted, merged ranges with bisect, so a 20 MB line costs one entry per
    match, not one per character."""

    def __init__(self) -> None:
        self._starts: List[int] = []
        self._ends: List[int] = []

    def __contains__(self, position: int) -> bool:
        index = bisect.bisect_right(self._starts, position) - 1
        return index >= 0 and position < self._ends[index]

    def add(self, start: int, end: int) -> None:
        if not self._starts or start >= self._ends[-1]:  # the usual case: matches come in order
            if self._starts and start == self._ends[-1]:
                self._ends[-1] = end
            else:
                self._starts.append(start)
                self._ends.append(end)
            return
        index = bisect.bisect_right(self._starts, start)
        if index > 0 and start <= self._ends[index - 1]:  # joins the range before it
            index -= 1
            start = self._starts[index]
            end = max(end, self._ends[index])
            del self._starts[index], self._ends[index]
        while index < len(self._starts) and self._starts[index] <= end:  # swallows the ranges it reaches
            end = max(end, self._ends[index])
            del self._starts[index], self._ends[index]
        self._starts.insert(index, start)
        self._ends.insert(index, end)


MAX_REPEATS = 32
"""How many lines of one shape (the line with every number, decimal or hex, blanked) the free-text readers
read: a 20 MB training log is mostly one progress line repeated, and its 33rd copy says nothing
the first 32 did not. Tool-output readers (rocminfo, lspci, smi, pip, collect_env) read every line."""

_NUMBERS = when_used(r"(?<![0-9a-fA-F])[a-fA-F]*[0-9][0-9a-fA-F]*")
"""A whole run of hex characters that holds a digit. The look-behind lets a match start only where a run
starts, so a run without a digit (``'a' * 80000``) is scanned once, not once per position (quadratic)."""


def without_repeats(blocks: List[Block], keep: int = MAX_REPEATS) -> List[Block]:
    """The blocks without the lines whose shape occurred ``keep`` times before in the paste
    (a block that loses none is returned as it is; line numbers stay the original ones)."""
    seen: Dict[str, int] = {}
    out: List[Block] = []
    for block in blocks:
        shapes = _NUMBERS.sub("0", block.text).split("\n")
        kept: List[Line] = []
        for line, shape in zip(block.lines, shapes):
            count = seen.get(shape, 0) + 1
            seen[shape] = count
            if count <= keep:
                kept.append(line)
        out.append(block if len(kept) == len(block.lines) else Block(block.index, block.kind, tuple(kept), block.scope))
    return out
