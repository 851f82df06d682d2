"""Every regular expression the paste readers and the rule engine compile reads in linear time.

A pattern like ``[0-9a-f]*[0-9][0-9a-f]*`` (what ``without_repeats`` used to blank numbers with)
tries every start position and scans the rest of a run from each: ``'a' * 80000`` took 26-45 s.
Here every pattern runs on prefixes of adversarial texts (a long run of one character of each
class, hex runs, two classes alternating) of two lengths; the time must grow like the length: 8 times
the length, at most 24 times the time (a quadratic pattern takes 64 times as long). The verdict is a ratio of two
timings taken in the same run, never a time limit, and each side is read so that load cannot tip it
(``test_the_timing_tells_a_quadratic_pattern_from_a_linear_one`` checks, at these very lengths, that quadratic
shapes are told every time of several trials). Speed targets in seconds are in ``benchmarks/`` (run on demand).

A screen reads each pattern once on the long prefix: one that reads it faster than a quadratic pattern could is
linear (load only ever adds time). Only the others are timed on the short prefix (best of three: its noise would
widen the bound) and again on the long one, so the test stays a few seconds long.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from contextlib import contextmanager
from typing import Callable, Dict, Iterator, List, Tuple

import pytest

from rocm_doctor.ingest import signatures
from rocm_doctor.ingest.formats import env_settings, mentions, release_archives, resolutions

_INVENTORY = Path(__file__).parent / "pattern_inventory.py"

SHORT, LONG = 500, 4_000
"""The two prefix lengths: 8 times longer must cost about 8 times as much (a quadratic pattern: 64). Both are longer
than the readers' bounded repeats (``{0,200}`` to ``{0,400}``): below its bound such a repeat still costs like a
quadratic pattern, and at 250 and 2,000 characters (2026-11-29 to 12-02) ``_WHY_BEFORE``'s ``[^.!?\\n]{0,200}$``
grew 37 times on "why why ..." (best of seven readings), over the bound of 24, and passed only on timing noise;
``{0,300}`` grew 77 times at 125 and 2,000. A quadratic pattern spends milliseconds on the long one, far above the
screening threshold; the sweep costs about twice the CPU it did at 250 and 2,000, for a verdict load cannot tip."""
GROWTH_BOUND = 24.0
"""Between linear growth (8) and quadratic (64; less as measured, as a reading also has fixed costs), a factor of 3
and 2 to 2.7 from them: timing noise on a shared CI machine."""
SCREEN_SECONDS = 0.0005
"""A pattern that reads the long prefix faster than this cannot be quadratic at these sizes (half a millisecond: 2 ms
at 8,000 characters, quartered at each halving of the lengths, as a quadratic pattern's cost is, so the screen keeps
its sensitivity)."""
FLOOR_SECONDS = 0.0005
"""Added to the allowed time of the long prefix: below it, timing is noise (scaled with the screen)."""
SHORT_AT_MOST = 0.02
"""A pattern slower than this on the short prefix is reported without timing the long one (a cubic
pattern would take minutes there); linear ones take well under a millisecond."""

_RUN_CHARS = "aAfFgZ09 \t\n.-_/:=@\"'\\$#>(){}[],;+*%`~|!?é€\x00"
_HEX = "0123456789abcdef"
_WORDS = ["why ", "only ", "not ", "doesn't ", "the gpu ", "before ", "uses ", "gpu is "]
"""Words the prose readers look for around a statement: a reader that lets a lazy run start at every
"why" and scan to the end of the sentence from each is quadratic on "why why why ..." only."""
_PAIRS = ["a1", "a ", "a.", "1.", "a-", "1:", "a/", "a=", "ab", "1 ", "a\n", " \n", "a\t", "x-", "-1", "a_", "0x"]


def _repeat(unit: str) -> Callable[[int], str]:
    return lambda n: (unit * (n // len(unit) + 1))[:n]


SHAPES: Dict[str, Callable[[int], str]] = {
    **{f"run of {c!r}": _repeat(c) for c in _RUN_CHARS},
    "hex run": _repeat(_HEX),
    "upper-case hex run": _repeat(_HEX.upper()),
    "0x and hex words": _repeat("0xdeadbeef"),
    "kernel-release-like run": _repeat("1.1.1-"),  # a release's tail that may start at every "-" (a read-through, 2026-11-29)
    **{f"{pair!r} alternating": _repeat(pair) for pair in _PAIRS},
    **{f"run of the word {word!r}": _repeat(word) for word in _WORDS},
    "word then a run of spaces": lambda n: ("kernel" + " " * n)[:n],  # optional space runs around a ":" after an anchor word (read57)
}
"""Adversarial texts by name: each makes a text of the length it is given."""


MATCHED_AT_A_POSITION = (
    signatures._SOLVED_AFTER, mentions._SENTENCE_ASKS, mentions._RESOLUTION_NOT_RUN_AFTER, mentions._TORCH_OBJECT,
    # 2026-12-03 (speed63): the look-aheads after a match whose sweep by ``finditer`` cost most (about 25 of the sweep's
    # 82 CPU-s; release_archives._QUESTION_AFTER alone 8), each only ever called with ``.match`` at a position
    # (test_the_patterns_read_at_a_position_are_only_ever_matched_at_one keeps it so)
    release_archives._QUESTION_AFTER, release_archives._LEFT_AFTER, mentions._MOVE_UNDONE_OR_ELSEWHERE_AFTER,
    mentions._ADRENALIN_NOT_NOW_AFTER, mentions._ROLLBACK_ENDED_AFTER, mentions._ROLLBACK_NOT_MINE_AFTER,
    mentions._KERNEL_WORD_NOT_NOW_AFTER, mentions._GPU_ADVICE_KEY_AFTER, mentions._PIP_REFUSED_AFTER,
    signatures._GONE_AFTER, signatures._LIST_GAP, env_settings._PAST_AFTER, resolutions._EDIT_NOTE,
)
"""Precompiled patterns the readers only ever call ``.match(text, position)`` on (a bounded look at the rest of a
sentence after a message or a mention): read at one position, not searched through a text. The inventory sees
which patterns ``re.match`` compiles, not which methods a precompiled pattern is called with, so these are named
here; timed with ``finditer`` they took a fifth of this test's time measuring a use the code never makes."""


