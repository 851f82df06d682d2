"""``rules update``: a signed rule database from a local server, and every refusal leaves things as they were."""

from __future__ import annotations

import base64
import datetime
import hashlib
import http.server
import io
import json
import shutil
import tarfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Optional, Tuple

import pytest

from rocm_doctor.data import rules_dir
from rocm_doctor import dbstore as store
from rocm_doctor.dbupdate import signing
from rocm_doctor.dbupdate.bundle import index_for, manifest_for, pack
from rocm_doctor.dbupdate.fetch import FetchError, check_url

cryptography = pytest.importorskip("cryptography")
from cryptography.hazmat.primitives import serialization  # noqa: E402
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey  # noqa: E402


def _new_key() -> Tuple[str, str]:
    key = Ed25519PrivateKey.generate()
    private = key.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption())
    public = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return base64.b64encode(private).decode(), base64.b64encode(public).decode()


TEST_KEY = _new_key()
"""(private, public) trusted in these tests in place of the release key."""
OTHER_KEY = _new_key()
"""A key nobody trusts."""


# -- a local server ------------------------------------------------------------------------------
@dataclass
class Served:
    body: bytes = b""
    status: int = 200
    headers: Dict[str, str] = field(default_factory=dict)
    stall: bool = False
    """Send the headers, then nothing until the test ends."""
    cut: Optional[int] = None
    """Send only this many bytes of the body, then close."""


class _Handler(http.server.BaseHTTPRequestHandler):
    routes: Dict[str, Served] = {}
    release: threading.Event = threading.Event()

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        served = self.routes.get(self.path)
        if served is None:
            self.send_error(404)
            return
        self.send_response(served.status)
        for name, value in served.headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(served.body)))
        self.end_headers()
        if served.stall:
            self.release.wait(30)
            return
        self.wfile.write(served.body if served.cut is None else served.body[: served.cut])
        self.wfile.flush()
        if served.cut is not None:
            self.close_connection = True

    def log_message(self, *args: object) -> None:
        pass


class LocalServer:
    def __init__(self) -> None:
        handler = type("Handler", (_Handler,), {"routes": {}, "release": threading.Event()})
        self.handler = handler
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def serve(self, path: str, served: Served) -> str:
        self.handler.routes[path] = served
        return self.base + path

    def close(self) -> None:
        self.handler.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server() -> Iterator[LocalServer]:
    running = LocalServer()
    yield running
    running.close()


@pytest.fixture
def data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv(store.DATA_DIR_VAR, str(folder))
    monkeypatch.setattr(signing, "TRUSTED_KEYS", (TEST_KEY[1],))
    store.forget()
    return folder


# -- bundles -------------------------------------------------------------------------------------
def database_copy(tmp_path: Path, release: str, change: Optional[Callable[[Path], None]] = None) -> Path:
    rules = tmp_path / f"src-{release}-{time.monotonic_ns()}" / "rules"
    shutil.copytree(store.shipped_dir(), rules, ignore=shutil.ignore_patterns("__pycache__"))
    (rules / "RELEASE").write_text(release + "\n", encoding="utf-8")
    if change is not None:
        change(rules)
    return rules


def make_bundle(
    rules: Path,
    release: str,
    key: str = TEST_KEY[0],
    min_version: str = "0.1",
    after_signing: Optional[Callable[[Path], None]] = None,
    signature: Optional[bytes] = None,
) -> bytes:
    manifest = manifest_for(rules, release, "2099-01-01", min_version)
    signature = signing.sign(manifest, key) if signature is None else signature
    if after_signing is not None:
        after_signing(rules)
    return pack(rules, manifest, signature)


def publish(server: LocalServer, bundle: bytes, release: str, name: str = "bundle.tar.gz", **index_fields: object) -> str:
    index = json.loads(index_for(name, bundle, release))
    index.update(index_fields)
    server.serve(f"/{name}", Served(bundle))
    return server.serve(f"/index-{name}.json", Served(json.dumps(index).encode()))


def tree(folder: Path) -> Dict[str, str]:
    """Every file under ``folder`` -> its SHA-256 (what "nothing changed" compares)."""
    if not folder.exists():
        return {}
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def database_json(run_cli) -> Dict[str, object]:  # type: ignore[no-untyped-def]
    done = run_cli("rules", "list", "--json")
    assert done.exit_code == 0, done.stderr
    return json.loads(done.stdout)["rule_database"]


