"""Test helpers: build small real wheels and serve them as a PEP 503 index on 127.0.0.1."""

from __future__ import annotations

import base64
import hashlib
import html
import threading
import zipfile
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Dict, Iterator, Optional

from packaging.utils import canonicalize_name


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def build_wheel(
    folder: Path,
    name: str,
    version: str,
    files: Dict[str, str],
    tag: str = "py3-none-any",
    requires: tuple = (),
) -> Path:
    """Write ``name-version-tag.whl`` with a proper dist-info (METADATA, WHEEL, RECORD)."""
    dist = f"{name.replace('-', '_')}-{version}"
    wheel_path = folder / f"{name.replace('-', '_')}-{version}-{tag}.whl"
    meta = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n" + "".join(
        f"Requires-Dist: {r}\n" for r in requires
    )
    wheel_meta = f"Wheel-Version: 1.0\nGenerator: rocm-doctor-tests\nRoot-Is-Purelib: true\nTag: {tag}\n"
    entries = dict(files)
    entries[f"{dist}.dist-info/METADATA"] = meta
    entries[f"{dist}.dist-info/WHEEL"] = wheel_meta
    record_lines = [_record_line(path, text.encode()) for path, text in entries.items()]
    record_lines.append(f"{dist}.dist-info/RECORD,,")
    entries[f"{dist}.dist-info/RECORD"] = "\n".join(record_lines) + "\n"
    with zipfile.ZipFile(wheel_path, "w") as archive:
        for path, text in entries.items():
            archive.writestr(path, text)
    return wheel_path


def fake_torch(folder: Path, version: str, hip: Optional[str], cuda: Optional[str] = None) -> Path:
    """A tiny importable ``torch`` whose ``torch/version.py`` says which build it is."""
    version_py = f"__version__ = {version!r}\nhip = {hip!r}\ncuda = {cuda!r}\ngit_version = 'test'\n"
    init = "from torch import version\n__version__ = version.__version__\n"
    return build_wheel(folder, "torch", version, {"torch/__init__.py": init, "torch/version.py": version_py})


def write_simple_index(root: Path, wheels_dir: Path) -> Path:
    """``root/simple/<project>/index.html`` (PEP 503) linking the wheels in ``wheels_dir``."""
    simple = root / "simple"
    projects: Dict[str, list] = {}
    for wheel in sorted(wheels_dir.glob("*.whl")):
        projects.setdefault(canonicalize_name(wheel.name.split("-")[0]), []).append(wheel)
    for project, files in projects.items():
        page = simple / project
        page.mkdir(parents=True, exist_ok=True)
        links = "".join(
            f'<a href="../../files/{html.escape(w.name)}">{html.escape(w.name)}</a><br/>\n' for w in files
        )
        (page / "index.html").write_text(f"<!DOCTYPE html><html><body>\n{links}</body></html>\n")
    files_dir = root / "files"
    files_dir.mkdir(exist_ok=True)
    for wheel in wheels_dir.glob("*.whl"):
        (files_dir / wheel.name).write_bytes(wheel.read_bytes())
    return simple


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib signature
        return


def serve(root: Path) -> Iterator[str]:
    """Serve ``root`` on 127.0.0.1 (random port) in a thread; yields the base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
