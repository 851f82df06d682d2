"""nvidia-smi's summary table: the NVIDIA GPUs of the machine it ran on.

nvidia-smi prints its table only when the NVIDIA driver answered; each GPU gets a row that starts with
its index and (often shortened to "NVIDIA GeForce ...") its name, then the persistence or driver mode
(On, Off, WDDM, TCC) and its PCI bus id. A pasted table therefore shows an NVIDIA GPU in this machine,
which the CUDA-wheel findings must know: a CUDA torch there may be meant for that GPU, and "Found no
NVIDIA driver" there is not a ROCm user's wrong wheel.

The header line changed over driver releases ("NVIDIA-SMI 510.60.02  Driver Version: ..." and
"NVIDIA-SMI 610.43.02  KMD Version: ..."); the GPU rows kept their columns. The rows are NVIDIA
GPUs only, so they are read as a mention of an NVIDIA card beside whatever lists the AMD ones
(assemble adds such a card to any other listing), never as the machine's whole list of GPUs.

Reports: verm/freebsd-stable-diffusion#2 (510.60.02, "NVIDIA GeForce ...  Off  | 00000000:01:00.0",
beside PyTorch's "Found no NVIDIA driver on your system"), pop-os/pop#3604 (580.82.07, "NVIDIA GeForce
GTX 1650        Off |   00000000:01:00.0"), sgl-project/sglang#27487 (610.43.02, "KMD Version",
"NVIDIA B200                    On  |   00000000:63:00.0").
"""

from __future__ import annotations

from typing import List

from rocm_doctor.ingest.blocks import Block
from rocm_doctor.ingest.formats.common import make_piece
from rocm_doctor.ingest.model import GpuSighting, Piece
from rocm_doctor.lazy_regex import when_used

_HEADER = when_used(r"\bNVIDIA-SMI\s+\d{2,4}\.\d{1,3}(?:\.\d{1,3})?\b")
_ROW = when_used(
    r"^\s{0,4}\|\s{1,6}(?P<index>\d{1,2})\s{1,6}(?P<name>\S[^|]{0,60}?)\s{1,40}(?:On|Off|WDDM|TCC|MCDM)\s{0,8}\|"
    r"\s{0,8}[0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-7]\b"
)
MAX_GPUS = 64
"""Rows read from one table: more than any machine holds."""


def parse(block: Block) -> List[Piece]:
    if "nvidia-smi" not in block.lower:
        return []
    lines = block.lines
    start = next((index for index, line in enumerate(lines) if _HEADER.search(line.text)), None)
    if start is None:
        return []
    sightings: List[GpuSighting] = []
    for line in lines[start + 1 :]:
        if len(sightings) >= MAX_GPUS:
            break
        match = _ROW.match(line.text)
        if match is None:
            continue
        name = match.group("name").rstrip(". ").strip() or "NVIDIA GPU"
        sightings.append(GpuSighting("mention", len(sightings), line, {"vendor": "NVIDIA", "name": name}))
    if not sightings:
        return []
    return [make_piece("nvidia-smi", [lines[start]] + [s.line for s in sightings], [], sightings)]