def _key(pattern: "re.Pattern[str]") -> Tuple[str, int]:
    return pattern.pattern, pattern.flags & ~re.UNICODE


REPRESENTATIVE_OWN = r"\bthe\s{1,4}gpu\b"
REPRESENTATIVE_GUARD = r"\bexample\b"
"""The row pattern and ``unless_line`` guard the statement wrapper is timed with."""


def _statement_wrappers() -> Tuple[set, List[Tuple[str, int, str, bool]]]:
    """The statement signatures' wrapped patterns (dropped from the sweep) and the wrapper itself (timed once).

    :func:`signatures.statement_pattern` tries the row's own pattern once at each position of each sentence, and
    its ``unless_line`` guard once, searched from the line's start: beyond its own scope words it costs what the
    own pattern and the guard cost searched through the text, and every own pattern (``Signature.plain``) and
    guard is in the inventory and swept on its own (pinned below). So the wrapper is timed with a representative
    own pattern, with and without a guard, instead of once per row (38 rows of about half a second of CPU each)."""
    rows = [s for s in signatures.signatures() if s.plain is not None]
    wrapped = {(s.pattern.pattern, s.pattern.flags & ~re.UNICODE) for s in rows}  # compiled only where a row's own words are
    timed = [(signatures.statement_pattern(REPRESENTATIVE_OWN, guard), re.IGNORECASE, "statement wrapper", False)
             for guard in (None, REPRESENTATIVE_GUARD)]
    return wrapped, timed


def _guard_of(signature) -> object:
    from rocm_doctor.data import load_table

    rows = {str(r["id"]): r for r in signatures.expanded_rows(load_table(signatures.TABLE))}
    guard = rows[signature.id].get("unless_line")
    return str(guard) if guard else None


