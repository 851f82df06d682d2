"""Download one small document over HTTPS, bounded in size, time and redirects.

Used for the rule-database index and bundle. Plain HTTP is accepted only for a loopback address
(the tests' local server); a redirect is followed by hand, at most a few times, and never from
HTTPS to anything else. The body is read in short reads against one deadline for the whole
transfer, so a server that stalls or trickles bytes is given up on in time.
"""

from __future__ import annotations

import ipaddress
import time
from dataclasses import dataclass
from typing import Optional
from urllib.parse import urljoin, urlsplit

MAX_REDIRECTS = 5
_READ = 65536


class FetchError(Exception):
    """The document could not be fetched; the message says why, naming the URL."""


def _is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_url(url: str) -> None:
    """FetchError unless ``url`` is HTTPS, or plain HTTP to a loopback address."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if not host:
        raise FetchError(f"{url}: not a URL with a host")
    if parts.scheme == "https":
        return
    if parts.scheme == "http" and _is_loopback(host):
        return
    raise FetchError(f"{url}: only https:// URLs are fetched (plain http only on this machine's loopback address)")


@dataclass(frozen=True)
class Fetched:
    url: str
    """Where the body came from, after redirects."""
    body: bytes


def fetch(url: str, max_bytes: int, timeout: float, what: str = "document") -> Fetched:
    """GET ``url``: the body, at most ``max_bytes``, within ``timeout`` seconds in all."""
    import requests

    deadline = time.monotonic() + timeout
    session = requests.Session()
    try:
        for _ in range(MAX_REDIRECTS + 1):
            check_url(url)
            left = _left(deadline, url, what)
            try:
                response = session.get(url, stream=True, allow_redirects=False, timeout=(min(left, 10.0), min(left, 20.0)))
            except requests.exceptions.Timeout:
                raise FetchError(f"{url}: no answer within {timeout:g} s") from None
            except requests.exceptions.RequestException as exc:
                raise FetchError(f"{url}: cannot be reached ({type(exc).__name__})") from None
            with response:
                if response.is_redirect:
                    target = urljoin(url, response.headers.get("location", ""))
                    if urlsplit(url).scheme == "https" and urlsplit(target).scheme != "https":
                        raise FetchError(f"{url}: redirects off HTTPS (to {target}); refused")
                    url = target
                    continue
                if response.status_code != 200:
                    raise FetchError(f"{url}: HTTP {response.status_code}")
                return Fetched(url, _read_body(response, url, max_bytes, deadline, timeout, what))
        raise FetchError(f"{url}: more than {MAX_REDIRECTS} redirects")
    finally:
        session.close()


def _left(deadline: float, url: str, what: str) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise FetchError(f"{url}: the {what} did not arrive in time")
    return left


def _read_body(response, url: str, max_bytes: int, deadline: float, timeout: float, what: str) -> bytes:  # type: ignore[no-untyped-def]
    import requests
    import urllib3

    declared = _declared_length(response)
    if declared is not None and declared > max_bytes:
        raise FetchError(f"{url}: the {what} is {declared:,} bytes, over the limit of {max_bytes:,}")
    raw = response.raw
    read_some = getattr(raw, "read1", None)
    body = bytearray()
    try:
        while True:
            _left(deadline, url, what)
            chunk = read_some(_READ) if read_some is not None else raw.read(_READ)
            if not chunk:
                break
            body += chunk
            if len(body) > max_bytes:
                raise FetchError(f"{url}: the {what} is over the limit of {max_bytes:,} bytes")
    except (requests.exceptions.RequestException, urllib3.exceptions.HTTPError, OSError) as exc:
        if isinstance(exc, (TimeoutError, urllib3.exceptions.TimeoutError, requests.exceptions.Timeout)):
            raise FetchError(f"{url}: the {what} stalled (no data within {timeout:g} s)") from None
        raise FetchError(f"{url}: the transfer broke off ({type(exc).__name__})") from None
    if declared is not None and len(body) != declared:
        raise FetchError(f"{url}: the {what} was cut short ({len(body):,} of {declared:,} bytes)")
    return bytes(body)


def _declared_length(response) -> Optional[int]:  # type: ignore[no-untyped-def]
    value = response.headers.get("content-length")
    if value is None or not value.strip().isdigit() or len(value.strip()) > 18:
        return None
    return int(value.strip())