# -- installing ----------------------------------------------------------------------------------
def test_a_newer_signed_database_is_installed_and_every_output_names_it(run_cli, server, data_folder, tmp_path) -> None:
    rules = database_copy(tmp_path, "2099.1.1")
    url = publish(server, make_bundle(rules, "2099.1.1"), "2099.1.1")

    done = run_cli("rules", "update", "--url", url)

    assert done.exit_code == 0, done.stderr
    assert "2099.1.1" in done.stdout
    assert rules_dir() != store.shipped_dir()
    assert tree(rules_dir()) == tree(rules)
    listed = database_json(run_cli)
    assert (listed["origin"], listed["release"]) == ("updated", "2099.1.1")
    text = run_cli("rules", "list").stdout
    assert "release 2099.1.1, updated" in text
    health = run_cli("health", "--json", "--facts", str(Path(__file__).parent / "empty-facts.json"))
    assert json.loads(health.stdout)["rule_database"]["origin"] == "updated", health.stderr


def test_a_second_update_against_the_same_server_changes_nothing(run_cli, server, data_folder, tmp_path) -> None:
    rules = database_copy(tmp_path, "2099.1.1")
    url = publish(server, make_bundle(rules, "2099.1.1"), "2099.1.1")
    assert run_cli("rules", "update", "--url", url).exit_code == 0
    before = tree(data_folder)

    again = run_cli("rules", "update", "--url", url)

    assert again.exit_code == 0, again.stderr
    assert "nothing changed" in again.stdout
    assert tree(data_folder) == before


def test_revert_restores_the_previous_database_byte_for_byte(run_cli, server, data_folder, tmp_path) -> None:
    first = database_copy(tmp_path, "2099.1.1")
    second = database_copy(tmp_path, "2099.2.1", lambda r: (r / "data" / "cpus.yaml").write_text(
        (r / "data" / "cpus.yaml").read_text(encoding="utf-8") + "\n# a change\n", encoding="utf-8"))
    assert run_cli("rules", "update", "--url", publish(server, make_bundle(first, "2099.1.1"), "2099.1.1", "a.tgz")).exit_code == 0
    assert run_cli("rules", "update", "--url", publish(server, make_bundle(second, "2099.2.1"), "2099.2.1", "b.tgz")).exit_code == 0
    assert tree(rules_dir()) == tree(second)

    assert run_cli("rules", "update", "--revert").exit_code == 0
    assert tree(rules_dir()) == tree(first)
    assert database_json(run_cli)["release"] == "2099.1.1"


def test_revert_after_the_first_update_goes_back_to_the_shipped_database(run_cli, server, data_folder, tmp_path) -> None:
    rules = database_copy(tmp_path, "2099.1.1")
    assert run_cli("rules", "update", "--url", publish(server, make_bundle(rules, "2099.1.1"), "2099.1.1")).exit_code == 0

    assert run_cli("rules", "update", "--revert").exit_code == 0

    assert rules_dir() == store.shipped_dir()
    assert database_json(run_cli)["origin"] == "shipped"


def test_revert_with_nothing_installed_is_refused(run_cli, data_folder) -> None:
    done = run_cli("rules", "update", "--revert")
    assert done.exit_code == 2
    assert "shipped database is in use" in done.stderr


def test_an_installed_database_older_than_the_shipped_one_is_not_used(data_folder, tmp_path) -> None:
    older = store.shipped_release()
    assert older is not None
    folder = data_folder / "rules" / "db-old"
    shutil.copytree(store.shipped_dir(), folder / "rules")
    (folder / "manifest.json").write_text(json.dumps({"release": "2000.1.1", "min_rocm_doctor": "0"}))
    store.write_state(store.State(current="db-old"))
    store.forget()

    assert rules_dir() == store.shipped_dir()


def test_downgrade_installs_only_when_asked(run_cli, server, data_folder, tmp_path) -> None:
    rules = database_copy(tmp_path, "2000.1.1")
    url = publish(server, make_bundle(rules, "2000.1.1"), "2000.1.1")
    refused = run_cli("rules", "update", "--url", url)
    assert refused.exit_code == 2
    assert "older than" in refused.stderr and "--allow-downgrade" in refused.stderr
    assert tree(data_folder) == {}


# -- refusals ------------------------------------------------------------------------------------
def _tar(entries: List[Tuple[tarfile.TarInfo, bytes]]) -> bytes:
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w:gz") as tar:
        for info, data in entries:
            tar.addfile(info, io.BytesIO(data) if info.isreg() else None)
    return raw.getvalue()


