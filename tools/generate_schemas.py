"""Write the JSON Schema of every rocm-doctor document kind from its pydantic model.

One file per kind in ``rocm_doctor/schemas/`` (``<kind>-<version>.schema.json``), from the models
registered in :data:`rocm_doctor.documents.DOCUMENTS`; files of kinds no longer registered are
removed. ``--check`` writes nothing and exits 1 when a file differs from what the models give
(the test suite runs the same comparison).

Usage::

    python tools/generate_schemas.py          # write
    python tools/generate_schemas.py --check  # compare
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Dict

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rocm_doctor.documents import DOCUMENTS, json_schema, model_of, schema_id  # noqa: E402

SCHEMAS = ROOT / "rocm_doctor" / "schemas"


def file_name(kind: str) -> str:
    """``check-1.schema.json`` for ``rocm-doctor/check/1``."""
    _tool, named, version = schema_id(model_of(kind)).split("/")
    if named != kind:
        raise SystemExit(f"DOCUMENTS[{kind!r}] is a model of {named!r} documents")
    return f"{kind}-{version}.schema.json"


def expected() -> Dict[str, str]:
    """File name -> text, for every registered kind."""
    return {file_name(kind): json.dumps(json_schema(kind), indent=2, ensure_ascii=False) + "\n" for kind in DOCUMENTS}


def main(argv: list) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare only; exit 1 when a file differs")
    args = parser.parse_args(argv)
    wanted = expected()
    present = {p.name: p.read_text(encoding="utf-8") for p in SCHEMAS.glob("*.schema.json")} if SCHEMAS.is_dir() else {}
    stale = sorted(name for name in wanted if present.get(name) != wanted[name])
    extra = sorted(set(present) - set(wanted))
    if args.check:
        for name in stale:
            print(f"{SCHEMAS / name}: differs from the model (run python tools/generate_schemas.py)")
        for name in extra:
            print(f"{SCHEMAS / name}: no document kind registers it")
        return 1 if stale or extra else 0
    SCHEMAS.mkdir(exist_ok=True)
    for name in stale:
        (SCHEMAS / name).write_text(wanted[name], encoding="utf-8")
        print(f"wrote {SCHEMAS / name}")
    for name in extra:
        (SCHEMAS / name).unlink()
        print(f"removed {SCHEMAS / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
