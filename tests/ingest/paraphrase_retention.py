"""Does the diagnosis survive the author's prose said in other words? Retention per class.

``tests/ingest/paraphrases/<case-id>.txt`` holds one reworded report per development case the doctor got right
when it was written (session 63): the author's own sentences said as another user would say them (other verbs,
word order, contractions, a fact told in prose another way: "my card is an 8GB RX570" for "I have rx 570 8gb"),
with machine output, logs, commands, tracebacks and template fields kept verbatim. Each file starts with a
``# paraphrase-of: PATH`` and ``# class: CLASS`` header ended by ``# ---``; the text after it is the paste.

A paraphrase keeps the diagnosis when an error or warning of the case's expected category is still found
(``found``) and when the first error or warning is still of that category (``first``), scored as
:mod:`corpus_scoring` scores the case itself. The metamorphic rewrites (:mod:`metamorphic`) change a report's
format and a few spellings mechanically; these change its wording, which only a person can do.

Wording dependencies found when the paraphrases were written (session 63) and left, each with fewer than three real
reports of the variant found (a reader generalised from one paraphrase would be fitted to it):
- ``ld_library_path_rocm_over_bundled_told`` wants "override(s|n)"; "LD_LIBRARY_PATH takes precedence over RUNPATH" is
  common in build scripts' comments but no ROCm report with it was found (builder-1468).
- ``non_rocm_torch_install_told`` wants an install verb; "the torch that uv puts on top of the image" is not read
  (dtu-mlops-499).
- ``render_gid_mismatch_told`` wants "no/without/missing supplementary group"; "doesn't add a supplementary group for
  the node's render GID" is not read (llmkube-1560; the wording is that project's alone).
- ``kfd_absent_in_sandbox_told`` wants "doesn't have access to"/"missing"/"is not present"; "can't get at /dev/kfd" is
  not read (davincibox-193).
- ``gpu_node_owned_by_render_told`` reads "/dev/kfd"; the reporter's "/dev/kdf" typo is read only through "file"
  after it (rocminfo-34; two real reports type "/dev/kdf": ROCm/rocminfo#34, ROCm/ROCm#741).
- the working-setup reader (``_WORKING_SETUP_BEFORE``/``_AFTER`` in ingest/formats/mentions.py) wants "fine with
  <release>" or "<release> works."; "with pytorch 2.2.0 on rocm 5.7 it works though" makes 5.7 the release in use
  (a1111-15434, which also loses its "please support" request when said as "should work with").
- a resolution and its change must share a sentence: "... the 6.5 kernel ... . After booting 22.04.2 everything
  worked again." loses the kernel change (pytorch-gfx803-8).

Run as a script for the table: ``python tests/ingest/paraphrase_retention.py [-v]`` (``-v`` lists each
paraphrase with the findings of the original and of the paraphrase).
"""

from __future__ import annotations

import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Set, Tuple

ROOT = Path(__file__).resolve().parents[2]
PARAPHRASES = Path(__file__).resolve().parent / "paraphrases"
HEADER_END = "# ---"


@dataclass(frozen=True)
class Paraphrase:
    case_id: str
    source: str
    klass: str
    text: str


@dataclass(frozen=True)
class Retained:
    case_id: str
    klass: str
    found: bool
    first: bool
    original_first: bool
    shown: Tuple[Tuple[str, str, str], ...]
    original_shown: Tuple[Tuple[str, str, str], ...]


def load_paraphrases(folder: Path = PARAPHRASES) -> List[Paraphrase]:
    found = []
    for path in sorted(folder.glob("*.txt")):
        raw = path.read_text(encoding="utf-8")
        header, sep, text = raw.partition(HEADER_END + "\n")
        if not sep:
            raise ValueError(f"{path.name}: no '{HEADER_END}' line ends the header")
        fields = {}
        for line in header.splitlines():
            key, colon, value = line.lstrip("# ").partition(":")
            if colon and key in ("paraphrase-of", "class"):
                fields[key] = value.strip()
        found.append(Paraphrase(path.stem, fields["paraphrase-of"], fields["class"], text))
    return found


def _original_case(paraphrase: Paraphrase) -> dict:
    import yaml

    from corpus_scoring import SHARED_CORPUS, OWN_CORPUS

    name = Path(paraphrase.source).name
    folder = SHARED_CORPUS if paraphrase.source.startswith("../shared/") else OWN_CORPUS
    return yaml.safe_load((folder / name).read_text(encoding="utf-8"))


def retain(paraphrase: Paraphrase, rules: list) -> Retained:
    from corpus_scoring import judge

    original = _original_case(paraphrase)
    assert original["id"] == paraphrase.case_id and original["root_cause_class"] == paraphrase.klass, paraphrase.case_id
    before = judge(original, rules)
    after = judge(dict(original, report=paraphrase.text), rules)
    return Retained(paraphrase.case_id, paraphrase.klass, after.hit, after.top1, before.top1, after.shown, before.shown)


def measure(rules: Optional[list] = None) -> List[Retained]:
    if rules is None:
        from rocm_doctor.judge.loader import load_rules

        rules = load_rules([], use_env=False)
    return [retain(p, rules) for p in load_paraphrases()]


def shares(results: Sequence[Retained]) -> Tuple[float, float]:
    """Share of paraphrases whose expected category is still found; share whose first finding is still of it,
    among those whose original's first finding was."""
    found = sum(r.found for r in results) / len(results) if results else 1.0
    was_first = [r for r in results if r.original_first]
    first = sum(r.first for r in was_first) / len(was_first) if was_first else 1.0
    return found, first


def table(results: Sequence[Retained]) -> str:
    groups: Dict[str, List[Retained]] = defaultdict(list)
    for r in results:
        groups[r.klass].append(r)
    lines = [f"{'class':<32} {'found':>9} {'first':>9}", "-" * 52]
    for klass in sorted(groups) + ["ALL"]:
        members = list(results) if klass == "ALL" else groups[klass]
        was_first = [r for r in members if r.original_first]
        lines.append(
            f"{klass:<32} {sum(r.found for r in members):>4}/{len(members):<4}"
            f" {sum(r.first for r in was_first):>4}/{len(was_first):<4}"
        )
    lines.append("found: the expected category still among the errors and warnings; first: still the first of them,")
    lines.append("counted over the paraphrases whose original had it first")
    return "\n".join(lines)


def main(argv: List[str]) -> int:
    results = measure()
    if "-v" in argv:
        for r in results:
            mark = "kept" if r.found and (r.first or not r.original_first) else ("LATE" if r.found else "LOST")
            print(f"{mark} {r.case_id[:62]:<62} {r.klass[:24]:<24} {[x[0] for x in r.original_shown][:4]} -> {[x[0] for x in r.shown][:4]}")
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.exit(main(sys.argv[1:]))