def _signed_entries(extra: List[Tuple[tarfile.TarInfo, bytes]]) -> bytes:
    """A bundle whose signed manifest is fine but which also holds ``extra`` entries."""
    manifest = json.dumps({
        "format": "rocm-doctor/rule-bundle/1", "release": "2099.1.1", "released": "2099-01-01",
        "min_rocm_doctor": "0", "files": {"rules/RELEASE": {"sha256": hashlib.sha256(b"2099.1.1\n").hexdigest(), "size": 9}},
    }).encode()
    entries = []
    for name, data in (("manifest.json", manifest), ("manifest.json.sig", signing.sign(manifest, TEST_KEY[0])), ("rules/RELEASE", b"2099.1.1\n")):
        info = tarfile.TarInfo(name)
        info.size = len(data)
        entries.append((info, data))
    return _tar(entries + extra)


def _link(name: str, target: str) -> Tuple[tarfile.TarInfo, bytes]:
    info = tarfile.TarInfo(name)
    info.type, info.linkname = tarfile.SYMTYPE, target
    return info, b""


def _file(name: str, data: bytes) -> Tuple[tarfile.TarInfo, bytes]:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    return info, data


def _break_a_rule(rules: Path) -> None:
    (rules / "zz-broken.yaml").write_text("rules:\n  - id: RD999\n    nonsense: true\n", encoding="utf-8")


REFUSALS: Dict[str, Tuple[Callable[[Path], bytes], str]] = {
    "bad signature": (lambda t: make_bundle(database_copy(t, "2099.1.1"), "2099.1.1", signature=base64.b64encode(b"x" * 64)), "release key"),
    "signature not base64": (lambda t: make_bundle(database_copy(t, "2099.1.1"), "2099.1.1", signature=b"not base64!"), "not base64"),
    "wrong key": (lambda t: make_bundle(database_copy(t, "2099.1.1"), "2099.1.1", key=OTHER_KEY[0]), "release key"),
    "tampered file": (
        lambda t: make_bundle(database_copy(t, "2099.1.1"), "2099.1.1", after_signing=lambda r: (r / "gfx.yaml").write_text("rules: []\n")),
        "SHA-256 differs",
    ),
    "file not in the manifest": (
        lambda t: make_bundle(database_copy(t, "2099.1.1"), "2099.1.1", after_signing=lambda r: (r / "extra.yaml").write_text("rules: []\n")),
        "not in its signed manifest",
    ),
    "needs a newer rocm-doctor": (lambda t: make_bundle(database_copy(t, "2099.1.1"), "2099.1.1", min_version="99.0"), "needs rocm-doctor 99.0"),
    "entry escapes the folder": (lambda t: _signed_entries([_file("rules/../../evil.yaml", b"x")]), "escapes"),
    "absolute entry": (lambda t: _signed_entries([_file("/tmp/evil.yaml", b"x")]), "escapes"),
    "entry is a link": (lambda t: _signed_entries([_link("rules/data/cpus.yaml", "/etc/passwd")]), "link"),
    "not an archive": (lambda t: b"this is not a tar.gz" * 10, "not a readable"),
    "a database that does not load": (lambda t: make_bundle(database_copy(t, "2099.1.1", _break_a_rule), "2099.1.1"), "does not load"),
}


@pytest.mark.parametrize("case", sorted(REFUSALS))
def test_a_refused_bundle_changes_nothing(case: str, run_cli, server, data_folder, tmp_path) -> None:
    build, phrase = REFUSALS[case]
    url = publish(server, build(tmp_path), "2099.1.1")

    done = run_cli("rules", "update", "--url", url)

    assert done.exit_code == 2, done.stdout
    assert "nothing changed" in done.stderr and phrase in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert not (data_folder / "rules" / store.STATE_FILE).exists()
    assert [p.name for p in (data_folder / "rules").glob("*")] == []
    assert rules_dir() == store.shipped_dir()


