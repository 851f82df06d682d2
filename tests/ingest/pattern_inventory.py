"""Every regular expression the paste readers (``rocm_doctor/ingest``) and the rule engine
(``rocm_doctor/judge``) compile, found by watching ``re`` while they import and read the seed pastes.

Run as a script in a fresh interpreter (the modules must not be imported yet, or their module-level
patterns were compiled before the watch began); it prints a JSON list of ``[pattern, flags, where, anchored]``, where ``anchored`` says the pattern
was only ever used through ``re.match`` / ``re.fullmatch`` (so only the start of a text is tried).
Patterns built at run time (the field-label table, the signature table) are caught because the seed
pastes make the readers build them. Patterns compiled when first used (:mod:`rocm_doctor.lazy_regex`) are listed
whether or not a seed paste used them: every one the modules hold at module level, and every pattern of the
signature table's rows.
"""

from __future__ import annotations

import json
import pkgutil
import re
import sys
from importlib import import_module
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the checkout under test, not an installed copy

_WATCHED = tuple(str(Path(__file__).resolve().parents[2] / "rocm_doctor" / part) for part in ("ingest", "judge"))
_SEEDS = Path(__file__).resolve().parent / "seed_pastes"
_LAZY = str(Path(__file__).resolve().parents[2] / "rocm_doctor" / "lazy_regex.py")


def _watch() -> dict:
    seen: dict = {}
    compile_ = re._compile  # type: ignore[attr-defined]

    def recording(pattern, flags):  # type: ignore[no-untyped-def]
        if isinstance(pattern, str):
            frame = sys._getframe(1)
            while frame is not None and frame.f_code.co_filename in (re.__file__, _LAZY):
                frame = frame.f_back
            where = frame.f_code.co_filename if frame is not None else ""
            if where.startswith(_WATCHED):
                # re.match(p, text) and re.fullmatch(p, text) only ever try the start of the text
                anchored = sys._getframe(1).f_code.co_name in ("match", "fullmatch")
                key = (pattern, int(flags))
                entry = seen.setdefault(key, [f"{Path(where).name}:{frame.f_lineno}", True])
                entry[1] = entry[1] and anchored
        return compile_(pattern, flags)

    re._compile = recording  # type: ignore[attr-defined]
    return seen


def main() -> None:
    seen = _watch()
    import rocm_doctor.ingest as ingest
    import rocm_doctor.judge as judge

    from rocm_doctor.data import load_table
    from rocm_doctor.ingest.signatures import TABLE, expanded_rows, signatures
    from rocm_doctor.lazy_regex import WhenUsed

    modules = [import_module(info.name) for package in (ingest, judge) for info in pkgutil.walk_packages(package.__path__, package.__name__ + ".")]
    for seed in sorted(_SEEDS.glob("*.txt")):
        ingest.ingest_text(seed.read_text(encoding="utf-8"))

    def inside(value, depth=0):  # type: ignore[no-untyped-def]
        """A pattern, or the patterns in a list, tuple or dict of them (or of (pattern, ...) rows)."""
        if isinstance(value, (list, tuple)) and depth < 2:
            return [item for each in value for item in inside(each, depth + 1)]
        if isinstance(value, dict) and depth < 2:
            return [item for each in value.values() for item in inside(each, depth + 1)]
        return [value]

    held = [(f"{Path(module.__file__ or '').name}:{name}", item) for module in modules for name, value in vars(module).items()
            for item in inside(value)]
    rows = [(f"signatures.yaml:{row.id}", field) for row in signatures() for field in (row.pattern, row.plain, row.then, row.context, row.unless)]
    for where, item in held + rows:
        if isinstance(item, WhenUsed):
            seen.setdefault((item.pattern, int(item.flags)), [where, False])
    # a statement row's unless_line lives only inside its sentence wrapper: the table's own text
    for row in expanded_rows(load_table(TABLE)):
        if row.get("unless_line"):
            seen.setdefault((str(row["unless_line"]), int(re.IGNORECASE)), [f"signatures.yaml:{row['id']}", False])
    json.dump([[pattern, flags, where, anchored] for (pattern, flags), (where, anchored) in seen.items()], sys.stdout)


if __name__ == "__main__":
    main()
