"""Survey, on demand (not a test): the GPU, processor and platform name spellings in the corpora that the readers do
not recognise, counted per spelling, to find the next variants worth reading (issue 23, item 1).

    python tests/ingest/name_variant_survey.py [--min N] [--kind gpu|cpu|os]

Reads the reports of ``../shared/corpus`` (without the held-back cases named in tests/corpus/shared_heldback.txt) and
of ``tests/corpus`` (without ``holdout/``, which nobody reads while writing a reader). Every token shaped like a GPU
model ("780m", "RX7900XTX", "mi300x"), a processor ("AI Max+ 395", "HX 370") or a platform ("ubuntu22.04",
"OpenSuse", "win11", "系统") is put, alone, in a sentence that says what it is ("My GPU is a ...", "I am on ...") and
read with the doctor's own reader; the spellings that give nothing are listed with how many reports use them. A
spelling listed here is a candidate only: it becomes a reader's only with three independent real reports.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Set, Tuple

import yaml

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rocm_doctor.ingest import ingest_text  # noqa: E402

SHARED = ROOT.parent / "shared" / "corpus"
TESTS = ROOT / "tests" / "corpus"
HELD_BACK = TESTS / "shared_heldback.txt"

# Candidate shapes, deliberately wider than the readers: each is bounded (no nested repetition), so linear.
CANDIDATES: Dict[str, "re.Pattern[str]"] = {
    "gpu": re.compile(
        # a model number with a maker's word or a series letter before it, or a suffix after it (a bare number is
        # as often a year, a size or a count)
        r"(?<![\w./-])(?:(?:(?:AMD|Radeon|Instinct|PRO)[ ]?){1,3}(?:RX[ ]?|MI[ ]?|W|V)?\d{3,4}(?:[ ]?(?:XTX|XT|GRE|M|S|X|A))?"
        r"|(?:RX[ ]?|MI[ ]?|W|V)\d{3,4}(?:[ ]?(?:XTX|XT|GRE|M|S|X|A))?|\d{3,4}[ ]?(?:XTX|XT|GRE|M|S))(?![\w/-])",
        re.IGNORECASE,
    ),
    "cpu": re.compile(
        r"(?<![\w./-])(?:(?:AMD|Ryzen)[ ]+){0,2}(?:AI[ -]?MAX[ ]?\+?[ -]?(?:PRO[ ]+)?\d{3}\+?|(?:AI[ ]+\d[ ]+)?HX[ ]?\d{3}|R[3579][ ]\d{4}\w{0,3}|\d{4}(?:HS|HX|H|U|G|GE|X3D|X))(?![\w/-])",
        re.IGNORECASE,
    ),
    "os": re.compile(
        r"(?<![\w./:@-])(?:ubuntu|kubuntu|debian|fedora|arch(?:[ ]linux)?|manjaro|linux[ ]mint|mint|opensuse(?:[ ](?:leap|tumbleweed))?|suse|sles|rhel|"
        r"centos|rocky|almalinux|nixos|endeavouros|cachyos|gentoo|nobara|bazzite|pop!?_?os|windows|win)[ -]?\d{0,2}(?:\.\d{1,5}){0,2}(?![\w/:-])"
        r"|系统|专业版|家庭版|操作系统",
        re.IGNORECASE,
    ),
}
SENTENCES = {"gpu": "My GPU is a {}.\n", "cpu": "My CPU is a {}.\n", "os": "I am on {} with ROCm.\n"}


def _held_back() -> Set[str]:
    if not HELD_BACK.exists():
        return set()
    return {line.strip() for line in HELD_BACK.read_text(encoding="utf-8").splitlines() if line.strip() and not line.startswith("#")}


def reports() -> Iterator[Tuple[str, str]]:
    """(case id, report text) of every case the survey may read."""
    held = _held_back()
    for folder in (SHARED, TESTS):
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.yaml")):  # top level only: tests/corpus/holdout/ is never read
            if folder == SHARED and path.stem in held:
                continue
            try:
                case = yaml.safe_load(path.read_text(encoding="utf-8"))
            except (yaml.YAMLError, OSError):
                continue
            if isinstance(case, dict) and isinstance(case.get("report"), str):
                yield path.stem, case["report"]


def _recognised(kind: str) -> Callable[[str], bool]:
    def read(token: str) -> bool:
        facts = ingest_text(SENTENCES[kind].format(token), origin_detail="survey").facts
        if kind == "gpu":
            return any(a.gfx.is_known or a.name.is_known for a in facts.gpus.agents)
        if kind == "cpu":
            return facts.cpu.model.is_known
        if token in ("系统", "专业版", "家庭版", "操作系统"):
            return False  # a word that says "system": only its neighbours can say which
        return facts.host.os.is_known

    return read


def survey(kinds: List[str]) -> Dict[str, Counter]:
    """Per kind, how many reports use each spelling no reader recognises."""
    unread: Dict[str, Counter] = {kind: Counter() for kind in kinds}
    cache: Dict[Tuple[str, str], bool] = {}
    readers = {kind: _recognised(kind) for kind in kinds}
    for _, text in reports():
        seen: Dict[str, Set[str]] = defaultdict(set)
        for kind in kinds:
            for match in CANDIDATES[kind].finditer(text):
                token = " ".join(match.group(0).split())
                if not token or token in seen[kind]:
                    continue
                seen[kind].add(token)
                key = (kind, token)
                if key not in cache:
                    cache[key] = readers[kind](token)
                if not cache[key]:
                    unread[kind][token] += 1
    return unread


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--min", type=int, default=1, help="list spellings used by at least this many reports")
    parser.add_argument("--kind", choices=sorted(CANDIDATES), action="append", help="gpu, cpu or os (default: all)")
    args = parser.parse_args(argv)
    kinds = args.kind or sorted(CANDIDATES)
    for kind, counts in survey(kinds).items():
        rows = [(n, token) for token, n in counts.items() if n >= args.min]
        print(f"== {kind}: {len(rows)} unrecognised spellings (reports using each)")
        for n, token in sorted(rows, key=lambda row: (-row[0], row[1].lower())):
            print(f"{n:5d}  {token}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