@pytest.fixture(scope="module")
def patterns() -> List[Tuple[str, int, str, bool]]:
    out = subprocess.run([sys.executable, str(_INVENTORY)], capture_output=True, text=True, timeout=120, check=True)
    found = [tuple(row) for row in json.loads(out.stdout)]
    assert len(found) > 100, "the inventory lost the readers' patterns"
    at_a_position = {_key(p) for p in MATCHED_AT_A_POSITION}
    wrapped, wrappers = _statement_wrappers()
    kept = [(source, flags, where, anchored or (source, flags) in at_a_position)
            for source, flags, where, anchored in found if (source, flags & ~re.UNICODE) not in wrapped]
    return kept + wrappers  # type: ignore[operator]


def test_every_statement_rows_own_pattern_and_guard_is_swept_on_its_own(patterns) -> None:
    listed = {(source, flags & ~re.UNICODE) for source, flags, _, _ in patterns}
    for row in (s for s in signatures.signatures() if s.plain is not None):
        assert _key(row.plain) in listed, row.id
        guard = _guard_of(row)
        if guard is not None:
            assert (guard, re.IGNORECASE) in listed, row.id


def test_the_patterns_read_at_a_position_are_in_the_inventory(patterns) -> None:
    listed = {(source, flags) for source, flags, _, _ in patterns}
    assert {_key(p) for p in MATCHED_AT_A_POSITION} <= listed


_PACKAGE = Path(__file__).resolve().parents[2] / "rocm_doctor"
_SEARCHING_CALL = re.compile(r"\.(?:search|finditer|findall|sub|subn|fullmatch|split)\(")


def test_the_patterns_read_at_a_position_are_only_ever_matched_at_one() -> None:
    # A pattern in MATCHED_AT_A_POSITION is swept with ``match`` only; one the readers searched through a text would
    # need the ``finditer`` sweep again. In the module that makes it, no use of its name calls a searching method on
    # it, and no other module imports it or reads it from that module.
    sources = {path: path.read_text(encoding="utf-8") for path in _PACKAGE.rglob("*.py")}
    for pattern in MATCHED_AT_A_POSITION:
        module = next(m for m in (signatures, mentions, release_archives, env_settings, resolutions)
                      if any(value is pattern for value in vars(m).values()))
        name = next(n for n, value in vars(module).items() if value is pattern)
        home = sources[Path(module.__file__).resolve()]
        assert re.search(rf"^{name} = ", home, re.MULTILINE), name
        searched = [m.group(0) for m in re.finditer(rf"(?<![\w]){name}\b\s*\.\w+\(", home) if _SEARCHING_CALL.search(m.group(0))]
        assert not searched, (name, searched)
        elsewhere = [path.name for path, text in sources.items()
                     if path != Path(module.__file__).resolve() and re.search(rf"\b{module.__name__.rsplit('.', 1)[1]}\.{name}\b|import[^\n]*\b{name}\b", text)]
        assert not elsewhere, (name, elsewhere)


class _TooSlow(Exception):
    pass


@contextmanager
def _at_most(seconds: float) -> Iterator[None]:
    """Stop a match that runs longer than ``seconds`` (the regex engine checks for signals)."""

    def stop(*_: object) -> None:
        raise _TooSlow()

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


MATCH_AT_MOST = 1.0
"""One match that takes longer than this is stopped and counts as superlinear (a cubic pattern on the
long prefix would take minutes)."""


def _seconds(pattern: "re.Pattern[str]", text: str, anchored: bool) -> float:
    """CPU seconds of one reading: wall time on a shared machine counts the other processes too. The alarm is set
    outside the timed part (its system calls are a fixed cost that would flatten the ratio of the two lengths)."""
    try:
        with _at_most(MATCH_AT_MOST):
            started = time.process_time()
            if anchored:
                pattern.match(text)
            else:
                for _ in pattern.finditer(text):
                    pass
            elapsed = time.process_time() - started
    except _TooSlow:
        return float("inf")
    return elapsed


def _best(pattern: "re.Pattern[str]", text: str, anchored: bool) -> float:
    return min(_seconds(pattern, text, anchored) for _ in range(3))


