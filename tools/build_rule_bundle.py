#!/usr/bin/env python3
"""Build and sign a rule-database bundle for ``rocm-doctor rules update``.

    python tools/build_rule_bundle.py --key ~/.config/rocm-doctor-release/release-key.ed25519 --out dist/rules

writes ``rules-<release>.tar.gz`` and ``rules-index.json`` into ``--out``; publish both with the
release (the index is what ``rules update`` reads first). The key file holds the base64 raw
Ed25519 private key on one line; it is never part of the repository. The release is
``rules/RELEASE`` unless given. The database is checked the way ``rules update`` checks it
before anything is written.
"""

from __future__ import annotations

import argparse
import datetime
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rocm_doctor import __version__  # noqa: E402
from rocm_doctor.cli.ruledb_check import main as check_database  # noqa: E402
from rocm_doctor.dbupdate.bundle import index_for, manifest_for, pack
from rocm_doctor.dbstore import read_release  # noqa: E402
from rocm_doctor.dbupdate.signing import TRUSTED_KEYS, public_key_of, sign  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", type=Path, default=Path(__file__).resolve().parent.parent / "rules")
    parser.add_argument("--key", type=Path, required=True, help="file with the base64 raw Ed25519 private key")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--release", help="default: the RELEASE file in --rules")
    parser.add_argument("--released", default=datetime.date.today().isoformat())
    parser.add_argument("--min-rocm-doctor", default=__version__)
    args = parser.parse_args()

    release = args.release or read_release(args.rules)
    if not release:
        parser.error(f"no --release and no RELEASE file in {args.rules}")
    with tempfile.TemporaryDirectory() as scratch:
        rules = Path(scratch) / "rules"
        shutil.copytree(args.rules, rules, ignore=shutil.ignore_patterns("__pycache__"))
        (rules / "RELEASE").write_text(release + "\n", encoding="utf-8")
        return _build(args, rules, release)


def _build(args: argparse.Namespace, rules: Path, release: str) -> int:
    if check_database([str(rules)]) != 0:
        return 2
    private = args.key.read_text(encoding="utf-8").strip()
    if public_key_of(private) not in TRUSTED_KEYS:
        print("warning: this key is not one rocm-doctor trusts; its bundles will be refused", file=sys.stderr)
    manifest = manifest_for(rules, release, args.released, args.min_rocm_doctor)
    bundle = pack(rules, manifest, sign(manifest, private))
    args.out.mkdir(parents=True, exist_ok=True)
    name = f"rules-{release}.tar.gz"
    (args.out / name).write_bytes(bundle)
    (args.out / "rules-index.json").write_bytes(index_for(name, bundle, release))
    print(f"{args.out / name} ({len(bundle):,} bytes) and {args.out / 'rules-index.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
