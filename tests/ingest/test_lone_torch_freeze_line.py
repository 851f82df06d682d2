"""pip freeze's "torch==2.4.0" is read as what pip printed only inside a listing (another "name==version" line)
or after a "pip freeze" the block names; a lone "torch==2.0.0" among typed system details is the reporter's spelling
of "torch 2.0.0" and gives the same facts as the prose form (rev52c: the torch version respelling of zluda-vosen-140
turned RD571 into RD870). Assertions are about contexts, never about wording.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest


def _context(report: str) -> list:
    return ingest(report).facts.symptoms.context.value or []


_LISTED = "torch.cuda.is_available() returns False on my RX 6800, Ubuntu 22.04\n{block}\n"


@pytest.mark.parametrize(
    "block",
    [
        "pip freeze:\nnumpy==1.26.4\ntorch==2.4.0\ntorchvision==0.19.0",
        "$ pip freeze | grep torch\ntorch==2.4.0",
    ],
)
def test_a_freeze_line_in_a_listing_is_read(block: str) -> None:
    assert "torch_release_untagged_freeze" in _context(_LISTED.format(block=block))


@pytest.mark.parametrize("spelling", ["torch==2.4.0", "torch 2.4.0"])
def test_a_lone_typed_torch_version_gives_the_prose_facts(spelling: str) -> None:
    report = _LISTED.format(block=f"my system info:\nwin10 21h2\n{spelling}\npython 3.10")
    assert "torch_release_untagged_freeze" not in _context(report)
    assert ingest(report).facts.torch.version.value == ingest(_LISTED.format(block="my system info:\nwin10 21h2\ntorch 2.4.0\npython 3.10")).facts.torch.version.value