def _superlinear(pattern: "re.Pattern[str]", short: str, long: str, anchored: bool) -> str:
    """Why the pattern grows faster than the text ("" when it does not), measured the way noise cannot fake:
    a slow reading counts only when it is slow every time of three (a shared CI machine has pauses), and the short
    prefix, whose time sets the bound, is always the best of three readings (one slow reading of it once let a
    quadratic pattern through)."""
    first_long = _seconds(pattern, long, anchored)
    if first_long < SCREEN_SECONDS:
        return ""  # faster than any quadratic pattern at this length: noise only ever adds time
    why = ""
    for attempt in range(3):
        t_short = _best(pattern, short, anchored)
        if t_short > SHORT_AT_MOST:
            why = f"{t_short * 1e3:.1f} ms at {len(short):,} chars"
            continue
        t_long = _best(pattern, long, anchored) if attempt else first_long
        if t_long <= GROWTH_BOUND * t_short + FLOOR_SECONDS:
            return ""  # the long reading is an upper bound of its time: within the bound is proof enough
        why = f"{t_short * 1e3:.1f} ms at {len(short):,} chars, {t_long * 1e3:.1f} ms at {len(long):,}"
    return why


SHARDS = 12
"""The patterns are timed in this many parts, so that parallel test workers share the longest test of the suite."""


@pytest.mark.parametrize("shard", range(SHARDS))
def test_every_reader_and_engine_pattern_reads_adversarial_text_in_linear_time(patterns, shard: int) -> None:
    texts = {name: (make(SHORT), make(LONG)) for name, make in SHAPES.items()}
    slow: List[str] = []
    for source, flags, where, anchored in patterns[shard::SHARDS]:
        pattern = re.compile(source, flags)
        for name, (short, long) in texts.items():
            why = _superlinear(pattern, short, long, anchored)
            if why:
                slow.append(f"{where} on a {name}: {why}: {source[:120]!r}")
    assert not slow, "superlinear patterns:\n" + "\n".join(slow)


QUADRATIC_SHAPES = (
    (r"[0-9a-f]*[0-9][0-9a-f]*", "a"),  # what ``without_repeats`` once used (26-45 s on 80,000 characters)
    (r"[a-z]*[0-9]", "a"),
    (r"(?:ab|a)+c", "a"),
)
LINEAR_SHAPES = ((r"[0-9a-f]+", "a"), (r"\w+\s+x", "ab "), (r"(?<![ \t])[ \t]+:", " "))  # starts only where its run does


def test_the_timing_tells_a_quadratic_pattern_from_a_linear_one() -> None:
    # On texts of the very lengths the sweep reads: quadratic shapes grow more than 40 times (the bound is 24), linear
    # ones about 8. Each verdict is already three attempts of best-of-three readings (a quadratic pattern is slow in
    # all three); a second round of the whole check was 4-5 CPU-s a round for no more certainty.
    for source, unit in QUADRATIC_SHAPES:
        assert _superlinear(re.compile(source), unit * SHORT, unit * LONG, anchored=False), source
    for source, unit in LINEAR_SHAPES:
        assert not _superlinear(re.compile(source), unit * SHORT, unit * LONG, anchored=False), source


def _blanking_seconds(length: int) -> float:
    from rocm_doctor.ingest.blocks import split_blocks, without_repeats

    blocks = split_blocks("a" * length + "\n" + "F" * (length // 2) + "\n")
    best = float("inf")
    for _ in range(3):
        try:
            with _at_most(MATCH_AT_MOST * 5):
                started = time.process_time()
                without_repeats(blocks)
                best = min(best, time.process_time() - started)
        except _TooSlow:
            pass
    return best


def test_hex_runs_without_digits_are_blanked_in_linear_time() -> None:
    # A ratio, not a time limit (the seconds are benchmarks/ingest_scaling.py's "hexrun" shape): 8 times the text
    # may cost at most 24 times the time, as in the sweep; the quadratic blanking took 26-45 s on 80,000 characters
    # and is stopped after 5 s.
    short, long = _blanking_seconds(50_000), _blanking_seconds(400_000)
    assert long < float("inf") and long <= GROWTH_BOUND * short + FLOOR_SECONDS, (short, long)
