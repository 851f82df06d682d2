"""``python -m rocm_doctor.cli.ruledb_check FOLDER``: does the rule database in FOLDER load?

``rules update`` runs this in a child process on a staged database before switching to it, so
that the check's caches (tables, views, compiled rules) die with the child. Every rule file is
validated, every data table is parsed with its check header, each table's typed view is built,
and the rules are evaluated once on a machine where nothing is known. Exit 0 and ``ok``, or exit
2 and the first problem on one line.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable, List, Sequence

from rocm_doctor.errors import DoctorError


def _views() -> List[Callable[[], object]]:
    """Builders of every data table's typed view (each reads its table from the pinned database)."""
    from rocm_doctor.knowledge import gpu_table
    from rocm_doctor.ingest import signatures
    from rocm_doctor.ingest.formats import fields, packages
    from rocm_doctor.knowledge import cpus, env_reads, env_vars, hipblaslt, overrides, rocm_os, rocm_support, torch_wheels

    return [
        cpus.table, hipblaslt.table, overrides.table, rocm_support.support, torch_wheels.wheels,
        env_vars.default_table, env_reads.env_reads, lambda: rocm_os.listed_os("6.2"),
        gpu_table.codename_regex, lambda: gpu_table.lookup_pci("0x744c"), signatures.signatures,
        fields.labels, packages.table,
    ]


def check(folder: Path) -> None:
    """Raise DoctorError (or anything else) when the database in ``folder`` does not load."""
    from rocm_doctor.data import load_table
    from rocm_doctor.facts.model import Facts
    from rocm_doctor.pipeline import evaluate
    from rocm_doctor.judge.loader import load_rules
    from rocm_doctor.ruledb import table_checks
    from rocm_doctor.dbstore import pin

    pin(folder)
    rules = load_rules(use_env=False)
    for check_header in table_checks(folder):
        load_table(check_header.name)
    for build in _views():
        build()
    result = evaluate(rules, Facts())
    if result.crashes:
        crash = result.crashes[0]
        raise DoctorError(f"evaluating the rules crashed in {getattr(crash, 'name', crash)}")


def main(argv: Sequence[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m rocm_doctor.cli.ruledb_check FOLDER", file=sys.stderr)
        return 2
    try:
        check(Path(argv[0]))
    except DoctorError as exc:
        print(str(exc).splitlines()[0] if str(exc) else type(exc).__name__, file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - any failure of a staged database is a refusal, named
        print(f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}", file=sys.stderr)
        return 2
    print("ok")
    return 0


if __name__ == "__main__":  # pragma: no cover - run as a child by `rules update`
    sys.exit(main(sys.argv[1:]))