def test_a_truncated_bundle_is_refused(run_cli, server, data_folder, tmp_path) -> None:
    bundle = make_bundle(database_copy(tmp_path, "2099.1.1"), "2099.1.1")
    server.serve("/cut.tar.gz", Served(bundle, cut=len(bundle) // 2))
    index = json.loads(index_for("cut.tar.gz", bundle, "2099.1.1"))
    url = server.serve("/index.json", Served(json.dumps(index).encode()))

    done = run_cli("rules", "update", "--url", url)

    assert done.exit_code == 2 and "nothing changed" in done.stderr, done.stderr
    assert tree(data_folder) == {}


def test_a_bundle_over_the_size_limit_is_refused_before_it_is_read(run_cli, server, data_folder, tmp_path, monkeypatch) -> None:
    from rocm_doctor.limits import Limit
    from rocm_doctor.dbupdate import update

    monkeypatch.setattr(update, "UPDATE_BUNDLE_BYTES", Limit("update.max_bundle_bytes", 10_000, "bytes"))
    url = publish(server, make_bundle(database_copy(tmp_path, "2099.1.1"), "2099.1.1"), "2099.1.1")

    done = run_cli("rules", "update", "--url", url)

    assert done.exit_code == 2 and "over the limit" in done.stderr, done.stderr
    assert tree(data_folder) == {}


def test_a_bundle_whose_hash_differs_from_the_index_is_refused(run_cli, server, data_folder, tmp_path) -> None:
    url = publish(server, make_bundle(database_copy(tmp_path, "2099.1.1"), "2099.1.1"), "2099.1.1", sha256="0" * 64)
    done = run_cli("rules", "update", "--url", url)
    assert done.exit_code == 2 and "differs from the index" in done.stderr, done.stderr


def test_a_server_that_stalls_is_given_up_on_within_the_timeout(run_cli, server, data_folder) -> None:
    url = server.serve("/stall.json", Served(b"{}" * 100, stall=True))
    started = time.monotonic()

    done = run_cli("rules", "update", "--url", url, "--timeout", "2")

    assert time.monotonic() - started < 15
    assert done.exit_code == 2 and "nothing changed" in done.stderr, done.stderr
    assert tree(data_folder) == {}


def test_nothing_listening_is_a_refusal_and_the_shipped_database_stays(run_cli, data_folder) -> None:
    done = run_cli("rules", "update", "--url", "http://127.0.0.1:9/rules-index.json", "--timeout", "5")
    assert done.exit_code == 2 and "cannot be reached" in done.stderr, done.stderr
    assert rules_dir() == store.shipped_dir()


def test_plain_http_is_fetched_only_from_loopback() -> None:
    for url in ("http://example.com/index.json", "ftp://example.com/x", "http://10.0.0.1/x", "file:///etc/passwd"):
        with pytest.raises(FetchError):
            check_url(url)
    for url in ("https://example.com/index.json", "http://127.0.0.1:8000/x", "http://localhost/x", "http://[::1]/x"):
        check_url(url)


def _self_signed(tmp_path: Path) -> Tuple[Path, Path]:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID
    import ipaddress

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
        .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    return cert_path, key_path


def test_a_redirect_off_https_is_refused(run_cli, server, data_folder, tmp_path, monkeypatch) -> None:
    import ssl

    cert, key = _self_signed(tmp_path)
    secure = LocalServer()
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    secure.httpd.socket = context.wrap_socket(secure.httpd.socket, server_side=True)
    try:
        plain = publish(server, make_bundle(database_copy(tmp_path, "2099.1.1"), "2099.1.1"), "2099.1.1")
        secure.serve("/index.json", Served(status=302, headers={"Location": plain}))
        port = secure.httpd.server_address[1]
        monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(cert))

        done = run_cli("rules", "update", "--url", f"https://127.0.0.1:{port}/index.json", "--timeout", "10")
    finally:
        secure.close()

    assert done.exit_code == 2 and "redirects off HTTPS" in done.stderr, done.stderr
    assert tree(data_folder) == {}


# -- the database's age and release --------------------------------------------------------------
def test_an_old_database_gets_one_line_saying_how_to_update(run_cli, monkeypatch) -> None:
    from rocm_doctor import dbage as info

    fresh = run_cli("rules", "list").stdout
    monkeypatch.setattr(info, "today", lambda: datetime.date(2099, 1, 1))
    old = run_cli("rules", "list").stdout

    assert "rules update" not in fresh
    assert sum("rocm-doctor rules update" in line for line in old.splitlines()) == 1
    machine = Path(__file__).parent.parent / "machines" / "cpu-only"
    checked = run_cli("check", "--machine", str(machine)).stdout
    assert sum("rocm-doctor rules update" in line for line in checked.splitlines()) == 1


def test_the_shipped_release_is_no_older_than_any_table_check() -> None:
    from rocm_doctor.ruledb import table_checks

    release = store.shipped_release()
    assert release is not None, "rules/RELEASE must hold the database's release (YYYY.M.D)"
    newest = max(c.checked for c in table_checks(store.shipped_dir()))
    assert datetime.date(*release.release[:3]) >= newest, (
        f"rules/RELEASE ({release}) is older than a table's check ({newest}): bump it when a table changes"
    )


def test_the_release_key_in_the_package_is_a_valid_ed25519_public_key() -> None:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    for key in signing.TRUSTED_KEYS:
        Ed25519PublicKey.from_public_bytes(base64.b64decode(key))
