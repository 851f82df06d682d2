"""The TheRock GPU family a report installs ROCm or PyTorch wheels for: ``.../v2/gfx110X-all/``.

TheRock's legacy per-family releases put each GPU family on its own index (rocm.nightlies.amd.com/v2/<family>/,
the v2-staging/<family>/ indexes, their CloudFront mirrors d2awnip2yjpvqn.cloudfront.net and
d25kgig7rdsyks.cloudfront.net) with one ``rocm-sdk-libraries-<family>`` package, built for that family's
targets only (rules/data/therock_families.yaml). The family in the index or the package name says which
targets the installed build holds even where the report prints no torch version. Read where an install
shows it: an index URL on a ``pip``/``uv`` line or pip's "Looking in indexes", a wheel's own URL, the
package name in a listing or a download. Every distinct family is kept (``symptoms.therock_families``);
a report that names several does not say which one is installed, and the derived fact says so. A
sentence that asks or advises ("should I use .../v2/gfx1151/?", "try the gfx110X-all index instead") is
not an install. Reports: ROCm/TheRock#3046 (``uv pip install --index-url=.../v2-staging/gfx1150`` and
``rocm-sdk-libraries-gfx1151`` in uv's progress), #5954 (``pip install --index-url .../v2/gfx110X-all/``),
#2164 (the families in tarball names).
"""

from __future__ import annotations

import re
from typing import List, Sequence, Tuple

from rocm_doctor.ingest.blocks import Block, Line, wrapped_command
from rocm_doctor.ingest.formats.common import make_piece
from rocm_doctor.ingest.model import TRUST_SIGNATURE, Observation, Piece
from rocm_doctor.ingest.formats.install_scope import INSTALL, installed_here
from rocm_doctor.lazy_regex import when_used

_FAMILY = r"(?P<family>gfx[0-9]{2,4}[0-9a-fx]?(?:-(?:all|dgpu|dcgpu|igpu))?)(?![\w-])"
_INDEX = when_used(
    r"(?:rocm\.nightlies\.amd\.com|rocm\.prereleases\.amd\.com|d2awnip2yjpvqn\.cloudfront\.net|d25kgig7rdsyks\.cloudfront\.net)"
    r"/v2(?:-staging)?/" + _FAMILY,
    re.IGNORECASE,
)
_PACKAGE = when_used(r"(?<![\w-])rocm[-_]sdk[-_]libraries[-_]" + _FAMILY, re.IGNORECASE)
MAX_LINE = 2000
"""Characters of a line searched: an index URL or a package sits in a command or a listing line."""


_OPTION = when_used(r"--?[A-Za-z][\w-]{0,40}=?")
_SCHEME_AT_END = when_used(r"(?:https?://)?\Z", re.IGNORECASE)
_CONTINUATION = ("\\", "^", "`")
"""A shell's line continuation a command wrapped by hand ends a line with (bash, cmd, PowerShell)."""


def _an_option_argument(text: str, start: int) -> bool:
    """Whether the index URL whose host starts at ``start`` is the argument of an option (``--index-url``, ``-i``,
    ``-f``) or an entry of pip's "Looking in indexes: a, b" line: what a wrapped install command or pip's wrapped
    output holds. A URL after words ("... and it fails" / "https://.../gfx1151/ is the README's", "1. https://...",
    "from https://...") continues prose or a list, not the command the line before holds."""
    head = text[max(0, start - 300) : start]
    scheme = _SCHEME_AT_END.search(head)
    words = head[: scheme.start() if scheme else len(head)].split()
    while words and words[-1] in _CONTINUATION:
        words.pop()
    if not words:
        return False
    last = words[-1]
    return bool(_OPTION.fullmatch(last)) or (last.endswith((",", ":")) and "looking in indexes" in head.lower())


def _read(lines: Sequence[Line], at: int) -> Tuple[List[str], List[Line]]:
    """The families line ``at`` installs from, and the lines that show it: the line alone, or with the lines of its
    command before it when a wrapping tool cut the command before the index URL (``pip install --index-url`` /
    ``https://.../v2/gfx1151/ torch``), so that the command's words and the URL are read as one line: only a URL that
    is an option's argument there (:func:`_an_option_argument`)."""
    shown = [lines[at]]
    text = lines[at].text[:MAX_LINE]
    skip = 0
    if not INSTALL.search(text) and _INDEX.search(text):
        shown = wrapped_command(lines, at)
        prefix = " ".join(line.text.strip()[:MAX_LINE] for line in shown[:-1])
        if prefix:
            skip = len(prefix) + 1
            text = prefix + " " + text.strip()
    found = [m for m in _INDEX.finditer(text, skip) if INSTALL.search(text) and (not skip or _an_option_argument(text, m.start()))]
    found += list(_PACKAGE.finditer(text, skip))
    return [m.group("family") for m in found if installed_here(text, m)], shown


def parse(block: Block) -> List[Piece]:
    pieces: List[Piece] = []
    for at, line in enumerate(block.lines):
        found, shown = _read(block.lines, at)
        if found:
            families = list(dict.fromkeys(found))
            pieces.append(make_piece("therock-family", shown, [Observation("symptoms.therock_families", families, line, TRUST_SIGNATURE)]))
    return pieces
