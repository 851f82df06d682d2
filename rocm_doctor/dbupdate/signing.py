"""Ed25519 signatures over a rule bundle's manifest, checked against the keys shipped here.

The project's release key signs ``manifest.json``; its private half is never in the repository
(``tools/build_rule_bundle.py`` takes it on the command line). Only the public halves below are
trusted. The signature file holds the 64 signature bytes in base64 on one line.
"""

from __future__ import annotations

import base64
import binascii
from typing import Sequence

TRUSTED_KEYS: Sequence[str] = ("W3DiroXzWru38T3VVmwVXOTFDAGLW4RVyGGWyx6vlDM=",)
"""Base64 raw Ed25519 public keys whose signatures ``rules update`` accepts (the release key)."""

MAX_SIGNATURE_BYTES = 256
"""A signature file is 88 characters; anything much longer is not one."""


class BadSignature(Exception):
    """The manifest is not signed by a trusted key (or the signature is not one at all)."""


def _raw(text: str, size: int, what: str) -> bytes:
    try:
        raw = base64.b64decode(text.strip(), validate=True)
    except (binascii.Error, ValueError):
        raise BadSignature(f"the {what} is not base64") from None
    if len(raw) != size:
        raise BadSignature(f"the {what} has {len(raw)} bytes, not {size}")
    return raw


def verify(manifest: bytes, signature: bytes, keys: Sequence[str] = ()) -> str:
    """The trusted key (base64) that signed ``manifest``; BadSignature when none did."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    if len(signature) > MAX_SIGNATURE_BYTES:
        raise BadSignature("the signature file is too long to be an Ed25519 signature")
    try:
        text = signature.decode("ascii")
    except UnicodeDecodeError:
        raise BadSignature("the signature file is not base64 text") from None
    raw_signature = _raw(text, 64, "signature")
    for key in keys or TRUSTED_KEYS:
        public = Ed25519PublicKey.from_public_bytes(_raw(key, 32, "public key"))
        try:
            public.verify(raw_signature, manifest)
        except InvalidSignature:
            continue
        return key
    raise BadSignature("the manifest is not signed by rocm-doctor's release key")


def sign(manifest: bytes, private_key_b64: str) -> bytes:
    """The signature file's content for ``manifest`` (used by tools/build_rule_bundle.py and tests)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.from_private_bytes(_raw(private_key_b64, 32, "private key"))
    return base64.b64encode(key.sign(manifest)) + b"\n"


def public_key_of(private_key_b64: str) -> str:
    """The base64 public key of a base64 raw private key."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.from_private_bytes(_raw(private_key_b64, 32, "private key"))
    raw = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return base64.b64encode(raw).decode("ascii")
