"""Facts named anywhere in a report: prose, inline code, commands, paths, URLs and logs.

People name their stack in passing ("My iGPU is an ... Barcelo", "I use pytorch-opt-rocm
2.0.1-3", "`2.12.0+cu130` and `None`", "pip install ... --index-url .../rocm6.2",
"/opt/rocm-6.0.1/lib"). This reader finds those entities wherever they stand, at the
trust of a prose mention (below tool output and labelled fields, see
:mod:`rocm_doctor.ingest.model`), so that a tool listing in the same paste always wins:

* gfx targets in any spelling (``gfx1100``, ``gfx_906``, ``amdgcn-amd-amdhsa--gfx90a:xnack-``),
  except in lists of targets (three or more on a line), build-target variables and
  override explanations;
* GPU marketing names through the GPU table (``RX 7900 XTX``, ``7900XTX``, ``Radeon 780M``,
  ``MI250X``, ``W7900``, ``R9700``), with counts (``2x RX 7900 XT``), and ``iGPU`` mentions;
* CPU models that carry an integrated GPU, through the CPU table (``Ryzen 7 7800X3D`` has a
  gfx1036 iGPU; a ``Ryzen AI Max+ 395`` is a gfx1151);
* torch versions (``torch==2.5.1+rocm6.2``, ``PyTorch 2.6.0``, ``2.12.0+cu130``), wheel names and
  URLs, ``pip install ... --index-url`` (the index implies the flavour and ROCm series);
* ROCm versions: ``/opt/rocm-6.0.1`` paths, ``ROCm 6.2`` (the system's, or the wheel's when
  the words around say it was built with it), ``amdgpu-install_6.2.60200-1_all.deb``, ROCm
  Docker image tags (``rocm/pytorch:rocm6.2_ubuntu22.04_py3.10_pytorch_release_2.3.0``);
* the platform: ``WSL2``, ``Windows 11``, ``Ubuntu 22.04``, kernel releases, Python versions,
  and whether the report runs inside a container.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import replace
from functools import lru_cache
from typing import Dict, FrozenSet, List, Optional, Set, Tuple

from rocm_doctor.facts.parsers.dkms import parse_dkms_status
from rocm_doctor.knowledge.gpu_table import codename_regex, model_for_name
from rocm_doctor.ingest.blocks import SLASH_PROMPT_PATH, SUPPORT_TABLE_GPUS, WINDOWS_ENV_PREFIX, WRAPPED_AT, Block, Line, Spans, expected_lines, may_be_wrapped, support_list_keys
from rocm_doctor.ingest.formats.collect_env import companion_observations
from rocm_doctor.ingest.formats.common import COUNT_FIELD, DOCUMENT_SAYS, REPORTED_SPEECH, gfx_of, gpu_fields, identity_observations, make_piece, torch_version_observations
from rocm_doctor.ingest.formats.platform_strings import distro_observations, kernel_observations, windows_observations
from rocm_doctor.ingest.model import TRUST_PROSE, TRUST_TEMPLATE, TRUST_TOOL, GpuSighting, Observation, Piece
from rocm_doctor.knowledge.cpus import igpu_for_cpu
from rocm_doctor.ingest.formats.hip_code_objects import BUNDLE_ENTRY_LINE
from rocm_doctor.ingest.formats.install_log import kept_torch_not_rocm, not_installing_lines
from rocm_doctor.knowledge.torch_identity import from_index_url, from_wheel, identify
from rocm_doctor.ingest.scope import ANOTHERS_MACHINE, ELSEWHERE as ELSEWHERE_SCOPE, NAMED_BY_ITS_PAST, NOW, PAST, scope_before
from rocm_doctor.lazy_regex import WhenUsed, when_used

# ------------------------------------------------------------------ GPUs

_GFX = when_used(r"(?<![\w])(?:amdgcn-amd-amdhsa--)?gfx[_ ]?(\d{1,2}[0-9a-f]{2})(?![0-9a-z])(?::[a-z+-]+)*", re.IGNORECASE)
_GFX_LIST_CONTEXT = when_used(
    r"PYTORCH_ROCM_ARCH|AMDGPU_TARGETS|GPU_TARGETS|HCC_AMDGPU_TARGET|offload-arch|supported types|support(?:ed)? (?:gpus|list|targets)"
    # flash-attn's and aiter's build targets (GPU_ARCHS, printed back as "One of GPU archs of [...]", "Invalid
    # archs: [...]. Allowed: [...]"): the targets asked for, not the devices present (r35b)
    r"|GPU_ARCHS|GPU\s{1,4}archs\s{1,4}of|Invalid\s{1,4}archs\s{0,4}:"
    r"|HSA_OVERRIDE|overrid(?:e|den|ing)|spoof|pretend|TensileLibrary_|targets?\s*[:=]"
    # What a library or build supports, not the reporter's GPU: "hipblastlt is only supported on gfx90a
    # and gfx94x cards" (pytorch/pytorch#119081), "hipBLASLt supports only `gfx90a` GPUs"
    # (ROCm/hipBLASLt#516), "supported only by MI250X and MI300X" (Comfy-Org/ComfyUI#3698).
    r"|\bonly\s{1,4}support(?:s|ed)?\b|\bsupport(?:s|ed)?\s{1,4}only\b"
    # What an override makes the runtime take the GPU for, in words: "This tells ROCm to treat the Phoenix
    # APU as a supported gfx1100 target" (ollama/ollama#15482), "directed to treat the GPU as a different
    # one" (NixOS/nixpkgs#321664), "tricks ROCm into thinking the available card is of the architecture
    # specified ... gfx1030" (ROCm/TheRock#1719): the target named there is borrowed, not a device.
    r"|\btreat(?:s|ed|ing)?\s{1,4}(?:[\w-]{1,24}\s{1,4}){1,4}as\s{1,4}(?:an?\s{1,4})?(?:\w{1,12}\s{1,4}){0,2}[`'\"]?gfx"
    r"|\b(?:trick(?:s|ed|ing)?|fool(?:s|ed|ing)?)\s{1,4}(?:[\w-]{1,24}\s{1,4}){1,3}into\s{1,4}thinking\b"
    # rev52d: a CMake list of targets ("gfx1100;gfx1101", the "Supported targets are:" paragraph the rocm-libraries'
    # target check prints on a line of its own: ROCm/TheRock#1062, ROCm/rocm-libraries#2297, ROCm/TheRock#2042), and a
    # target named as an entry of a build's CMake files ("missing `gfx1036` in Tensile CMake", "defined in TheRock CMake
    # as a valid target": rocm-libraries#2297): what a build lists, not the GPUs this machine has
    # (CMake joins a list's items with ';' and no space; prose that puts a ';' between two targets writes a space)
    r"|gfx[0-9a-f]{3,4}(?::(?:xnack|sramecc)[+-]){0,2};gfx[0-9a-f]{3,4}"
    r"|\b(?:in|into|to|from)\s{1,4}(?:the\s{1,4})?(?:[\w-]{1,24}\s{1,4})?cmake\b(?!\s{0,4}-D)|\bvalid\s{1,4}(?:gpu\s{1,4}|build\s{1,4})?target\b",
    re.IGNORECASE,
)
_SUPPORTED_LIST_INTRO = when_used(
    # A program printing the targets it was built for, after the one it refused: aiter's "Unknown GPU
    # architecture: gfx1151. Supported architectures: ['native', 'gfx90a']" (gpustack/gpustack#3880, ROCm/aiter
    # #1552, vllm-project/vllm#30952), flash-attn's "Allowed: [...]" (Dao-AILab/flash-attention setup.py at
    # 5301a359), TensorFlow's "The supported AMDGPU versions are gfx1030, gfx900" (ROCm/tensorflow-upstream
    # #2118, #3169). Only as the list's introduction (a colon, "are", a bracket after it): a short list was
    # read as a second GPU beside the refused one ("an integrated GPU sits next to the discrete one" on a lone
    # Strix Halo), while "gfx1031 is not among the supported architectures" still names the reporter's GPU.
    r"\bsupported\s{1,4}(?:architectures?|archs?|gfx(?:\s{1,4}(?:targets?|versions?))?|AMDGPU\s{1,4}versions?)\s{0,4}(?::|=|\[|are\b)"
    r"|\bAllowed\s{0,4}:\s{0,4}\[",
    re.IGNORECASE,
)
"""The words that open a printed list of supported targets. Only the targets after them, up to the sentence's end,
are the list's: the target refused before them ("Unknown GPU architecture: gfx1151. Supported architectures: ..."),
and the reporter's GPU in a sentence of its own on the same line ("I have a gfx1031 card. Supported architectures:
gfx1030"), are still read (r47b: the whole line was dropped, the reporter's GPU with it)."""
_LIST_END = when_used(r"[.;!?](?:\s|$)")


def _supported_list_spans(head: str) -> List[Tuple[int, int]]:
    """Where in ``head`` the printed lists of supported targets stand (:data:`_SUPPORTED_LIST_INTRO`): from the
    words that open each to its sentence's end."""
    spans: List[Tuple[int, int]] = []
    for intro in _SUPPORTED_LIST_INTRO.finditer(head):
        end = _LIST_END.search(head, intro.end())
        spans.append((intro.end(), end.start() if end else len(head)))
    return spans


# A name ends where no letter or digit follows: an underscore may close Markdown emphasis
# ("_AMD Radeon RX 5600 XT_", ROCm/legacy-rocm-build#1623; CommonMark 0.31.2, 6.2 emphasis).
GPU_NAME_PATTERNS = [
    # a mobile part's own suffix: "RX 6850M XT", "RX 7600M XT" (pci.ids 73df, 73f0) (h35g)
    when_used(r"\b(?:AMD\s+)?(?:Radeon\s*(?:\((?:TM|R)\)\s*)?)?(?:(?:AI\s+)?PRO\s+)?RX\s?-?(\d{3,4})\s?(XTX|XT|GRE|M\s?XT|M|S)?(?![^\W_])", re.IGNORECASE),
    when_used(r"(?<![\w.])(\d{4})\s?(XTX|XT|GRE)(?![^\W_])", re.IGNORECASE),
    when_used(r"\bRadeon\s*(?:\((?:TM|R)\)\s*)?(?:(?:AI\s+)?PRO\s+)?([A-Z]?\d{3,4}[A-Z]{0,2}|VII)\b", re.IGNORECASE),
    # Instinct and Radeon PRO names as people type them: "an mi50 and several mi100s" (ROCm/legacy-rocm-build#2874),
    # "instinct mi50" (#1850), "AMD Mi50" (#1552), "AMD mi300x" / "MI300x" (KellerJordan/modded-nanogpt#8,
    # meta-pytorch/MSLK#225, vllm-project/vllm#16474); "Radeon PRO w7900" (ROCm/tensorflow-upstream#2118), "w6800 is
    # supported now" (ROCm/legacy-rocm-build#1595), "the w6800 gpu" (RadeonOpenCompute/ROCm_Documentation#139) (h36d).
    # Lower case only joined to its number ("mi 11" is a phone, "50 mi" a distance), not as a variable ("mi50 = ") nor
    # inside an image tag, path or file name ("vllm-mi300x", "/mi300/"); the GPU table still has to know the name
    # ("mi11", "w2135" are none of AMD's).
    when_used(r"\b(?:[Ii]nstinct\s+|INSTINCT\s+)?(?:MI\s?-?|(?<![-/.:])[Mm][Ii])(\d{2,3}[XAxa]?)(?=s?\b)(?!\s*[=(])"),
    when_used(r"\b(?:(?i:PRO)\s+)?(?:W|(?<![-/.:])w)(\d{4}M?)\b(?!\s*[=(])"),
    # Radeon PRO cloud cards by their number alone: "an AMD  v620 GPU VM" (ROCm/legacy-rocm-build#2995), "(AMD V620)"
    # (#1498), "RX 6900/6800/W6800/V620" (vllm-project/vllm#52391); upper case only ("v620" is as often a version) (h36d).
    # Only where the text says it is a GPU: after "AMD" or "PRO", at the end of a slash list of card numbers, or before a word
    # for a GPU or a cloud machine ("the V710 instances"); alone, "V520" is as often a BIOS, a firmware or a monitor
    # model, and read as a GPU it named a phantom RDNA1 card beside the real one (errors on mixed GPUs) (r36a)
    when_used(r"(?:\bAMD\s+|\b(?i:PRO)\s+|(?<=\d/))V(\d{3})\b(?!\s*[=(])|\bV(\d{3})(?=\s+(?:GPUs?|instances?|VMs?|cards?|nodes?|accelerators?)\b)"),
    # Polaris and Vega workstation cards: "Radeon Pro WX 7100", "WX9100" (pci.ids 67c4, 6861) (h35g)
    when_used(r"\b(?:Radeon\s+)?(?:PRO\s+)?WX\s?-?(\d{4})\b", re.IGNORECASE),
    when_used(r"\bR9700\b"),
    # GCN 2-3 cards by their R9 and FirePro names (gfx44). R9: "r9 290x" (ROCm/tensorflow-upstream#154), "R9 390"
    # (ROCmSoftwarePlatform/hiptensorflow#53, ROCm/ROCR-Runtime#74), "Fury X" (ROCm/legacy-rocm-build#565), "Amethyst XT
    # [Radeon R9 M295X]" (ROCm/legacy-rocm-build#880). FirePro: "AMD Firepro w7100" (ollama/ollama#3497), "Firepro w8100"
    # (ROCm/legacy-rocm-build#565), "AMD FirePro W4100" (ROCm/amdgpu#219; a GCN 1 card the table does not know).
    # Three digits only: Ryzen parts written "R9 5900X" or "R7 7840HS" have four, and are CPUs.
    when_used(r"\b(?:AMD\s+)?(?:Radeon\s+)?R9\s?-?(?:M?\d{3}X?|Fury(?:\s?X)?|Nano)(?![\w.])", re.IGNORECASE),
    when_used(r"\b(?:AMD\s+)?FirePro\s?[SW]\d{4}\b", re.IGNORECASE),
    # An APU's graphics by its number ("780M", "660M"); not NVIDIA's laptop parts of the same numbers (pci.ids
    # https://github.com/pciutils/pciids/blob/006181e2c5d5b9a3b57d252aa5b3d827971d41a9/pci.ids: 0fd4 "GeForce GTX 660M",
    # 119f "GeForce GTX 780M", 11a0 "GeForce GTX 680M", 1292 "GeForce GT 740M"; GeForce 840M/940M have no GTX).
    when_used(r"(?<![\w.])(?<!(?i:gtx) )(?<!(?i:gt) )(?<!(?i:gtx))(?<!(?i:geforce) )(\d{3}M|80[456]0S)\b"),
]
_LOWER_IGPU = when_used(r"(?<![\w.\-/])(\d{3}m|80[456]0s)\b(?![\-/.]\w)")
"""An APU's graphics number in lower case, as people type it: "If 890m is not supported by ROCm"
(ROCm/legacy-rocm-build#3542), "ollama for amd ... 不支持 780m 了吗", "rocm 对 780m 的支持"
(likelovewant/ROCmLibs-for-gfx1103-AMD780M-APU#63), "running on my 880m (gfx1150)" and "built rocBLAS for an
890m" (likelovewant/ROCmLibs-for-gfx1103-AMD780M-APU#22), "better AMD support (e.g. 7840u with 780m)"
(ollama/ollama#7861), "8845h with 780m" / "GPU 780m" (ROCm/legacy-rocm-build#4557), "GPU model 8060s gfx1151"
(invoke-ai/InvokeAI#8655). A lower-case "680m" or "8060s" is as often a distance, a model's size or a time
("I ran 680m", "took 8060s"), so it names a GPU only where the words around it speak of one
(:data:`_LOWER_IGPU_CONTEXT`); the GPU table still has to know the number ("350m", "770m" are none of AMD's)."""
_LOWER_IGPU_CONTEXT = when_used(
    r"(?<![A-Za-z])(?:gpu|igpu|apu|graphics|radeon|amd|rocm|hip|vulkan|vram|ollama|rocblas|gfx1\d{3}|\d{4}(?:hs|hx|h|u|g|ge))(?![A-Za-z])|核显|显卡|集显",
    re.IGNORECASE,
)
"""Words within 80 characters of a lower-case APU number that make it a GPU: a word for a GPU or the stack that
drives one, a gfx target, or the laptop processor it sits in ("7840u with 780m")."""
_LOWER_IGPU_NOT_AFTER = when_used(
    r"[ \t]{0,2}(?:param(?:eter)?s?|models?|tokens|steps|samples|images|rows|away|miles?|meters?|metres?|elevation|long|high|only|of[ \t]{1,2}(?:memory|ram|vram))\b",
    re.IGNORECASE,
)
"""Words right after a lower-case number that make it a quantity ("a 760m parameter model", "680m away", "the 880m model":
rev62b)."""
_LOWER_IGPU_NOT_BEFORE = when_used(
    r"\b(?:took|ran|run|after|elapsed|walked|drove|climbed|in|used|uses|using|free|memory|mem|vram|ram|usage)[ \t:=]{1,3}$", re.IGNORECASE
)
"""Words right before it that make it a distance, a time or an amount of memory ("I ran 680m", "it took 8060s", "GPU
memory used 780m only": rev62b)."""


def _lower_igpu_said_as_gpu(text: str, start: int, end: int) -> bool:
    """Whether the lower-case APU number at ``start:end`` of ``text`` (one line) stands where the words around it speak
    of a GPU (:data:`_LOWER_IGPU`); bounded to 80 characters either side."""
    if _LOWER_IGPU_NOT_AFTER.match(text, end, end + 20) or _LOWER_IGPU_NOT_BEFORE.search(text[max(0, start - 20) : start]):
        return False
    return _LOWER_IGPU_CONTEXT.search(text[max(0, start - 80) : end + 80]) is not None


GPU_NAME_PATTERNS.append(_LOWER_IGPU)
_MOBILE_NUMBER = when_used(r"(?<![\w.\-/:])(?:AMD\s+)?(\d{4}\s?M(?:\s?XT)?)\b(?![\-/.]\w)", re.IGNORECASE)
"""A laptop's discrete Radeon by its number alone, four digits and M in either case, with or without XT: "an amd
6800M" (ROCm/legacy-rocm-build#1848), "the AMD 6700M GPU" (ollama/ollama#6152), "the 5600M HBM2 GPU"
(likelovewant/ollama-for-amd#124). "RX 6800M" is read by the first pattern; without the RX the number is as often a
size ("8192M", "a 6800M parameter model"), so it names a GPU only where the words around it speak of one, as a
lower-case APU number (:func:`_lower_igpu_said_as_gpu`), and only where the GPU table knows it for one target (the 5600M
is a Radeon Pro 5600M, gfx1011, and a Radeon RX 5600M, gfx1010: no GPU) (learn67a)."""
GPU_NAME_PATTERNS.append(_MOBILE_NUMBER)
_MOBILE_QUANTITY_BEFORE = when_used(
    r"(?:\b(?:allocat\w*|requir\w*|needs?|size|total|swap|free|used|uses|using|memory|mem|vram|ram|buffer|limit|max|reserved?|offload\w*)|[=<>~])[ \t:=]{0,3}$",
    re.IGNORECASE,
)
_MOBILE_QUANTITY_AFTER = when_used(r"[ \t]{0,2}(?:of|total|free|used|avail\w*|left|remaining|allocated|reserved|in[ \t]use)\b", re.IGNORECASE)
"""Words around a four-digit M number that make it an amount of memory where the line also names the GPU ("the model
requires 6600M of GPU memory", "HIP allocated 6700M on the GPU", "ROCm 6.2 VRAM total 7600M", "Swap: 7600M total"):
no laptop Radeon (review67)."""


def _mobile_number_a_quantity(text: str, start: int, end: int) -> bool:
    """Whether the mobile Radeon number at ``start:end`` of ``text`` (one line) reads as an amount of memory."""
    return bool(_MOBILE_QUANTITY_AFTER.match(text, end, end + 20) or _MOBILE_QUANTITY_BEFORE.search(text[max(0, start - 20) : start]))


_NVIDIA_NUMBER = r"(?:[1-5]0[5-9]0|16[56]0|[79][5-8]0)"
"""GeForce model numbers (GTX 950-980, 1050-1080, 1650/1660, RTX 2050-5090): none is an AMD model's (RX 5500-7900,
9060/9070; RX 470-590 have three digits and an RX before them)."""
NVIDIA_NAME = when_used(
    r"\b(?:NVIDIA\s+)?(?:GeForce\s+)?(?:RTX|GTX)\s?-?(?:" + _NVIDIA_NUMBER + r"|A\d{4}|[2-6]000)(?:\s?(?:Ti|SUPER|Ada))?\b"
    r"|\bN[Vv][Ii][Dd][Ii][Aa]\s+(?:GeForce\s+)?" + _NVIDIA_NUMBER + r"(?:\s?(?:Ti|SUPER))?\b"
    r"|\b(?:NVIDIA\s+)?(?:Quadro\s+(?:RTX\s+)?[A-Z]{0,2}\d{3,4}|Titan\s+(?:RTX|V|Xp?)|Tesla\s+[A-Z]\d{1,3})\b"
    r"|\bNVIDIA\s+[ABHL]\d{2,3}S?\b"
    r"|(?<=\bmy\s)(?:" + _NVIDIA_NUMBER + r")(?:\s?(?:Ti|SUPER))?\b(?![ \t]?(?:Pro|EVO|Plus|QVO|SSD|NVMe|M\.2)\b)",
    re.IGNORECASE,
)
"""An NVIDIA GPU named in words, as people name the NVIDIA card beside an AMD one: "an RX470 and a GTX970"
(ROCm/legacy-rocm-build#254), "amd mi50 cards and nvidia 3070 cards on the same workstation"
(RafalSiwek/distributed-mlops-overview#1), "an smaller nvdia gpu (3050 8g) and a stronger amd one (7600xt)"
(Comfy-Org/ComfyUI#14465; the bare number is read only after "my"), and "my 4090". A mixed box runs a CUDA torch on
purpose for its NVIDIA card (unslothai/unsloth#10450), which the CUDA-wheel findings must not call a mistake. A bare
number named like a Samsung SSD ("my 980 Pro", "my 970 EVO Plus") is a disk, not a GeForce (r31a)."""
_COMPARED_WITH_BEFORE = when_used(r"\b(?:than|vs\.?|versus|compared\s+(?:to|with)|like|faster|slower)\s+(?:on\s+)?(?:an?\s+|the\s+|my\s+)?$", re.IGNORECASE)
"""Words before a GPU that make it a yardstick ("slower than an RTX 4090", "vs RTX 3090", "compared to my 4090"): no
device this machine is shown to have (a card of the reporter's may stand in another machine)."""
_NVIDIA_GONE_BEFORE = when_used(
    r"\b(?:before|previously|formerly|originally|used\s+to"
    r"|(?:came|coming|com(?:e|es)|mov(?:e|ed|ing)|switch(?:ed|ing)?|migrat(?:e|ed|ing)|upgrad(?:e|ed|ing)|chang(?:e|ed|ing)|went|go(?:ing)?)\s+(?:over\s+)?(?:away\s+)?from"
    r"|(?:written|made|designed|meant|optimi[sz]ed)\s+for|(?:was|were)\s+(?:run|tested|benchmarked|measured)\s+(?:on|with))\b[^.!?;\n]{0,40}$",
    re.IGNORECASE,
)
"""Words before an NVIDIA GPU that put it in the past or in a document: "I moved from NVIDIA (GTX 1080) to AMD",
"Before I had my 2070", "The tutorial was written for an RTX 4090", "the benchmark was run on an NVIDIA A100". An
NVIDIA GPU read as this machine's turns the CUDA-wheel findings off (a mixed box runs a CUDA torch on purpose), so
one the reporter left behind must not: swapping an NVIDIA card for an AMD one is how a CUDA torch lands on AMD."""
_NVIDIA_GONE_AFTER = when_used(
    r"^[^.!?;\n]{0,40}?(?:\bbefore\b|\bto\s+(?:an?\s+|the\s+|my\s+)?(?:AMD|Radeon|RX)\b)", re.IGNORECASE
)
"""Words after it that do the same: "had a GTX 1080 before", "from an RTX 2060 to an RX 7600"."""
_SERIES = when_used(r"\b(?:Radeon\s+)?RX\s?[5-9]000\s+series\b", re.IGNORECASE)
_COUNT_BEFORE = when_used(r"(?:(\d{1,2})\s?[x×*]|\b(two|dual|three|four|eight))\s*(?:AMD\s+)?$", re.IGNORECASE)
_COUNT_WORDS = {"two": 2, "dual": 2, "three": 3, "four": 4, "eight": 8}
_IGPU = when_used(r"\b(?:iGPU|APU|integrated (?:GPU|graphics))\b", re.IGNORECASE)

_OTHER_VENDOR_BEFORE = when_used(r"\b(?:intel|nvidia|uhd|iris|arc)\b[^.,;\n]{0,16}$", re.IGNORECASE)
"""``my Intel iGPU``: an integrated GPU that is not AMD's."""


def _in_name_token(text: str, start: int, end: int) -> bool:
    """Whether the code name at ``start:end`` of the line is a piece of a URL, repository, image, folder or file
    name rather than a word of prose: its words joined by a hyphen or an underscore ("strix-halo", "navi_22"), or
    the name set inside a slug or path ("kyuz0/amd-strix-halo-toolboxes", "~/strix_halo_bench"). A file name is
    not a device line: the repository a reporter followed names no GPU of the reporter's machine
    (rev51b)."""
    if re.search(r"[_-]", text[start:end]):
        return True
    before = text[max(0, start - 1) : start]
    after = text[end : end + 1]
    if after == "-" and _PROSE_COMPOUND.match(text, end):
        # "a Strix Halo-based mini PC", "my Navi 22-powered card": a compound adjective of prose (rev51f)
        after = ""
    # a path (a "/" or "\\" in the token, a file's extension) is in_file_name's, the reader the gfx mentions use (rev51f)
    return before in ("-", "_") or after in ("-", "_") or in_file_name(text, start, end) or _in_url(text, start)


_PROSE_COMPOUND = when_used(r"-(?:based|powered|equipped|class|series)\b", re.IGNORECASE)
"""The second half of a compound adjective after a code name ("Strix Halo-based"), which a file name rarely has."""


def _in_url(text: str, column: int) -> bool:
    """Whether the word at ``column`` is part of a URL: a repository or page name ("ROCmLibs-for-gfx1103-
    AMD780M-APU" in likelovewant/ollama-for-amd#124, lmstudio-ai/lmstudio-bug-tracker#32 and
    likelovewant/ollama-for-amd#26, each linking the library's releases) names no GPU of the machine."""
    window = text[max(0, column - 300) : column]  # a bounded look back: one slice per match, however long the line
    before = window.rsplit(None, 1)
    return bool(before) and not window[-1:].isspace() and "://" in before[-1]


_CPU = when_used(
    r"\b(?:AMD\s+)?(?:Ryzen|Threadripper|Athlon)\b(?:\s*(?:AI|Max\+?|PRO|HX|Z\d|\d|Threadripper))*\s*\d{3,5}[A-Za-z0-9]{0,4}\b"
    r"|\bR[3579]\s+\d{4}[A-Za-z0-9]{0,4}\b",
    re.IGNORECASE,
)
_APU_WITHOUT_RYZEN = when_used(
    r"(?<![\w-])(?:AI[ -]?MAX[ ]?\+?[ -]?(?:PRO[ ]+)?(3\d[05])\+?|(?:AI[ ]+[579][ ]+)?HX[ ]?(?:PRO[ ]+)?(3[67][05])|AI[ ]+[579][ ]+(3[67][05]))(?![\w-])",
    re.IGNORECASE,
)
"""A Ryzen AI processor named without the word Ryzen: Strix Halo as "AMD APU (AI MAX 395)"
(ROCm/legacy-rocm-build#5422), "AI Max + 395" (hhd-dev/hhd#285), with the plus after the number as "AI Max 395+"
(ROCm/TheRock#690 writes it after "Ryzen"); Strix Point as "Radeon 890M (HX 370)" and "the HX 365/370 chips"
(ROCm/legacy-rocm-build#3542), "the AI 9 365 CPU and Radeon 880M" (lemonade-sdk/llamacpp-rocm#5). Read through the
processor table (rules/data/cpus.yaml: Ryzen AI Max 300 -> gfx1151, Ryzen AI 300 Strix Point -> gfx1150, pinned there
to AMD's product pages, TheRock's release notes and LLVM) as the weak iGPU inference a Ryzen name gives. Without the
"AI" or "HX" a number is no processor ("max 395 W" is a power draw)."""


def _apu_lookup_name(match: "re.Match[str]") -> str:
    """The processor-table spelling of a Ryzen AI name written without "Ryzen" (:data:`_APU_WITHOUT_RYZEN`)."""
    if match.group(1):
        return "Ryzen AI Max+ " + match.group(1)
    return "Ryzen AI 9 HX " + (match.group(2) or match.group(3))

_CPU_FX = when_used(
    r"(?<!GeForce )(?<!Quadro )(?<![\w/\\.=-])(?:AMD\s+)?FX(?:\s*\((?:TM|tm)\))?[- ]?[4689]\d{3}[A-Za-z]?\b",
    re.IGNORECASE,
)
"""An AMD FX desktop processor (Bulldozer / Piledriver, the AM3+ generation before Zen) named in prose: "a 990FX+AMD
FX 8320 platform" (ROCm/legacy-rocm-build#501), "AMD FX processors such as FX 8300" (#1086), "I'm on FX-8350"
and uname's "AMD FX(tm)-8350 Eight-Core Processor" (justxi/rocm#72), "My system is driven by AMD FX 8120 CPU" (#312).
Not a chipset ("990FX" has no boundary before FX) nor NVIDIA's GeForce FX / Quadro FX cards."""

_INTEL_CPU_NAMED = when_used(r"\bIntel\b|\bXeon\b|\bPentium\b|\bCeleron\b|\bi[3579][- ]\d{3,5}[A-Za-z]{0,2}\b", re.IGNORECASE)
"""An Intel processor named in the same block: then an FX there is not the only CPU the text speaks of (another
person's machine, a guide's title), and it is not read as this machine's CPU (rev53e)."""

# ------------------------------------------------------------------ torch and ROCm

_VERSION = r"\d+\.\d+(?:\.\d+)?(?:(?:a|b|rc)\d+|\.dev\d+|\.post\d+)*"
_TORCH = when_used(rf"\b(?:py)?torch(?:==|\s*[:=]\s*v?|\s+(?:version\s*[:=]?\s*)?v?|-)({_VERSION}(?:(?:\+|%2B)[0-9A-Za-z](?:[0-9A-Za-z.]*[0-9A-Za-z])?)?)(?!\w|\.\w)", re.IGNORECASE)
_BUILT_WITH_BEFORE = when_used(r"used\s+to\s+build\s+\Z", re.IGNORECASE)
_BUILT_FOR_BEFORE = when_used(r"\bwas\s+built\s+for:(?:[ \t]{1,80}\S{1,40}\.py:\d{1,5})?\s{1,80}(?:(?:py)?torch\s{1,4})?\Z", re.IGNORECASE)
"""The words before the version in xFormers' "was built for: PyTorch 2.3.1+cu121" (a logging handler may print its
source file at the line's end): the torch xformers was compiled against, not the installed one."""
"""Words before "PyTorch: X" in collect_env's "CUDA used to build PyTorch: 12.1" / "ROCM used to build PyTorch:
6.0.32830-...": the release after them is the CUDA or HIP one torch was built with
(https://github.com/pytorch/pytorch/blob/v2.4.0/torch/utils/collect_env.py). xFormers' "xFormers was built for:
PyTorch 2.3.1+cu121 with CUDA 1201 (you have 2.3.1+rocm6.0)" names the torch xformers was compiled against
first; the installed one is in the parentheses (xformers/_cpp_lib.py): :data:`_BUILT_FOR_BEFORE`."""
_COMPANION = when_used(rf"\b(torchvision|torchaudio)(?:==|\s*[:=]\s*v?|\s+(?:version\s*[:=]?\s*)?v?|-)({_VERSION}(?:(?:\+|%2B)[0-9A-Za-z](?:[0-9A-Za-z.]*[0-9A-Za-z])?)?)(?!\w|\.\w)", re.IGNORECASE)
"""torchvision / torchaudio versions named the way torch's are (``torchvision 0.20.1+cu124``, ``torchvision: 0.20.1+rocm6.2``)."""
_LOCAL_VERSION = when_used(rf"(?<![\w.+-])({_VERSION}\+(?:rocm\d(?:[\w.]*\w)?|cu\d{{2,3}}|cpu|xpu))(?!\w|\.\w)", re.IGNORECASE)
_NOT_TORCH_BEFORE = when_used(r"(?:vision|audio|triton|xformers|apex|bitsandbytes|flash|onnx)\S*\s*(?:==|=|:|\s)\s*$", re.IGNORECASE)
_WHEEL = when_used(r"\btorch-\d+\.\d+[^\s/\"'`)]*?\.whl", re.IGNORECASE)
_SEVERAL_INDEXES = when_used(r"^\s*Looking in indexes:[^\n]*,", re.IGNORECASE)
"""pip's list of the indexes it searched when there are several (an --extra-index-url, PIP_EXTRA_INDEX_URL
or pip.conf's extra-index-url): a ROCm index among them is searched beside the others, not instead
(https://github.com/pypa/pip/blob/24.2/src/pip/_internal/models/search_scope.py)."""
_INDEX = when_used(r"(?:--index-url|--extra-index-url|-i|--find-links|-f)[=\s]+(\S+)|(https?://(?:download\.pytorch\.org/whl/\S+|rocm\.nightlies\.amd\.com/\S+|repo\.amd\.com/rocm/\S+|stable\.repo\.amd\.com/rocm/\S+|repo\.radeon\.com/rocm/(?:manylinux|windows)/\S+))", re.IGNORECASE)
_EXTRA_INDEX_SETTING_BEFORE = when_used(
    r"(?:\bPIP_EXTRA_INDEX_URL\s{0,3}=\s{0,3}[\"']?|(?<![-\w])(?:(?:global|install)\.)?extra-index-url(?:\s{0,3}[=:]\s{0,3}|\s{1,3}(?:to\s{1,3})?)[\"'`]?)$",
    re.IGNORECASE,
)
"""pip's --extra-index-url in its other spellings right before an index URL: the environment variable
(PIP_EXTRA_INDEX_URL=...), a pip.conf key or ``pip config set global.extra-index-url ...``, or the option
named without its dashes in prose ("referring to the extra-index-url `https://.../nightly/rocm6.1/`",
carson-katri/dream-textures#809), also the index it was changed to ("changing the extra-index-url to ..."):
still an extra index, searched beside PyPI. pip takes every long option from PIP_<NAME> and from a configuration
key of that name (https://github.com/pypa/pip/blob/034b95a22cac5fa0ea7bc55054625a5ed549aebd/docs/html/topics/configuration.md),
so the ROCm index is searched beside PyPI there too (signature pip_extra_index_rocm, cuda59)."""
_ROCM_INDEX_NAMED = r"(?:download\.pytorch\.org/whl/(?:nightly/|test/)?rocm|repo\.radeon\.com/rocm|rocm\.nightlies\.amd\.com|repo\.amd\.com/rocm)"
_LATER_RESOLUTION = when_used(
    r"\bpip(?:3(?:\.\d{1,2})?)?\s{1,4}install\b(?![^\n]{0,300}?" + _ROCM_INDEX_NAMED + r")[^\n]{0,200}?\s(?:-r|--requirement)(?:\s{1,4}|=)\S"
    r"|\bpip(?:3(?:\.\d{1,2})?)?\s{1,4}install\s{1,4}(?:(?:-U|--upgrade|--force-reinstall|--no-cache-dir|--user)\s{1,4})*"
    r"(?:(?:-U|--upgrade|--force-reinstall)\s{1,4}(?:torch|pytorch)\b|(?:torch|pytorch)==\d[\w.]*(?![\w.+]))"
    r"(?![^\n]{0,300}?(?:--index-url|--extra-index-url|\s-i\s|\s-f\s|--find-links|" + _ROCM_INDEX_NAMED + r"))"
    r"|(?<!not )(?<!n't )(?<!never )(?<!not run )(?<!n't run )(?<!never run )\buv\s{1,4}(?:sync|run)\b(?![^\n]{0,200}?--no-sync)",
    re.IGNORECASE,
)
"""A later step in the same block that resolves torch again from the indexes it was given (PyPI unless
told otherwise): a requirements file installed without a ROCm index on its line, an upgrade or another
pinned release of torch without an index, a uv project sync or run. After it the ROCm index named before
no longer says which torch is installed: application requirements files pin torch and replace the ROCm
build (AUTOMATIC1111/stable-diffusion-webui#14994, amd/playbooks#69, ROCm/bitsandbytes#37,
Comfy-Org/ComfyUI#10680), as does `uv sync` from a project's lockfile (debpalash/VoiceStudio#1665)."""
_RESOLUTION_NOT_RUN_BEFORE = when_used(
    r"(?:\b(?:not|never|without|instead\s+of|rather\s+than|skip(?:ped|ping)?|avoid(?:ed|ing)?)|n['’]t)\b[^.!?;\n]{0,30}$"
    r"|\b(?:readme|docs?|documentation|guide|instructions?|wiki|tutorial)\b[^.!?\n]{0,60}$",
    re.IGNORECASE,
)
"""Words before a later resolution that say it did not run or is a document's step ("I did not run pip install -r
requirements.txt", "the README says to run pip install -r requirements.txt")."""
_RESOLUTION_NOT_RUN_AFTER = when_used(
    r"(?:[^.!?\n]|[.!?](?=\S)){0,120}?\b(?:but|and)\s{1,4}(?:I\s{1,4})?(?:skipped|did\s?n['’]?t|did\s+not|have\s?n['’]?t|have\s+not|never)\b",
    re.IGNORECASE,
)
"""Words after it in its sentence that say it was not run ("... pip install -r requirements.txt, but I skipped that")."""


_PARAGRAPH_BREAK = when_used(r"\n[ \t]*\n")


def _same_step_run(block: Block, breaks: List[int], start: int, end: int) -> bool:
    """A later resolution at ``end`` belongs to the same run of steps as the ROCm index before it (ending at
    ``start``): in a fenced or ``<details>`` block always (one output, one transcript); in prose only within one
    paragraph, as a fenced report's separate command blocks would be read (learn56f: renfald/tail-tagger#17 fenced
    its ROCm install and its later ``pip install -r requirements.txt`` apart, and kept the ROCm build; with the fences
    stripped, the two commands are paragraphs of one prose block and must be read alike). ``breaks``: where the
    block's blank lines start, in order."""
    if block.kind != "prose":
        return True
    at = bisect_left(breaks, start)
    return at == len(breaks) or breaks[at] >= end


def _resolution_ran(text: str, match: "re.Match[str]") -> bool:
    """The later resolution ``match`` is a step the report shows run: not denied, skipped, asked about, advised
    or a document's (then the ROCm index named before it still says which torch was installed)."""
    before = text[max(0, match.start() - 80) : match.start()]
    return not (
        _RESOLUTION_NOT_RUN_BEFORE.search(before)
        or _move_not_made(text, match)
        or _SENTENCE_ASKS.match(text, match.end())
        or _RESOLUTION_NOT_RUN_AFTER.match(text, match.end())
    )


_OPT_ROCM = when_used(r"/opt/rocm-(\d+\.\d+(?:\.\d+)?)(?![\w.])")
_ROCM_WORD = when_used(r"(?<![\w/+%.-])ROCm(?:\s+|-|\s+version\s*:?\s*|\s+(?:version\s+)?is\s+(?=v?\d+\.\d)|\s*:\s*|(?=v?\d+\.\d))v?(\d+\.\d+(?:\.\d+)?|[5-9]|1\d)(?!\w|\.\d)", re.IGNORECASE)
"""``ROCm 6.2``, ``ROCm-6.2``, ``ROCm: 6.2``, ``my ROCm version is 6.2`` (a dotted release after "is") and, in prose, ``rocm6.2`` (how wheel tags spell it; a tag after ``+`` or
in a URL or path is the torch build's, not read here, and a release followed by wheels/torch is read as the build's below)."""
_GAP = r"[\s>]{1,6}"  # spaces, a line break or a quoting mark ("> ") of a wrapped or quoted sentence (bounded: linear time)
_REQUIRED_WORDS_TAIL = r"(?:[\s>]{0,6}(?:\b(?:at" + _GAP + r"least|an?|the|version|of|minimum|min)\b|>=|\u2265)){0,3}[\s>]{0,6}$"
"""What may stand between a requiring word and the release it requires ("requires at least the version ...")."""
_ROCM_REQUIRED_BEFORE = when_used(
    r"(?:\b(?:requires?|required|requiring|needs?|needed|needing|minimum|min|at" + _GAP + r"least)\b|>=|\u2265)"
    + _REQUIRED_WORDS_TAIL,
    re.IGNORECASE,
)
"""Words just before a ROCm release that make it a requirement, not the release installed: "requires ROCm 6.0",
"needs at least ROCm 6.1", "requires >=ROCm5.6" (torch.cuda's amdsmi message), "support to >= ROCm 6.3.0"."""
_NOT_A_REQUIREMENT_OBJECT = r"(?!" + _GAP + r"(?:me|us|you|him|her|them|it|a|an|the|to|some|my|our|its|this|that)\b)"
_ROCM_REQUIRED_AFTER = when_used(
    r"(?:" + _GAP + r"(?:release|version|series))?(?:\+(?![\w.])"
    + r"|" + _GAP + r"(?:or|and)" + _GAP + r"(?:later|newer|higher|above|greater|up)\b"
    + r"|" + _GAP + r"(?:minimum|min)\b"
    + r"|" + _GAP + r"(?:(?:is|are|was)" + _GAP + r")?(?:required|needed)\b" + _NOT_A_REQUIREMENT_OBJECT
    + r"|" + _GAP + r"(?:is|are|was)" + _GAP + r"(?:the" + _GAP + r")?(?:oldest|minimum|lowest|mandatory|necessary)\b"
    + r"|" + _GAP + r"(?:(?:is|are|was)" + _GAP + r")?(?:the" + _GAP + r")?(?:oldest|newest|latest|lowest|highest|minimum)"
    + _GAP + r"supported\b)",
    re.IGNORECASE,
)
"""Words just after a ROCm release that make it a requirement: "ROCm 6.0+", "ROCm 6.0 or later", "ROCm 6.0
minimum", "ROCm 6.2 is required", "ROCm 5.5 is oldest for PyTorch 2.1", "ROCm 6.4 is the newest supported";
not a past verb with its object ("ROCm 6.2 required a reboot" is said of the release installed)."""


def _rocm_required(text: str, match: "re.Match[str]") -> bool:
    """The ROCm release ``match`` names is one the clause requires or sets as a floor (:data:`_ROCM_REQUIRED_BEFORE`,
    :data:`_ROCM_REQUIRED_AFTER`), not the system's: "[WARN] ROCm rocm5.7 detected but PyTorch ROCm wheels require
    ROCm 6.0+" (unsloth-8402) reads 5.7 and skips 6.0. An installed release said in words ("I have ROCm 6.0
    installed", "running ROCm 6.2") is still read. Sources, each a requirement beside the system's own release:
    ROCm/rocprofiler-compute#64 ("using rocm/5.1.0" beside "require rocm 5.2.0 or newer"), ROCm/numba-hip#5 ("ROCM
    6.1" installed beside support restricted "to >= ROCm 6.3.0"), ROCm/hipfort#12 ("ROCm 3.3.0 is currently in use"
    beside "We need ROCm 3.5"), ROCm/rocWMMA#491 ("require at least ROCm version ..." beside "The detected ROCm
    version is ..."), pytorch/pytorch#171126 (torch.cuda's "requires >=ROCm5.6" amdsmi message)."""
    return _required(_ROCM_REQUIRED_BEFORE, text, match)


def _required(before: WhenUsed, text: str, match: "re.Match[str]") -> bool:
    """Whether the words just before the release ``match`` names (``before``) or just after it
    (:data:`_ROCM_REQUIRED_AFTER`) make it a requirement."""
    if before.search(text, max(0, match.start() - 40), match.start()):
        return True
    return bool(_ROCM_REQUIRED_AFTER.match(text, match.end(), match.end() + 40))


_TORCH_REQUIRED_BEFORE = when_used(
    r"(?:\b(?:requires?|required|requiring|needs?|needed|needing|depends?" + _GAP + r"on|depending" + _GAP + r"on|relies"
    + _GAP + r"on|relying" + _GAP + r"on|minimum|at" + _GAP + r"least)\b|>=|\u2265)"
    + _REQUIRED_WORDS_TAIL,
    re.IGNORECASE,
)
"""Words just before a torch release that make it another package's requirement, not the torch installed: "xformers
requires PyTorch 2.8.0" (facebookresearch/xformers#1312, beside the 2.7.1 AMD's wheels offer), "The latest xformers
(v0.0.23) requires PyTorch v2.1.1" (vllm-project/vllm#2045), "AMD ROCm 6.2 requires torch-2.4.1"
(instructlab/instructlab#2446), "flash_attention depends on PyTorch ..." (EmbeddedLLM/vllm#8)."""


def _torch_required(text: str, match: "re.Match[str]") -> bool:
    """The torch release ``match`` names is one a clause requires (:data:`_TORCH_REQUIRED_BEFORE`, or the words after
    it that :data:`_ROCM_REQUIRED_AFTER` reads for ROCm: "torch 2.4+", "torch 2.4 or newer", "torch 2.4 is required"),
    not the torch in use; an installed torch said in words beside it is still read."""
    return _required(_TORCH_REQUIRED_BEFORE, text, match)


_CHANGED_FROM = when_used(r"\b(?:updat|upgrad|downgrad|mov|switch|migrat|went|go|coming)\w*\s+(?:\w+\s+){0,2}from\s+$", re.IGNORECASE)
"""Words before a release the report moved away from ("after updating from ROCm 5.7.1 to ROCm 6.0")."""
_LOCAL = r"(?:(?:\+|%2B)[0-9A-Za-z](?:[0-9A-Za-z.]*[0-9A-Za-z])?)?"
_TORCH_CHANGE = when_used(
    rf"\b(?:updat|upgrad|downgrad|switch|mov|migrat|go|went|coming)\w*\s+(?:(?:my|the|our)\s+)?"
    # torch must be named (or the release carry a torch local tag): "Adrenalin updated from 24.3.1 to
    # 24.8.1" next to a torch line is a driver's move, not torch's
    rf"(?:(?:py)?torch\s+(?:version\s+)?from\s+(?:(?:py)?torch(?:==|\s+)v?)?|from\s+(?:py)?torch(?:==|\s+)v?|from\s+v?(?=\d+\.\d+(?:\.\d+)?\+(?:rocm|cu\d|cpu)))"
    rf"({_VERSION}{_LOCAL})\s+to\s+(?:(?:py)?torch(?:==|\s+))?v?({_VERSION}{_LOCAL})(?!\w|\.\w)",
    re.IGNORECASE,
)
"""A move between torch releases ("after upgrading from torch 2.7.1 to 2.8.0", "updated PyTorch from
2.7.1 to 2.8.0"): the first is the earlier state, the second the current one."""
_TORCH_NAMED = r"(?:py)?torch(?:==|\s+(?:version\s+)?)v?"
_WORKED = r"(?:works?|worked|working|runs?|ran|(?:is|was)\s+(?:fine|ok|okay|good))(?:\s+(?:fine|ok|okay|well|perfectly))?(?:\s+for\s+(?:me|us))?"
_FAILS = (
    # a bare "not" or "doesn't" fails only before the release's preposition or the clause's end: "torch 2.5.0
    # not tested yet", "not available for my ROCm", "doesn't have wheels for rocm5.7" say nothing of a failure
    r"(?:but\s+)?(?:not(?=\s{1,4}(?:with|on|using|in|since|after)\b)|not\s{1,4}work(?:s|ing)?|fails?|failed|failing|breaks?|broke|broken"
    r"|crash(?:es|ed)?|segfaults?|hangs?|(?:doesn'?t|does\s+not)(?:\s+work|(?=\s{1,4}(?:with|on|using|in|since|after)\b|\s{0,4}(?:[.,;:!)]|$)))"
    r"|(?:is|was)\s+broken)"
)


def _worked_failed(named: str, release: str) -> WhenUsed:
    """A release of one component that worked beside one that fails, in one sentence, for the component ``named``
    (the words before a release, one capture group each) and its ``release`` spelling: "works with X but not with
    Y", "worked fine on X, fails with Y" (groups 1 and 2), "X works fine, Y crashes" (groups 3 and 4). The first
    release is the earlier state (what changed), the second the one in use. Only two releases joined by words of
    both kinds are read; one that is only said to work, or a sentence that says which fixed it ("downgrading to
    X fixes it"), is left alone (see :func:`_worked_then_failed`)."""
    # the gap stays in the sentence; a line break inside it is a wrap ("ROCm 6.1 works fine,\n    ROCm 6.2 crashes"),
    # a blank line ends it
    gap = r"(?:[^.;!?\n]|\n(?![ \t>]*\n))"
    return when_used(
        rf"\b{_WORKED}\s+(?:with|on|using|in)\s+{named}({release})(?!\w|\.\w){gap}{{0,60}}?\b{_FAILS}\s+(?:with|on|using|in|since|after)\s+(?:{named})?({release})(?!\w|\.\w)"
        rf"|{named}({release})\s+{_WORKED}\b{gap}{{0,40}}?{named}({release})\s+{_FAILS}\b",
        re.IGNORECASE,
    )


_TORCH_WORKED_FAILED = _worked_failed(rf"\b{_TORCH_NAMED}", rf"{_VERSION}{_LOCAL}")
"""A torch release that worked beside one that fails. The construct in reports: pytorch/pytorch#103973
("2.0.1+rocm5.4.2 ... only works with torch=1.13.0+rocm5.2"), ROCm/apex#132 ("works for me with PyTorch 2.4.1
and ROCm 6.0.0, but not with PyTorch 2.2.2"), iree-org/iree-turbine#149 ("Version which works for me ...
2.5.0.dev20240802+rocm6.0"; "doesn't work")."""
_ROCM_NAMED = r"(?<![\w/+%.-])ROCm(?:\s+version)?(?:\s+|-)?v?"
_ROCM_WORKED_FAILED = _worked_failed(_ROCM_NAMED, r"\d+\.\d+(?:\.\d+)?")
"""The same construct for ROCm releases ("works with ROCm 6.1 but not with 6.2", "ROCm 6.1 works fine, ROCm 6.2
crashes"): the release that fails is the system's now, the one that worked the earlier state. In reports:
ROCm/legacy-rocm-build#5405 ("ComfyUI workflows work on ROCm 6.4.3, crash on ROCm 7.0.0"), Comfy-Org/ComfyUI#14658
("Working on ROCm7.1, broke on 7.2", the reporter's case as the maintainer restates it); the same pair in other
words, not read here: ROCm/hip#3418 ("worked when rocm was version 5.7. Version 6.0 ... breaks this"),
ROCm/legacy-rocm-build#3808 ("crash on ROCm 6, but works fine on ROCm 5": the failing one first, a major release
alone), #981 ("ROCm 2.2 to 2.9 works / 2.10 and 3.0 does not": ranges). Only dotted releases: a bare "6" after
"fails with" is as often a count ("fails with 8 GPUs")."""


_MOVED_TO_BEFORE = when_used(
    r"\b(?:downgrad\w*|revert\w*|roll(?:ed|ing)?\s+back|go(?:ing)?\s+back|went\s+back|switch\w*|mov(?:e|ed|ing))\s+(?:it\s+)?(?:back\s+)?to\s+(?:the\s+)?$",
    re.IGNORECASE,
)
"""Words right before a release that worked saying it was moved to ("downgrading to ROCm 6.1 works, ROCm 6.2
crashes"): the release moved to is a fix, maybe the one in use now, not an earlier state."""


_WORKING_SETUP_BEFORE = when_used(
    r"(?<!n't\s)(?<!n\u2019t\s)(?<!not\s)(?<!never\s)"
    r"\b(?:(?:is|was)\s+(?:fine|ok|okay|good|working)|works?|worked|working|runs?|ran)(?:\s+(?:fine|ok|okay|well|perfectly|normally|great))?"
    r"\s+(?:with|on|using|under|when\s+(?:I|we)\s+(?:use|used|run|ran|install|installed))\s"
    # up to the release, in the same clause: "it works with my GPU but fails with ROCm 6.2" names the failing one
    r"(?:(?!\b(?:but|fail\w*|crash\w*|break\w*|broke\w*|not|doesn|don|however|though|although|while|whereas)\b)(?:[^.;!?\n]|\.(?=\w))){0,60}$",
    re.IGNORECASE,
)
"""Words before a release in its sentence that name it as a setup that works ("it is fine with pytorch 2.2.0 with
rocm 5.7", "It works fine when I use ROCm 5.7 (pytorch 2.3.1+rocm5.7 ...)", "it was working with ROCm 6.1"), or
(:data:`_WORKING_SETUP_AFTER`) words after it that end its clause so ("ROCm 4.2 worked fine."). When the report names
another release that it reads as the one in use, the working one is evidence of what changed, not the current state
(:func:`_rocm`); alone, it is the release in use ("It works fine with ROCm 6.2 except ..."). In reports:
AUTOMATIC1111/stable-diffusion-webui#15434 ("but it is fine with pytorch 2.2.0 with rocm 5.7" beside the failing
"pytorch 2.1.2 rocm 6.0"), ROCm/legacy-rocm-build#4329 ("It works fine when I use ROCm 5.7 (pytorch 2.3.1+rocm5.7 ...)"
beside "I get this error when running ROCm 6.2"), ROCm/legacy-rocm-build#1557 ("ROCm 4.2 worked fine." beside the
title's "stops working with rocm 4.3.0")."""
_WORKS_NOW_BEFORE = when_used(
    r"\b(?:now|finally|since\s{1,3}then|after\s{1,3}that|afterwards)\b(?:[^.;!?\n]|\.(?=\w)){0,60}$", re.IGNORECASE
)
"""Words before a release said to work, in its sentence, that say it works now ("I reinstalled and now it works fine
with ROCm 6.1", "finally it runs with ROCm 6.1"): a fix that may be the release in use, not an earlier state (rev51g)."""
_WORKING_SETUP_AFTER = when_used(
    r"\s{1,4}(?:works?|worked|(?:is|was)\s+(?:fine|ok|okay|working))(?:\s+(?:fine|ok|okay|well|perfectly|great))?(?=\s{0,4}(?:[.,;!)]|$))",
    re.IGNORECASE,
)


_NOT_BEFORE_WORKED = when_used(
    r"(?:\bnot|n't|n\u2019t|\bnever|\bno\s{1,3}longer|\bnor)\s{1,3}(?:(?:always|really|quite|even|ever)\s{1,3})?$",
    re.IGNORECASE,
)
"""Words right before a pair's "works" that deny it ("It doesn't work with ROCm 6.1, and it also fails with ROCm 6.2",
"never worked with ..."): both releases fail, neither is a state that worked (rev51g)."""


_NAMED_JUST_BEFORE = when_used(r"(?:rocm|torch)(?:\s{1,3}version)?(?:==|\s{1,3}|-)?v?$", re.IGNORECASE)
_BARE_GAP_WORDS = frozenset(
    "but and it still yet however though then now also sadly unfortunately "
    "not doesn't doesnt does work works working is was fail fails failed failing break breaks broke broken "
    "crash crashes crashed segfault segfaults hang hangs with on using in since after fine ok okay well perfectly "
    "for me us".split()
)
"""The words that may stand between a pair's first release and a failing release written without its name ("worked
fine with ROCm 5.7, fails with 6.0", "Working on ROCm7.1, broke on 7.2"): any other word names what the bare number
belongs to ("works with ROCm 6.1 but Blender crashes with 4.2", "... under Python 3.11 but the build fails with 3.12").
Only the failing clause's words are looked at (after its last comma or "but"): "worked with ROCm 5.7 on my RX 6700 XT,
but fails with 6.0" is still read (rev51g)."""


def _bare_release_of_another(text: str, match: "re.Match[str]") -> bool:
    """The pair's failing release (group 2) is written bare and a word between it and the release that worked says
    it is another program's release, not this component's (:data:`_BARE_GAP_WORDS`)."""
    if not match.group(1) or _NAMED_JUST_BEFORE.search(text, max(0, match.start(2) - 24), match.start(2)):
        return False
    gap = text[match.end(1) : match.start(2)].lower().replace("\u2019", "'")
    # only the failing clause's own words count: "worked fine with ROCm 5.7 on my RX 6700 XT, but fails with 6.0"
    clause = re.split(r",|;|\b(?:but|and|yet|however|though)\b", gap)[-1]
    return any(word not in _BARE_GAP_WORDS for word in re.findall(r"[a-z']+", clause))


def _worked_then_failed(block: Block, pattern: WhenUsed) -> List[Tuple[str, str, Line, "re.Match[str]"]]:
    """The pairs (worked, failing) :func:`_worked_failed`'s ``pattern`` finds in ``block`` that the reporter states of
    this machine now: not asked about, planned or tried (:func:`_move_not_made`), not put in the past or on another
    machine by the words before them ("Before, it worked with X but not with Y", "On my other machine ..."), and
    not a move that fixed it ("downgrading to X works, Y crashes")."""
    text = block.text
    found = []
    for match, line in block.scan(pattern):
        worked, failing = (match.group(1), match.group(2)) if match.group(1) else (match.group(3), match.group(4))
        if worked == failing or _NOT_BEFORE_WORKED.search(text, max(0, match.start() - 24), match.start()):
            continue  # "It works with ROCm 6.2 but ... crashes with 6.2", "It doesn't work with ROCm 6.1, and fails with 6.2"
        if _bare_release_of_another(text, match):
            continue  # "It works with ROCm 6.1 but Blender crashes with 4.2"
        if _move_not_made(text, match) or _PAST_BEFORE.search(text, max(0, match.start() - 60), match.start()):
            continue
        if _MOVED_TO_BEFORE.search(text, max(0, match.start() - 40), match.start()):
            continue
        if scope_before(text, match.start(), reach=60, span=120) != NOW:
            continue
        found.append((worked, failing, line, match))
    return found


_TORCH_REGRESSION = when_used(
    rf"\bregress(?:ion|ed)\s+(?:between|from)\s+{_TORCH_NAMED}({_VERSION}{_LOCAL})\s+(?:and|to)\s+(?:{_TORCH_NAMED})?({_VERSION}{_LOCAL})(?!\w|\.\w)",
    re.IGNORECASE,
)
""""a regression between torch 2.5.1 and 2.6.0": the later release is the failing one."""
_ROCM_CHANGE = when_used(
    r"\b(?:updat|upgrad|downgrad|switch|mov|migrat)\w*\s+(?:(?:my|the|our|we|i)\s+)?(?:ROCm\s+(?:version\s+)?from\s+|from\s+ROCm(?:\s+|-))"
    r"v?(\d+\.\d+(?:\.\d+)?)\s+to\s+(?:ROCm(?:\s+|-))?v?(\d+\.\d+(?:\.\d+)?)(?![\w.]*\d)"
    # "from ROCm 6.0 to 6.1 and then to 6.2": the release moved to last is the current one
    r"(?!,?\s+(?:and\s+)?(?:then\s+)?to\s+(?:ROCm\s+)?v?\d)",
    re.IGNORECASE,
)
""""updating ROCm from 6.3 to 6.4", "upgraded from ROCm 6.1.3 to 7.1.1": the release moved to is named
without the word ROCm, so "ROCm 6.4" alone would not read it. The construct, in reports' words:
ROCm/ROCm#3035 ("updating rocm from 6.0.2 to 6.1"), ROCm/ROCm#905 ("I upgraded from rocm 2.8 to
2.9"), ROCm/ROCm#5948 ("after we upgraded from ROCm 6.1.3 to 7.1.1"); for torch,
bitsandbytes-foundation/bitsandbytes#1905 ("upgrading from torch 2.10.0+cu128 to torch 2.11.0+cu130").
"rocm6.2" without a space is the tag of a torch wheel index (download.pytorch.org/whl/rocm6.2), not
the system's ROCm: the word needs a space or a hyphen after it ("from ROCm 6.1", "from rocm-6.1.0")."""
_NOT_DONE_BEFORE = when_used(
    r"\b(?:should|shall|would|could|can|will|wan(?:t|na)|plan(?:s|ned|ning)?|going\s+to|thinking|consider(?:s|ed|ing)?"
    r"|recommend(?:s|ed)?|suggest(?:s|ed)?|try|trying|need\s+to|may|might|if|whether|how"
    # an instruction to the reader ("Make sure you install Torch with CUDA: pip install ...": StoryToolkitAI's README
    # and printed warning, a Jetson project's README)
    r"|make\s+sure|ensure)\b[^.!?,;\n]{0,60}$",
    re.IGNORECASE,
)
"""Words before a move that is asked about, planned or advised, not made ("Should I upgrade ROCm from
6.2 to 6.4?", "try updating from torch 2.7 to 2.8"): the release moved to is not the current one. A
comma ends their reach ("not sure if it matters, but after upgrading from torch 2.7.1 to 2.8.0")."""
_QUESTION_AFTER = when_used(r"[^.!,\n]{0,10}\?")
_TORCH_BUILD_AFTER = when_used(r"[ \t]{0,8}(?:wheel|build|torch|pytorch|index\b|nightl(?:y|ies)\b|whl\b)", re.IGNORECASE)
"""A ROCm release followed by these is a torch build's ("ROCm 6.2 wheels", "rocm6.2 torch"; the index a torch
came from, "from the rocm5.7 index", "the rocm6.4 nightly": download.pytorch.org names its ROCm indexes
/whl/rocmX.Y and /whl/nightly/rocmX.Y, https://pytorch.org/get-started/previous-versions/). The words must follow
on the same line: a field list's next line ("ROCm 6.2" above "torch: 2.5.1") names the next part."""


_ROCM_MOVED_TO = when_used(
    # rev48e: the mover is the reporter ("I"/"we") or a time clause ("after updating", "since I upgraded"): not
    # a gerund's advice ("Upgrading ROCm to 6.2 might fix it"), an imperative ("Don't update ROCm to 6.2"),
    # another person ("My friend upgraded ROCm to 6.2") nor a project ("PyTorch upgraded ROCm to 6.2 in 2.5").
    r"(?:\b(?:I|we)\s+(?:(?:have|had|just|recently|then|also|finally|already|now)\s+){0,2}"
    r"|\b(?:after|since|when|once)\s+(?:(?:I|we)\s+)?(?:(?:have|had|just|recently)\s+){0,2})"
    r"(?:updat|upgrad|downgrad|switch|mov|migrat)\w*\s+(?:(?:my|the|our|system)(?:'s)?\s+){0,2}ROCm\s+(?:version\s+)?"
    r"to\s+(?:ROCm(?:\s+|-)?|version\s+)?v?(\d+\.\d+(?:\.\d+)?)(?![\w.]*\d)"
    r"(?!\s{0,8}(?:wheels?|builds?|torch|pytorch|index|nightl(?:y|ies)|whl)\b)",
    re.IGNORECASE,
)
_MOVE_UNDONE_OR_ELSEWHERE_AFTER = when_used(
    r"[^.!?\n]{0,80}?(?:\b(?:went|gone|going|go|switched|rolled|moved|came)\s+back\b|\brevert\w*|\broll(?:ed|ing)?\s+back\b"
    r"|\bdowngrad\w*\s+(?:it\s+|ROCm\s+)?(?:back|again|to)\b|\b(?:in|inside)\s+(?:the\s+|a\s+|my\s+|our\s+|this\s+)?(?:docker|container|image|vm|virtual\s+machine|chroot|distrobox|toolbox)\b)",
    re.IGNORECASE,
)
"""rev48e: the rest of the sentence after "I upgraded ROCm to 6.2" undoes the move ("but then went back to 6.1",
"so I reverted", "and downgraded again") or puts it in a container or VM ("in the container, the host still has 6.0"):
the release moved to is not the system's now, or not the host's."""
"""trm48: a move to a release with ROCm named before "to" ("I upgraded ROCm to 6.2.2", "after updating my ROCm to
6.1", "downgraded ROCm to version 6.1.3"): the release moved to is the system's now (_ROCM_CHANGE reads the
form with "from"; a plan or question is left to _move_not_made). Forms of ROCm/tensorflow-upstream#444,
ROCm/legacy-rocm-build#764 and ollama/ollama#12111."""
_PAST_BEFORE = when_used(
    r"\b(?:before|(?:previously|originally)(?!" + NAMED_BY_ITS_PAST + r")|earlier|at\s+first|used\s+to|last\s+working|on\s+my\s+other\s+(?:machine|pc|computer))\b(?:[^.!?;\n]|\.(?=\w)){0,60}$",
    re.IGNORECASE,
)
"""Words earlier in a sentence that put what it names in the past ("Before, I used pytorch rocm5.6 and it worked"):
the torch build named there is not the one in use. A dot inside a version ("Before the update I had torch
2.4.1+rocm6.1 and ROCm 6.1.3") does not end the sentence."""


_TORCH_PAST_BEFORE = when_used(
    r"\b(?:(?:previously|originally)(?!" + NAMED_BY_ITS_PAST + r")|at\s+first|used\s+to|before\s*[:\-]|before\s+(?:the\s+|my\s+|i\s+|we\s+)?(?:up(?:date|grade)|updating|upgrading|re-?install\w*)"
    r"|(?:the|my|an?)\s+(?:previous|prior|older|old)\s+(?:image|snapshot|container|version|install\w*|venv|environment|setup|build|release|tag)\b(?:(?!\band\b)[^.!?;,\n]){0,30}?\b(?:had|has|have|was|with|shipped|ships|came\s+with|used|uses|ran|runs))"
    r"(?![\w-])"
    # a new clause after the past words speaks of the present or of what followed: "Previously it crashed,
    # now torch 2.5.1+rocm6.2 works", "before: fine, but after the update torch 2.6.0+cu124"
    r"(?:(?!\b(?:now|currently|today|but|then|after|since|until|instead|however|which|while|so)\b|,\s*(?:i|we|you|they)\s)[^.!?;\n]){0,60}$",
    re.IGNORECASE,
)
"""Words before a torch release, in its sentence, that put it in an earlier state than the one in use
("Previously I had torch 2.5.1+rocm6.2", "pip list before: torch 2.4.0+rocm6.1", "It used to run on
2.4.1+rocm6.1", "The previous image had 2.9.1+rocm7.2.3"; not "I replaced the old venv and ran pip install torch==...",
whose "and" starts the reporter's next act). Narrower than :data:`_PAST_BEFORE`: a bare
"before" starts a clause as often as it labels a past ("Before running it, I installed torch 2.5.1+rocm6.2"
installed the torch in use), so only "before:" and "before the update" count. The construct in reports
(an install step replaced a ROCm torch with the default CUDA or CPU one, the earlier release named beside
the current one): YanWenKun/ComfyUI-Docker#187 ("The previous snapshot ... has 2.9.1+rocm7.2.3"),
invoke-ai/InvokeAI#8083 ("had AMD ROCM working and now the update is complaining about CUDA"),
easydiffusion/easydiffusion#1607 (the installer replaced 1.13.1+rocm5.2 with torch 2.0)."""
_TORCH_PAST_AFTER = when_used(
    # a subject or a conjunction in between starts another clause: "torch==2.6.0+rocm6.2.4\nIt worked before the
    # update" says nothing of when that torch was in place
    r"(?:(?!\b(?:it|i|we|they|he|she|this|that|everything|which|but|and|so)\b)[^.!?;,\n]){0,30}?\b(?:at\s+first|before\s+(?:the\s+|my\s+)?(?:up(?:date|grade)|updating|upgrading|re-?install\w*))\b",
    re.IGNORECASE,
)
"""Words after a torch release in its clause that put it in an earlier state ("I installed torch 2.3.0+rocm5.7 at
first and it worked", "torch 2.4.1+rocm6.1 before the update")."""
_TORCH_SENTENCE_ASKS = when_used(r"[^.!\n]{0,200}\?")
"""The rest of a torch release's sentence ends as a question. (Named apart from the kernel readers' :data:`_SENTENCE_ASKS`
further down: under one name, that later one was the pattern :func:`_torch_past` ran.)"""


_PROBLEM_ABSENT_WITH_BEFORE = when_used(
    r"\b(?:does|did|do|is|was)(?:n't|n\u2019t|\s{1,3}not)\s{1,3}(?:reproduce|happen|occur|appear|show\s{1,3}up)(?:s|ed)?"
    r"(?:\s{1,3}(?:here|there|at\s{1,3}all))?\s{1,3}(?:with|on|in|under|using|for)\s"
    r"(?:(?!\b(?:but|only|except|whereas|while|however|instead|though|although|yet)\b)(?:[^.!?;:,\n]|\.(?=\w))){0,60}$",
    re.IGNORECASE,
)
"""Words before a release in its sentence that name it as a setup where the reported problem is absent ("The issue
didn't reproduce on Pytorch 2.0 with ROCm 5.4", "This does not happen with the same version of PyTorch built with
ROCm 7.13"): a state compared with the failing one, evidence of what changed, never the release in use. The form in
reports: ROCm/k8s-device-plugin#65, ROCm/legacy-rocm-build#6601, ollama/ollama#12045 ("does not occur in versions
0.11.4 and earlier"), ollama/ollama#7715 ("doesn't happen on version 0.3 of ollama"). review66: the setup named
right after "with/on/in" and the release in one clause, as in all four; a comma, colon or contrast word between them
("does not happen with small batches, but with batch size 64 on ROCm 6.2 it segfaults", "doesn't happen in ComfyUI,
only in A1111 with torch 2.5.1+rocm6.2") turns to the failing setup, and "... with torch 2.5.1+rocm6.2 any more"
(:data:`_GONE_NOW_AFTER`) names the torch in use, where the problem went away."""
_GONE_NOW_AFTER = when_used(r"[^.!?;:,\n]{0,40}?\b(?:any\s?more|no\s{1,3}longer)\b", re.IGNORECASE)
"""After a release the problem "does not happen with": words that say it went away there, so the release is the one
in use ("The freeze does not happen with torch 2.5.1+rocm6.2 any more")."""


def _torch_past(text: str, begin: int, end: int) -> bool:
    """The torch release from ``begin`` to ``end`` is named as an earlier state, not the one in use (and not in a
    question: "Did you have torch 2.4.1+rocm6.1 before the update?" asks)."""
    window = _SOFT_BREAK.sub(" ", text[max(0, begin - 120) : begin])
    after = _SOFT_BREAK.sub(" ", text[end : end + 200])
    absent_with = _PROBLEM_ABSENT_WITH_BEFORE.search(window) and not _GONE_NOW_AFTER.match(after)
    if not (_TORCH_PAST_BEFORE.search(window) or _TORCH_PAST_AFTER.match(after[:60]) or absent_with):
        return False
    return not _TORCH_SENTENCE_ASKS.match(after)


_WISHED_BEFORE = when_used(
    r"\b(?:should|would|could|wan(?:t|na)|plan(?:s|ned|ning)?|going\s+to|thinking|consider(?:s|ed|ing)?|recommend(?:s|ed)?|suggest(?:s|ed)?)\b[^.!?,;\n]{0,40}$",
    re.IGNORECASE,
)
"""Words before a system release that make it one asked about, wished or advised, not installed ("Should I install
ROCm 6.0", "I want to install ROCm 6.0 next"); narrower than :data:`_NOT_DONE_BEFORE`, whose "if"/"how"/"can" are
common around a release that is installed ("not sure if ROCm 6.2 is set up right")."""


_MOVE_TARGET_BEFORE = when_used(r"\bfrom\s+ROCm[\s-]v?\d{1,2}(?:\.\d{1,3}){0,2}\s+to\s+$", re.IGNORECASE)
"""Words before the release a move names as its goal ("from ROCm 6.2 to ROCm 6.4")."""


_TRIED_BEFORE = when_used(r"\b(?:tried|attempted)\b(?:[^.!?;\n]|[.!?](?=\S)){0,60}$", re.IGNORECASE)
_NOT_NOW = r"(?!now\b)"
""""... and now I get errors": what follows "now" is the state the attempt left, not its failure."""
_FAILED_AFTER = when_used(
    rf"^(?:{_NOT_NOW}(?:[^.!?\n]|[.!?](?=\S))){{0,80}}?(?:\bbut\b|\band\b|\bthen\b|[,:;])\s{{0,4}}(?:{_NOT_NOW}\w+\s+){{0,4}}?(?:fail(?:s|ed|ing|ure)?|errors?|could\s*n[o'’]?t|can\s*n[o'’]?t|unable|did\s*n[o'’]?t\s+(?:work|install|succeed))\b"
    rf"|^(?:{_NOT_NOW}(?:[^.!?\n]|[.!?](?=\S))){{0,12}}[.:,]?\s{{0,4}}(?:I\s+)?(?:got|get|ran\s+into|hit)\s+(?:the\s+following|this|an?)\s+(?:\w+\s+)?error",
    re.IGNORECASE,
)
"""An attempt that failed ("I tried upgrading from ROCm 6.1 to 6.2 but it failed", "When I tried installing
`torch==2.9.0a0+rocm7.0.0rc20250815`, I got the following error" (ROCm/TheRock#1257), "when trying to
install rocm-3.10 ... error" (ROCm/ROCm#1315), "I just tried to install rocm ... encountered repeated
failures" (ROCm/ROCm#1658)): what it would have installed is not the current state. The failure follows
a conjunction or a comma ("but it failed", ", the install failed", ", I got the following error"); "I
tried updating to the latest version and now ..." or "tried upgrading to fix the error" says no failure
of the attempt and keeps the new release."""


_REMOVED_BEFORE = when_used(
    r"(?<!\bnot\s)(?<!n't\s)(?<!n’t\s)(?<!\bnever\s)\b(?:uninstall(?:s|ed|ing|ation\s+of)?|removal\s+of|remov(?:e|es|ed|ing)|delet(?:e|es|ed|ing)|purg(?:e|es|ed|ing)"
    r"|replac(?:e|es|ed|ing)|overwr(?:ite|ites|ote|itten|iting)|got\s+rid\s+of)\b"
    r"(?:(?!\b(?:and|then|with|by|to|but|instead|now|so|which|while|because|since|after|before|i|we|you|they|use[sd]?|using|ha[sd]|have|got|went|switch\w*|mov\w*|(?:re)?install\w*)\b)[^.!?;\n]){0,60}$",
    re.IGNORECASE,
)
"""Words before a torch release that make it the object of a removal ("the installer uninstalls the right torch
version (1.13.1+rocm5.2) and then installs ...", easydiffusion/easydiffusion#1607; "replaced torch 2.2.1+rocm5.7
with ..."): that build is the earlier state, what changed, not the torch in use; pip's own removal lines
("Successfully uninstalled torch-...") are the install-log reader's. What follows "and", "then", "with", "by"
or an install verb is the build put in place, and a new clause ("removed, so I use ...", "which", a
subject pronoun) names another state: the removal does not reach either. Not a removal denied ("did not
uninstall"), asked about or planned (:data:`_NOT_DONE_BEFORE`), nor one in a question."""


_NEGATED_BEFORE = when_used(r"(?:\b(?:not|never|without|no\s+longer)|n['’]t)\b(?:\s+\w+){0,2}\s*$", re.IGNORECASE)
"""A negation a word or two before the removal verb ("haven't yet removed", "without removing", "did not
actually uninstall"): the removal was not made (the verb's own look-behinds see only the word next to it)."""


_TORCH_OBJECT = when_used(r"[^,]{0,200}?\b(?:py)?torch\b", re.IGNORECASE)
"""The object of a removal, up to the first comma, names torch."""


_SOFT_BREAK = when_used(r"\n(?![ \t]*(?:[-*+>#|]|\d+[.)]|```|\n))")


def _removed_earlier(text: str, begin: int, end: int) -> bool:
    """The torch release from ``begin`` to ``end`` is named as removed or replaced, in a removal that was made."""
    # a soft line break (a paragraph wrapped by the reporter or a mail client) joins the sentence; a list
    # item, quote, heading or fence after the break starts another statement
    window = _SOFT_BREAK.sub(" ", text[max(0, begin - 90) : begin])
    removal = _REMOVED_BEFORE.search(window)
    if removal is None:
        return False
    before_verb = window[: removal.start()]
    # the removal's object is torch: "torch" or "PyTorch" comes before any comma after the verb ("uninstalled
    # the distro rocm packages, torch 2.5.1+rocm6.2 still ..." removed the packages, not the torch named next)
    if not _TORCH_OBJECT.match(window[removal.start() :] + text[begin:end]):
        return False
    return not (_NOT_DONE_BEFORE.search(before_verb) or _NEGATED_BEFORE.search(before_verb) or _QUESTION_AFTER.match(text, end, end + 12))


def _attempt_failed(text: str, begin: int, end: int) -> bool:
    """The text from ``begin`` to ``end`` is the object of "tried"/"attempted" and the sentence says it failed."""
    return bool(_TRIED_BEFORE.search(text[max(0, begin - 80) : begin]) and _FAILED_AFTER.search(text[end : end + 120]))


_INSTALL_COMMAND = when_used(r"\b(?:pip3?|uv[ \t]+pip|uv|poetry|pipx)[ \t]+(?:install|add)\b", re.IGNORECASE)
_SHORT_QUESTION = when_used(
    r"[ \t]{0,8}(?:or\b|(?:would|will|should|could|can)\s+(?:that|this|it|these)\b|is\s+(?:that|this)\s+(?:the\s+)?(?:right|correct)\b)"
    r"[^\n?]{0,60}\?[ \t]*$",
    re.MULTILINE | re.IGNORECASE,
)
"""The line after the command asking about it in a short question: another choice ("or the rocm one?"), whether
it would do ("Would that work on my card?", "Is this the right one?"); a question of its own ("Any ideas?",
"Why is it not using the GPU?") asks about the run, not about the command."""
_DONE_BY_AUTHOR = when_used(
    r"\b(?:I|we)(?:'ve|\s+have)?\s+(?:\w+\s+){0,2}?(?:ran|installed|reinstalled|used|did|typed|executed|tried|followed)\b",
    re.IGNORECASE,
)
"""The line before the command saying the author ran it ("This is how I installed it:", "For completeness, I
installed it like this:"): the command is a report of what was done, not a question or an advice."""
_OWN_FRAMING = when_used(
    r"^[ \t>*-]{0,8}(?:if|in\s+case|for)\s+(?:(?:it|this|that)\s+)?(?:helps?|matters?|is\s+relevant|relevant|reference|context"
    r"|completeness|the\s+record|what\s+it['\u2019]?s\s+worth|info(?:rmation)?)\b",
    re.IGNORECASE,
)
"""A reporter's framing of what follows as their own ("In case it matters:", "For context:", "If it helps, the
install command was:"), not a case an advice is for ("If you have an NVIDIA card, run:", "For CUDA 12.1:")."""
_ADVICE_LINE = when_used(r"^[ \t>*-]{0,8}(?:if|for|in\s+case)\b[^\n]{0,120}:[ \t]*$", re.IGNORECASE)
"""A line that introduces an install command as advice for a case: "If you have an NVIDIA card, run:", "For
CUDA 12.1:" (a README's or a reply's instructions)."""
_FRAME_TAIL = r"(?:(?!\b(?:I|we|and|then|ran|installed|did|typed|executed|mistake|accident\w*|with|by)\b)(?:[^\n,;.!?]|\.(?=\w))){0,60}$"
"""What may stand between the words that frame an install command as not run and the command: no clause or sentence
end, no "and"/"then", no words of the reporter running it ("I followed the guide for NVIDIA by mistake and ran pip
install ...", "Instead of the rocm index, I ran pip install ...", "I replaced the old venv and ran pip install ..."
ran the command), and for a replacement no "with"/"by" (the command after "with" is the one put in place)."""
_NOT_RUN_SAME_LINE = when_used(
    r"(?:\b(?:for|on|with)\s+(?:an?\s+|the\s+|your\s+)?nvidia\b|\bif\s+you\s+(?:have|use|are\s+on|run)\s+(?:an?\s+|the\s+)?nvidia\b"
    r"|\bnvidia\s+(?:users?|owners?)\b"
    # a label or a table cell naming NVIDIA or CUDA as the case the command is for ("NVIDIA: pip install ...",
    # "| NVIDIA | pip install ... |", "CUDA 12.1: pip install ..."): one row of instructions per GPU vendor
    r"|(?:^|\|)[ \t>*_-]{0,8}(?:for[ \t]{1,4})?(?:nvidia|cuda)\b[^\n:|]{0,24}[:|])" + _FRAME_TAIL +
    # advice against the command itself: "Don't run pip install ...", "never use `pip install ...`", "avoid running ..."
    r"|\b(?:don['\u2019]?t|do\s+not|never|avoid)\s+(?:(?:ever\s+)?(?:run|use|type|execute|install|do|try)\w{0,4}\s+)?(?:the\s+|this\s+|that\s+)?(?:command\s+)?[`\"'(]{0,2}\s{0,2}$"
    # the command a change took out, named right after the verb ("I replaced `pip install ...`", "instead of pip install ...")
    r"|\b(?:replac(?:e|es|ed|ing)|instead\s+of|rather\s+than|swap(?:s|ped|ping)?\s+out)\b" + _FRAME_TAIL,
    re.IGNORECASE,
)
"""Words before an install command on its own line that say it is not what this machine ran: advice for NVIDIA
hardware ("For NVIDIA cards use pip install ... cu121", "NVIDIA users: pip install ...", a label or table cell
"NVIDIA:" / "| CUDA 12.1 |" before it; the same case
:data:`_ADVICE_LINE` reads on the line before), advice against it ("Don't run pip install ... cu121") or the command a change took out ("I replaced `pip install
torch==2.0.1+cu118 ...` with the rocm one", "instead of pip install ... cu121"; the command after "with" is the one
put in its place, and is read): the index it names is no build in place now."""


CUDA_INDEX_INSTALL = "torch_cuda_index_install"
"""Context id: an install command in the report, run and not asked about or advised, names PyTorch's CUDA wheel
index for torch (``pip install torch torchvision torchaudio --extra-index-url https://download.pytorch.org/whl/cu121``,
``uv pip install``, ``python -m pip install``, ``py -3.10 -m pip install``, the index before or after the packages):
the command puts a CUDA build in place, whatever else the report shows (RD767 judges it). Real reports: a launcher
script's command for the AMD option (mcmonkeyprojects/SwarmUI#141, fixed by SwarmUI's 3afee0a;
Stability-AI/StableSwarmUI#269) and a wiki's xformers command that pinned torch==2.0.1+cu118 from the cu118 index
(easydiffusion/easydiffusion#1603). Not on a commented-out line (``# RUN pip install ... cu121`` in a Dockerfile:
Comfy-Org/ComfyUI#6444), nor for a command :func:`_install_command_asked_about` says was not run, pip refused
(:data:`_PIP_REFUSED_AFTER`) or a later ROCm --index-url install replaced (:func:`drop_superseded_cuda_index_installs`)."""
_NOT_CUDA_TORCH_PIN = when_used(r"(?<![\w./-])torch[ \t]{0,2}={1,3}[ \t]{0,2}\d{1,3}(?:\.\d{1,4}){0,3}(?:\.?dev\d{1,10})?\+(?:rocm|cpu)", re.IGNORECASE)
"""A torch pinned to a ROCm or CPU build on the command's line ("pip install torch==2.3.0+rocm6.0 --extra-index-url
.../cu121"): the CUDA index cannot serve that pin, the command installs no CUDA torch."""
_COMMENTED = when_used(r"^\s{0,8}(?:#|::|//|rem\b)", re.IGNORECASE)
_TORCH_PACKAGE = when_used(r"(?<![\w./-])torch(?![\w-])", re.IGNORECASE)


_PIP_REFUSED_AFTER = when_used(
    r"(?:[^\n]{0,400}\n){0,6}?[ \t>]{0,8}(?:ERROR|error):?\s{1,4}(?:Could\s{1,4}not\s{1,4}find\s{1,4}a\s{1,4}version|No\s{1,4}matching\s{1,4}distribution"
    r"|Cannot\s{1,4}install|ResolutionImpossible|Could\s{1,4}not\s{1,4}install)"
)
"""pip's refusal within the few lines after a command ("ERROR: Could not find a version that satisfies the requirement
torch==2.3.0+cu121", "ERROR: No matching distribution found for torch"): the command installed nothing."""


def _torch_index_install(text: str, match: "re.Match[str]") -> bool:
    """The index ``match`` names stands in a torch install command on its line that pip did not refuse: the line is
    not commented out, an install command stands before the index, torch is one of the line's packages and no pip
    refusal (:data:`_PIP_REFUSED_AFTER`) follows within a few lines."""
    begin = text.rfind("\n", 0, match.start()) + 1
    end = text.find("\n", match.end())
    line = text[begin : end if end >= 0 else len(text)]
    if _COMMENTED.match(line):
        return False
    if _INSTALL_COMMAND.search(text, begin, match.start()) is None or _TORCH_PACKAGE.search(line) is None:
        return False
    return end < 0 or _PIP_REFUSED_AFTER.match(text, end + 1) is None




_REPLACES_TORCH = when_used(
    r"(?:--force-reinstall|--ignore-installed|--upgrade|(?<![\w-])-U(?![\w-])|(?<![\w./-])torch[ \t]{0,2}={1,3}[ \t]{0,2}\d{1,3}(?:\.\d{1,4}){0,3}(?:\.?dev\d{1,10})?\+rocm)"
)
"""What makes pip replace a torch already installed: --force-reinstall, --upgrade/-U, or a pin to a +rocm build that
the installed +cuNNN torch does not satisfy. Without it, "pip install torch --index-url .../rocm6.2" over a CUDA
torch says "Requirement already satisfied" and keeps it (without --upgrade the resolver sees only the installed version
as a candidate; --force-reinstall and --ignore-installed install anyway: pip's upgrade-options.rst at
https://github.com/pypa/pip/blob/f31299753398b9011892bf5cb5b0191db7c0338f/docs/html/development/architecture/upgrade-options.rst)."""
_REMOVAL_TOLD = when_used(r"\b(?:re-?install\w{0,6}|uninstall\w{0,6})\b", re.IGNORECASE)
"""Words between the two commands saying torch was taken out first ("then I reinstalled with ...", "pip uninstall torch")."""


def drop_superseded_cuda_index_installs(blocks: List[Block], pieces: List[Piece]) -> None:
    """A CUDA index install (:data:`CUDA_INDEX_INSTALL`) followed, on a later line of the report, by a run torch install
    from a ROCm index with --index-url or -i (pip searches that index alone) that replaced the torch there
    (:data:`_REPLACES_TORCH` on its line, or :data:`_REMOVAL_TOLD` between the two) is no command in effect now: "then I
    reinstalled with pip install torch --index-url .../rocm6.2", in the same paragraph or in a fence of its own. A plain
    ROCm install after it replaces nothing (pip keeps the torch installed). The context is taken out of ``pieces``."""
    cuda_lines = sorted({o.line.number for p in pieces for o in p.observations if o.path == "symptoms.context" and CUDA_INDEX_INSTALL in o.value})
    if not cuda_lines:
        return
    # the lines under an issue template's "Expected Behavior" heading: what should have run, not what ran
    # ("### Expected Behavior\n\nRun pip install ... rocm6.0", mcmonkeyprojects/SwarmUI#141's form)
    lines = sorted((line for block in blocks for line in block.lines), key=lambda line: line.number)
    expected = expected_lines(blocks)
    removals = [line.number for line in lines if _REMOVAL_TOLD.search(line.text)]
    superseded: Set[int] = set()
    for block in blocks:
        if block.scope != "current" or "rocm" not in block.lower:
            continue
        text = block.text
        for match, line in block.scan(_INDEX):
            if line.number in expected or line.number <= cuda_lines[0]:
                continue
            option = match.group(0).lower()
            if match.group(1) is None or not (option.startswith("--index-url") or option.startswith("-i")):
                continue
            if from_index_url(match.group(1)).flavour != "rocm" or _SEVERAL_INDEXES.match(line.text):
                continue
            if _install_command_asked_about(text, match) or not _torch_index_install(text, match):
                continue
            forced = _REPLACES_TORCH.search(line.text) is not None
            for cuda in cuda_lines:
                if cuda < line.number and (forced or any(cuda < number <= line.number for number in removals)):
                    superseded.add(cuda)
    if not superseded:
        return
    for piece in pieces:
        if any(o.path == "symptoms.context" and CUDA_INDEX_INSTALL in o.value and o.line.number in superseded for o in piece.observations):
            piece.observations = [o for o in piece.observations if not (o.path == "symptoms.context" and CUDA_INDEX_INSTALL in o.value and o.line.number in superseded)]


_NON_ROCM_INSTALL_TOLD = ("cuda_torch_install_retold", "non_rocm_torch_install_told", "cuda_packages_install_told")
"""Signature rows (rules/data/signatures.yaml) in which a report tells or shows that an install put a torch that is
not a ROCm build in place, or NVIDIA's CUDA runtime wheels that only PyPI's CUDA build of torch depends on."""


@lru_cache(maxsize=1)
def _non_rocm_install_signatures() -> tuple:
    from rocm_doctor.ingest.signatures import signatures  # the table loads after this module

    return tuple(s for s in signatures() if s.id in _NON_ROCM_INSTALL_TOLD)


def _install_after(block: Block, offset: int, installs: List[Tuple[int, int]]) -> bool:
    """The block tells or shows, after ``offset`` (a ROCm wheel index named), that the install put a torch that is
    not a ROCm build in place: the reporter's words ("I used the rocm6.0 index, but it still downloads the CUDA version
    of torch", "... installed CUDA torch anyway"), or pip's lines fetching NVIDIA's cu12 runtime wheels. Then the index
    is what was asked for, not what came: an installer, a launcher's update step or a requirements file resolved torch
    again from PyPI (LykosAI/StabilityMatrix#1132 and #885, AUTOMATIC1111/stable-diffusion-webui#9402,
    HAMM3REXTREME/ComfyUI-Installer#15). Words before the index ("it installed the CUDA version, so I reinstalled
    from the rocm6.2 index") are an earlier state the index replaced, and are not read."""
    first = block.index_at(offset)
    column = offset - block.offset_of(first)
    return any(index > first or (index == first and end > column) for index, end in installs)


def _non_rocm_installs(block: Block) -> List[Tuple[int, int]]:
    """Where the block tells or shows a non-ROCm install: (line index, end column of the match), each line tried
    once per signature row, so a block with many index URLs is still read once."""
    found: List[Tuple[int, int]] = []
    for signature in _non_rocm_install_signatures():
        if not block.can_hold(signature.plain or signature.pattern):
            continue
        for index, line in enumerate(block.lines):
            if signature.plain is not None and signature.plain.search(line.text) is None:
                continue
            match = signature.pattern.search(line.text)
            # a told install in the past, on another machine or in someone's words ("Before that, the webui had
            # installed the CUDA version", "someone said the installer downloads the CUDA version") came not after
            # the ROCm index on this machine, so the index keeps its flavour (r37b)
            if match is not None and scope_before(line.text, match.end(), reach=240, span=300) == NOW:
                found.append((index, match.end()))
    return found



def _wrapped_command(text: str, begin: int) -> Optional[str]:
    """The words before the last install command on the (at most two) lines before ``begin`` that the line at
    ``begin`` continues: lines that end no sentence (no ".", "!", "?" or ":" at their end, not blank), joined with
    spaces. None when no such command is there."""
    start = begin
    for _ in range(2):
        if start == 0:
            break
        before_begin = text.rfind("\n", 0, start - 1) + 1
        before_line = text[before_begin : start - 1].rstrip()
        if not before_line or before_line[-1] in ".!?:":
            break
        start = before_begin
        found = None
        for found in _INSTALL_COMMAND.finditer(text, start, begin):
            pass
        if found is not None:
            line_begin = text.rfind("\n", 0, found.start()) + 1
            return text[max(line_begin, found.start() - 160) : found.start()].replace("\n", " ")
    return None


def _install_command_asked_about(text: str, match: "re.Match[str]") -> bool:
    """The install command the match stands in is asked about or advised, not run: words of a question or an
    advice before the command on its line ("Would it help to run pip install ...", :func:`_move_not_made`; advice
    for NVIDIA hardware or a command a change took out, :data:`_NOT_RUN_SAME_LINE`), the
    line before it ending in them ("Should I run:") or introducing it for a case ("If you have an NVIDIA card,
    run:"), or the line after it closing a short question ("or the rocm one?")."""
    begin = text.rfind("\n", 0, match.start()) + 1
    command = _INSTALL_COMMAND.search(text, begin, match.start())
    if command is None:
        # a command wrapped over lines (its index or pin on the next line): its words, once the lines join, say
        # whether it was run
        wrapped = _wrapped_command(text, begin)
        return wrapped is not None and bool(_NOT_RUN_SAME_LINE.search(wrapped))
    # the words before the command on its own line: _move_not_made's look-back would reach over the line end into
    # the line before ("This is how I installed it:"), which is judged below with what its author says was done
    if _NOT_DONE_BEFORE.search(text[max(begin, command.start() - 80) : command.start()]) or _QUESTION_AFTER.match(text, match.end(), match.end() + 12):
        return True
    # the command the match stands in is the last one before it on the line ("I replaced `pip install ...cu118` with
    # `pip install ...rocm5.4.2`": the second is what replaced the first)
    nearest = command
    for later in _INSTALL_COMMAND.finditer(text, command.end(), match.start()):
        nearest = later
    # a sentence wrapped over lines ("I replaced `pip install ...cu118`\nwith ...") keeps its words: the line before
    # joins when it ends no sentence and holds no install command of its own
    start = begin
    if begin > 0:
        before_begin = text.rfind("\n", 0, begin - 1) + 1
        before_line = text[before_begin : begin - 1].rstrip()
        if before_line and before_line[-1] not in ".!?:" and _INSTALL_COMMAND.search(before_line) is None:
            start = before_begin
    if _NOT_RUN_SAME_LINE.search(text[max(start, nearest.start() - 160) : nearest.start()].replace("\n", " ")):
        return True
    if _attempt_failed(text, command.start(), match.end()):
        return True
    previous_end = max(0, begin - 1)
    previous = text[text.rfind("\n", 0, previous_end) + 1 : previous_end]
    stripped = previous.rstrip().rstrip(":").rstrip()
    if stripped and not _DONE_BY_AUTHOR.search(stripped) and not _OWN_FRAMING.match(stripped) and (_NOT_DONE_BEFORE.search(stripped[-80:]) or _ADVICE_LINE.match(previous.rstrip())):
        return True
    end = text.find("\n", match.end())
    return end >= 0 and _SHORT_QUESTION.match(text, end + 1) is not None


def _move_not_made(text: str, match: "re.Match[str]", start: Optional[int] = None) -> bool:
    """The move (from ``start``, default the match's, to the match's end) is asked about, planned or
    tried and failed."""
    begin = match.start() if start is None else start
    before = text[max(0, begin - 80) : begin]
    return bool(
        _NOT_DONE_BEFORE.search(before) or _QUESTION_AFTER.match(text, match.end(), match.end() + 12) or _attempt_failed(text, begin, match.end())
    )
_PACKAGE_VERSION_BEFORE = when_used(
    r"\b(?:py)?(torch(?:vision|audio)?)[ \t]{0,4}(?:==?|:)?[ \t]{0,4}v?\d+\.\d+(?:\.\d+)?[ \t]{0,4}(?:[(\[]|(?:(?:built|compiled)[ \t]+)?for[ \t]+)?[ \t]{0,4}$",
    re.IGNORECASE,
)
"""A release right after a package's version names that build ("torch 2.5.1 rocm6.2", "torch 2.4.0 (ROCm 6.1)",
"pytorch 2.1.0 for rocm 5.6");
a comma between them lists components ("torch 2.5.1, ROCm 6.2"), and the release is the system's."""
_MOVE_TO_A_BUILD = when_used(r"\s{1,8}to\s{1,8}(?:ROCm(?:\s{1,8}|-)?)?v?\d+\.\d+(?:\.\d+)?\s{0,8}(?:wheel|build|torch|pytorch)", re.IGNORECASE)
"""The rest of a move whose destination is a torch build ("from ROCm 6.1 to 6.2 wheels")."""
_ROCM_BUILT_WITH = when_used(
    r"(?:\b(?:built|compiled|link(?:s|ed)?)\s+(?:\S+\s+){0,3}(?:for|with|against)|\b(?:torch|pytorch|wheels?)\s+(?:for|with|built for)|\bindex(?:-url)?(?:\s+for)?|\bnightl\S*(?:\s+for)?)\s+$"
    # The release right after the package's name, as the build is named ("pytorch rocm5.6", "PyTorch ROCm
    # 7.0", "Installed pytorch rocm 7.2 using AMD documentation", "torch (ROCm 6.2)"): that torch's build, as
    # the wheel's local tag spells it. A comma or "and" between them lists the stack's parts ("torch, ROCm
    # 6.2"), and the release is the system's.
    r"|\b(?:py)?torch(?:[ \t]+(?:nightly|nightlies|wheels?|builds?))?[ \t]{0,4}[(\[]?[ \t]{0,4}$",
    re.IGNORECASE,
)
"""Words right before "ROCm 6.2" that make it the ROCm torch was built for ("built against", "linked against", "torch for",
"wheels for", "nightly"), not the system's ("installed torch with pip and then ROCm 6.3")."""
_BUILT_VERB = when_used(r"\b(?:built|compiled|compiling|building|link(?:s|ed|ing)?)\b(?P<object>[^.!?;\n]{0,40}?)\s(?:for|with|against)\s+$", re.IGNORECASE)
_TORCH_WORDS = when_used(r"\b(?:py)?torch|\b(?:the|these|those|my|our)\s+(?:(?:rocm|nightly|official|prebuilt|pip|new|old|latest)\s+)?wheels?\b", re.IGNORECASE)
"""Words that make the program built torch: torch itself, or "the wheels" with no other package named ("the image's
flash-attn wheel is linked against ROCm 6" is flash-attn's)."""
_PRONOUN_BEFORE_VERB = when_used(r"\b(?:it|they|them|which|that)\s+(?:(?:is|was|were|are|been|has|have|had|got|gets)\s+){0,2}$", re.IGNORECASE)
_OWN_BUILD_SUBJECT = when_used(r"\b(?:I|we)(?:['\u2019]ve|\s+have|\s+had)?\s+(?:\w+\s+)?$", re.IGNORECASE)
_SENTENCE_BREAK = when_used(r"[.!?;\n]\s")


def _another_programs_build(text: str, start: int) -> Optional[bool]:
    """For "built/compiled ... with/against ROCm X" ending at ``start``: whether the program built is one other than
    torch, and if so whether the reporter built it (True: "I compiled bitsandbytes with ROCm 6.0", whose ROCm is the
    system's that compiled it) or it came built (False: "CTranslate2 compiled against ROCm 6.2", "ZLUDA v6-preview --
    compiled against ROCm 6.4.x", "LM Studio's ROCm llama.cpp engine is compiled against ROCm 6.x": that program's
    build, not torch's and not the system's). None where the words name torch, a wheel, or a pronoun ("My torch is
    built against ROCm 6.2", "the wheels were compiled with ROCm 6.1", "it was built for ROCm 6.0"): torch's, as
    before."""
    before = text[max(0, start - 100) : start]
    verb = _BUILT_VERB.search(before)
    if verb is None:
        return None
    head = before[: verb.start()]
    breaks = list(_SENTENCE_BREAK.finditer(head))
    subject = head[breaks[-1].end() :] if breaks else head
    if _TORCH_WORDS.search(verb.group("object")) or _TORCH_WORDS.search(subject[-60:]) or _PRONOUN_BEFORE_VERB.search(subject[-40:]):
        return None
    if verb.group("object").strip() in ("it", "them", "this", "that"):
        return None  # "compiled it with ROCm 6.0": what "it" is, the sentence before says
    if verb.group("object").strip():
        return bool(_OWN_BUILD_SUBJECT.search(subject[-40:]))  # "I compiled bitsandbytes with": the system's ROCm
    return False if subject.strip() else None


# The installer package's own name encodes the ROCm release as a five-digit build number after the
# dotted prefix: amdgpu-install_6.2.60204-1_all.deb is ROCm 6.2.4 (HIP's install page lists it at
# https://github.com/ROCm/HIP/blob/f15f3c17c9aec9d056b9cf158b9b147e357afbf3/docs/install/install.rst),
# _6.2.60200 is 6.2.0; before ROCm 5.3 the prefix was the Radeon Software release
# (amdgpu-install_22.20.50200-1_all.deb, repo.radeon.com/amdgpu-install/22.20/: ROCm 5.2.0), so a
# prefix from 20 up names no ROCm release.
_AMDGPU_INSTALL = when_used(r"amdgpu-install[_/](\d+\.\d+(?:\.\d{1,4}(?!\d))?)(?:\.(\d{5}))?[-/_]", re.IGNORECASE)
_RADEON_APT = when_used(r"repo\.radeon\.com/(?:rocm/apt|amdgpu-install|rocm/rhel\d*|rocm/zyp)/(\d+\.\d+(?:\.\d+)?)/", re.IGNORECASE)
_RADEON_SOFTWARE_MAJOR = 20
"""A release number from 20 up in an amdgpu-install path or name is Radeon Software's (21.40, 22.20), not ROCm's."""


def _installer_rocm(match: "re.Match[str]") -> Optional[str]:
    """The ROCm release an amdgpu-install package name or repo.radeon.com path names, or None."""
    build = match.group(2) if match.re.pattern == _AMDGPU_INSTALL.pattern else None
    if build:
        number = int(build)
        return f"{number // 10000}.{number // 100 % 100}.{number % 100}"
    version = match.group(1)
    return None if int(version.split(".")[0]) >= _RADEON_SOFTWARE_MAJOR else version


_IMAGE = when_used(r"\brocm/([a-z0-9_.-]+):([A-Za-z0-9_.-]+)")
_IMAGE_ROCM = when_used(r"(?:^|[_-])rocm[_-]?(\d+\.\d+(?:\.\d+)?)|^(\d+\.\d+(?:\.\d+)?)(?:[_-]|$)", re.IGNORECASE)
_IMAGE_TORCH = when_used(r"pytorch[_-](?:release[_-])?(?:v)?(\d+\.\d+(?:\.\d+)?)", re.IGNORECASE)
_DOCKER = when_used(
    r"\b(?:docker|podman)\s+(?:container\s+)?(?:run|exec|compose)\b|^[^\S\n]*FROM\s+rocm/|\bdocker-compose\b"
    r"|\b(?:distrobox|toolbox)\s+(?:create|enter|run)\b|\b(?:in|inside|within|for|using|via)\s+(?:a\s+|the\s+|my\s+)?(?:rootless\s+)?(?:Distrobox|Toolbx)\b"
    r"|\b(?:in|inside|within)\s+(?:a\s+|the\s+|my\s+)?(?:docker|podman)\s+container\b"
    # dev65perm: the container as the thing the reporter has or runs, or as the subject that runs, starts or crashes:
    # "I have docker container on ubuntu 16.04" (ROCm/legacy-rocm-build#415), "The docker-instance is run as root"
    # (ROCm/ROCm-docker#30), "the container keeps crashing" (truenas/apps#1908), "The cockpit-launched vLLM container
    # starts" (kyuz0/ai-toolbox-cockpit#7). Not a container said not to run or asked about ("the container does not
    # start" is the same container; "should the container run ...?" has no subject verb of this list).
    # review65: not asked or supposed ("Should I use a docker container?", "if I run a docker container"); the present only; a past one ("my Home Assistant container crashed yesterday") is an event, often
    # another container's, not where the report's program runs.
    r"|(?<!\bshould\s)(?<!\bcould\s)(?<!\bwould\s)(?<!\bshall\s)(?<!\bmust\s)(?<!\bcan\s)(?<!\bdo\s)(?<!\bdid\s)(?<!\bif\s)"
    r"\bI\s+(?:have|use|run|am\s+using|am\s+running|'m\s+using|'m\s+running)\s+(?:a\s+|the\s+|my\s+|this\s+)?(?:rocm\s+)?(?:docker|podman)[\s-](?:container|instance)\b"
    r"|\bcontainers?\s+(?:keeps\s+(?:crashing|restarting|exiting|dying)|crashes|starts|exits|dies)\b"
    r"|\b(?:docker|podman)[\s-](?:container|instance)\s+(?:is|was)\s+(?:run|started|running)\b",
    re.IGNORECASE | re.MULTILINE,
)
"""A container the report's commands run in: docker/podman run, a Dockerfile, distrobox/toolbox
(kyuz0/amd-strix-halo-toolboxes#53, 89luca89/distrobox#1230, kyuz0/amd-r9700-vllm-toolboxes#1), or the
container the reporter's prose runs (ROCm/legacy-rocm-build#415, ROCm/ROCm-docker#30, truenas/apps#1908,
kyuz0/ai-toolbox-cockpit#7)."""

# ------------------------------------------------------------------ platform

_WSL = when_used(
    r"\b(?:on|in|under|inside|using|via|with|running)\s+(?:a\s+|my\s+|the\s+)?(?:WSL\s?2?|Windows Subsystem for Linux)\b"
    r"|\bWSL\s?2?\s*(?:\(|:|-|,)?\s*(?:Ubuntu|Debian|distro|instance|environment|kernel|shell|terminal)\b"
    # the host first or last: "Windows 11 + WSL2", "Windows 11 (WSL2)", "WSL2 on Windows 11"
    r"|(?<!from\s)\bWin(?:dows)?\s?1[01]\s{0,2}(?:\+|&|/|,|\(|with\s|and\s|using\s)\s{0,2}WSL\s?2?\b|(?<!from\s)\bWSL\s?2?\s(?:on|under|in)\s(?:a\s|my\s)?Win(?:dows)?\s?1[01]\b"
    r"|\b(?:Ubuntu|Debian|openSUSE|Fedora)[\s\d.]*(?:LTS\s*)?[(\[]?\s*(?:on\s+)?WSL\s?2?\b|^[^\w\n]*WSL\s?2?[^\w\n]*$|\bWSL environment detected\b|microsoft-standard-WSL2"
    # what only WSL prints or has: neofetch's OS line ("Ubuntu 22.04.3 LTS on Windows 10 x86_64", its
    # get_distro appends " on Windows <version>" when /proc/version says Microsoft:
    # https://github.com/dylanaraps/neofetch/blob/1f2df92e39ccf9a88c647034271d317cc61c6e81/neofetch), and
    # WSL's GPU device, ROCm's library for it and the variable that loads it (/dev/dxg, librocdxg,
    # HSA_ENABLE_DXG_DETECTION: https://github.com/ROCm/librocdxg/blob/021a477ae052e38dc03c82213480157b20a10735/README.md);
    # a /dev/dxg said to be missing is no WSL 2 (WSL 1 has none)
    r"|\bon\s+Windows\s+1[01]\s+x86_64\b|\bHSA_ENABLE_DXG_DETECTION\b|/dev/dxg\b(?![^\n]{0,40}(?:No such file|not found|does\s?n[o'’]t exist|missing))|\blibrocdxg\b"
    # learn52e: amdgpu-install's WSL use case, which installs the WSL-only runtime (hsa-runtime-rocr4wsl-amdgpu,
    # later librocdxg) and is run only inside WSL ("amdgpu-install -y --usecase=wsl,rocm --no-dkms":
    # ROCm/legacy-rocm-build#3563 "-- usecase=wsl, rocm", #5509, #3924, #4524)
    r"|\busecase\s?=\s?(?:[a-z]{1,12}\s?,\s?){0,4}wsl\b",
    re.IGNORECASE | re.MULTILINE,
)
"""WSL as the report's own environment ("in WSL2", "Ubuntu 22.04 (WSL2)"), not a suggestion to use it."""
_WSL_AS_CODE_CONDITION = when_used(
    r"\b(?:gated|guarded|gates?|keyed|conditioned|conditional|special[\s-]cased|disabled|skipped|only\s+(?:applied|enabled|handled|done|taken))"
    r"\s+(?:only\s+)?(?:(?:on|under|in|for|to|by)\s+(?:WSL\s?2?\s*[(:,-]?\s*[`'\"]?)?)?$"
    r"|\b(?:is_wsl|_is_wsl|isWsl|is_wsl_host)\s*\(\s*\)[^.;\n]{0,30}$"
    r"|\bos\.path\.exists\(\s*[`'\"]?$|\[\s+-[ec]\s+[`'\"]?$",
    re.IGNORECASE,
)
"""Words right before a WSL mention that make it the condition of a code path, not the reporter's platform: "the
workaround ... is gated on WSL (`/dev/dxg`) only, so native Linux never gets it" (unslothai/unsloth#7208, written
from a native-Linux machine), "the inference is now skipped on WSL unless the ROCDXG runtime is present"
(unslothai/unsloth#7305), "all WSL logic is behind a runtime `is_wsl()` guard" (ROCm/rocm-systems#11688), and the
test itself in code ("os.path.exists('/dev/dxg')", "[ -e /dev/dxg ]": unslothai/unsloth#6915's install.sh). A
machine's own WSL shows in what it prints (a microsoft-standard-WSL2 kernel, rocminfo's "WSL environment detected")
or in a sentence about it ("I run Ubuntu in WSL2"), which these words do not stop. review65: "applied", "enabled",
"handled", "done" and "taken" are a code path's only with "only" before them: "all testing was done in WSL2" and "GPU
acceleration enabled in WSL2" are the reporter's own WSL."""
_USECASE_WSL = when_used(r"usecase", re.IGNORECASE)
"""The ``--usecase=...wsl`` alternative of :data:`_WSL` (the only one whose match starts with the word)."""
_WINDOWS = when_used(
    r"\b(?:Microsoft\s+)?Win(?:dows?)?\s*(?:(10|11)\b(?![.,]\d)(?:\s+(?:Pro|Home|Enterprise|Education|IoT|LTSC|\d{2}H\d))*|(?:19|2\d)H[12]\b)",
    re.IGNORECASE,
)
"""A Windows release, or a Windows feature update alone: "Windows 11 24H2" (robertrosenbusch/gfx803_rocm#28),
"windows 11 23h2" (ollama/ollama#7721), "Windows 11 Pro 23H2" (ROCm/ROCm#4390), and without the
release, "window 23h2" (vladmandic/sdnext#3556): the ``YYH1``/``YYH2`` ids name Windows updates only."""
_WINDOWS_VER = when_used(r"\bMicrosoft Windows \[Version 10\.0\.\d{5}(?:\.\d+)?\]|\bWindows\s+10\.0\.\d{5}(?:\.\d+)?\b")
"""What ``ver`` prints (the banner at the top of every cmd.exe window), and the version string people
copy from ``winver`` or PowerShell into a field or a sentence ("Windows 10.0.26200": ROCm/hip#3910,
ROCm/TheRock#1719; the build tells 10 from 11)."""
_WINDOWS_CONTEXT = when_used(
    r"\b(?i:on|under|for|in|using|with|running|native)\s+(?i:windows)\b(?!\s*(?:10|11)\b)(?!\s+(?i:subsystem)\b)|\bWindows\s+(?:machine|PC|host|laptop|desktop|box|system|native|side)\b"
    r"|\bWindows\s*(?:\+\s*)?(?:ROCm|HIP SDK)\b"
    # dev65env: a DLL by its file name is a Windows library the machine has or loads, whichever program's: the HIP
    # runtime's amdhip64_6.dll, llama.cpp's ggml-hip.dll (likelovewant/ollama-for-amd#103, ROCm/legacy-rocm-build#6227),
    # TheRock's rocm_kpack.dll (patientx-cfz/comfyui-rocm#128), bitsandbytes' libbitsandbytes_rocm716.dll
    # (shootthesound/Fizgig#103), ZLUDA's caffe2_nvrtc.dll (patientx/ComfyUI-Zluda#107)
    r"|\b[\w+-]{1,60}\.(?i:dll)\b"
    r"|\bwin_amd64\b|(?<![\w/])[A-Za-z]:[\\/]+(?i:Users|Program\s{1,3}Files|Windows|Python\d*|AI|ComfyUI|stable-diffusion)[\\/]"
    # learn67c: a batch file by its name is a script cmd.exe runs, a Windows machine's launcher: the web UIs' "webui-user.bat"
    # (lshqqytiger/stable-diffusion-webui-amdgpu#373, #418, #480, #544), a venv's "activate.bat"
    # (Haoming02/sd-webui-forge-classic#308); not HIP's own hipcc.bat / hipconfig.bat, which its packages install on
    # Linux too (the Arch ROCm package's file list)
    r"|(?<![\w.-])(?!(?i:hipcc|hipconfig)\.)[\w+-]{1,60}\.(?i:bat)\b(?![\w.-])"
    # AMD's HIP SDK is the Windows product (Linux installs ROCm, whose meta package "rocm-hip-sdk" the hyphen
    # keeps out); with one of its release numbers it names the machine's install: "Ollama 0.11.10 with HIP SDK
    # 6.2.4" (likelovewant/ollama-for-amd#124), "Installed HIP SDK 6.4.2" (vladmandic/sdnext#4405), "HIP SDK: 7.1"
    # (unslothai/unsloth#6043)
    r"|(?<![\w-])(?i:HIP\s?SDK):?\s{1,3}v?(?:5\.[5-7]|6\.[1-4]|7\.\d{1,2})(?:\.\d{1,3})?(?![\w.])"
)
_BATCH_FILE_ELSEWHERE = when_used(r"\bwindows\b|\.sh\b", re.IGNORECASE)
"""A line that names a batch file beside Windows by name or a shell script: the batch file is what Windows users run, set
against this machine's own launcher ("The README says Windows users start it with .\\webui-user.bat, I use ./webui.sh");
Windows named as this machine's is read by the other patterns (learn67c)."""
_POSIX_SHELL_IN_BLOCK = when_used(r"\.sh\b|^\s{0,8}[\w.-]{1,64}@[\w.-]{1,64}:[~/][^\n$#]{0,200}\$", re.MULTILINE)
"""A block that names a shell script or shows a Linux shell prompt (``user@box:~/stable-diffusion-webui$``): a batch file
in it is a file of the checkout, listed (``ls -1``) or changed (``git pull``'s " webui-user.bat | 2 +-"), not the
launcher this machine runs (review67b)."""
_DISTRO = when_used(
    # openSUSE in any case ("OpenSUSE Tumbleweed": ROCm/legacy-rocm-build#1431, "OpenSUSE Leap 15.5": #3065, "OpenSUSE
    # Leap 15.6" / "OpenSuSE Leap 15.6": ollama/ollama#11450, "openSuse Ttumbleweed": torch/distro#268, "opensuse leap":
    # AdnanHodzic/auto-cpufreq#135), named with its edition as os-release's NAME does
    r"\b(Ubuntu|Kubuntu|Xubuntu|Lubuntu|Debian|Fedora|Arch(?:\s+(?i:Linux))?|Manjaro|Linux Mint|Pop!_OS|(?i:opensuse\s+(?:tumbleweed|leap))|Rocky Linux|AlmaLinux|CentOS(?:\s+Stream)?|RHEL"
    r"|NixOS|EndeavourOS|CachyOS|Gentoo|Nobara(?:\s+Linux)?|Bazzite|Zorin\s+OS|elementary\s+OS|Garuda(?:\s+Linux)?)"
    # the release after a space, or after a hyphen as WSL names its distributions and people copy them
    # ("OS: Ubuntu-20.04": ROCm/legacy-rocm-build#1269; "Ubuntu-20.04.1": ROCm/amdgpu#107; "Ubuntu-20.04.2":
    # xuhuisheng/rocm-build#8)
    # and joined to the name with no space ("Ubuntu22.04": ROCm/pytorch#1337, "Ubuntu20.04 + python3.8":
    # pytorch/pytorch#98257, "VMware+ubuntu18.04": ROCm/legacy-rocm-build#1505), a release of two numbers only
    r"(?:(?:\s+|-(?=\d)|(?=\d{2}\.\d{2}\b))(\d{1,2}(?:\.\d{1,2}){0,2})(?:\s+LTS)?)?\b"
    # the name in lower case, only with its release ("ubuntu 22.04", "fedora 41", "debian 12": ollama/ollama#6152,
    # ROCm/legacy-rocm-build#1973, ROCm/legacy-rocm-build#1218, ROCm/legacy-rocm-build#4557, ROCm/hip#3710) and never inside an
    # image tag, a path or a host name ("rocm/dev-ubuntu-22.04", "user@ubuntu-22:~$")
    r"|(?<![\w@/:.\-])((?i:ubuntu|kubuntu|xubuntu|lubuntu|debian|fedora|manjaro|linux\s+mint|centos|rocky\s+linux|almalinux|pop!_os))"
    r"(?: |(?=\d{2}\.\d{2}\b))(\d{1,2}(?:\.\d{1,2}){0,2})(?:\s+(?i:lts))?\b(?![.\-]\w)"
    # "arch linux" in any case ("my arch linux": ollama/ollama#8262, "running arch linux": tsl0922/pytorch-gfx803#3,
    # "Arch linux": rocm-arch/rocm-arch#866)
    r"|(?<![\w@/:.\-])(?i:arch\s+linux)\b"
)
_ARCH_AFTER = when_used(r"\b(?:on|using|running|under|use|run)\s+(?:an?\s+|my\s+)?$", re.IGNORECASE)
"""What puts a bare, capitalised "Arch" as the distribution in use. Reports name it so: "using Arch or Arch-based
distros" (ROCm/legacy-rocm-build#294), "install instruction on Arch/Manjaro" (ROCm/legacy-rocm-build#1458), "RX560,
Arch, Community PKGs" (tsl0922/pytorch-gfx803#3); only the first two forms are read, since "arch" is the CPU or GPU
architecture far more often and a list ("gfx1030, Arch, ...") says nothing of what runs."""
_DISTRO_NOT_RUN_BEFORE = when_used(
    r"(?:\b(?:based|built)\s+on\s+(?:an?\s+)?|\b(?:upgrad(?:e|ed|ing)|switch(?:ed|ing)?|mov(?:e|ed|ing)|migrat(?:e|ed|ing)|came)\s+(?:over\s+)?from\s+"
    r"|(?:" + REPORTED_SPEECH + r"|" + DOCUMENT_SAYS + r")(?:[^.!?;\n]|[.!?](?=\S)){0,80}"
    r"|\b(?:do\s*n['\u2019]?t|do\s+not|did\s*n['\u2019]?t|did\s+not|never|not|no\s+longer)\s+(?:use|using|run|running|try|tried|have|had|on)\s+(?:an?\s+|on\s+)?"
    r"|\b(?:wiki|docs?|documentation|guide|runners?|server|vm|friend|colleague)\b[^.!?;\n]{0,12})$",
    re.IGNORECASE,
)
"""Words before a distribution named in prose that make it no system of this machine (r36a): one it is built on
("CachyOS, which is based on Arch"), one left ("I upgraded from ubuntu 20.04"), another person's or a document's
words ("someone said it works on Arch", "the arch linux wiki says"), one not used ("I don't use Arch", "I did not
try debian 12", "I'm not on Arch"). Only a negation of its use: "not detected on Arch Linux", "does not work on Ubuntu
24.04" deny the problem's absence, not the system (:func:`denied` reads both); each of these, read as the system, made two distributions and so none (the one in use was lost)."""
_DISTRO_NOT_RUN_AFTER = when_used(r"^\s{0,2}(?:\d[\w.]{0,8}\s{1,2})?(?:LTS\s{1,2})?(?:wiki|docs?|documentation|guide|runners?)\b", re.IGNORECASE)
"""Words right after the name that make it a document's or a CI system's ("the arch linux wiki", "CI runs on ubuntu
22.04 runners"). A container's or an image's distribution is left read: its user space is the one ROCm's packages
and wheels meet ("a Ubuntu docker container on an Arch host")."""
_KERNEL = when_used(
    r"(?<![\w.])(\d\.\d{1,2}\.\d{1,3}(?:-\d+(?:\.\d+)?-(?:generic|oem|lowlatency|azure|aws|gcp)|-arch\d-\d|-zen\d-\d|\.fc\d{2}\.x86_64|-\d+-amd64|\.\d+-microsoft-standard-WSL2"
    # Fedora/RHEL (6.17.8-200.fc43.x86_64, 6.17.8-200.nobara.fc43.x86_64, 5.14.0-503.11.1.el9_5.x86_64),
    # Debian (6.12.100+deb13-amd64), Proxmox (6.8.12-4-pve), CachyOS (6.17.7-2-cachyos), openSUSE (6.4.0-150600.23.25-default)
    r"|-\d+(?:\.\d+)*(?:\.[a-z]+)?\.(?:fc\d{2}|el\d+(?:_\d+)?)\.(?:x86_64|aarch64)|\+deb\d+-amd64|-\d+-pve|-\d+-cachyos(?:-[a-z]+)?|-\d+(?:\.\d+)+-default))(?!\w|\.\w)"
)
_UBUNTU_SIGNATURE = when_used(r"\(Ubuntu\s+$")
"""What /proc/version prints before Ubuntu's package version of the kernel (5.15.0-133.144-generic),
which is no release ``uname -r`` prints."""
_INSTALLED_KERNEL_NAMED = when_used(
    r"(?:\blinux-(?:headers|image|modules|modules-extra|tools|buildinfo|objects)(?:-unsigned)?-|/lib/modules/|/usr/src/(?:linux-headers-|kernels/)"
    # the kernel a command is told to work on: modinfo/depmod/dkms -k RELEASE, --set-version, --kernelver
    r"|(?:^|\s)-k\s{0,4}|--(?:set-version|kernelver)[= ]\s{0,4})$"
)
"""A kernel release inside a package name (``linux-headers-6.8.0-45-generic``) or a per-kernel folder
(``/lib/modules/5.4.0-42-generic/updates/dkms/``) names a kernel that is installed, not the one
running: apt and DKMS list every installed kernel (ROCm/amdgpu#107, legacy-rocm-build#1367, #3883). So
does the release a command is given with ``-k`` (``modinfo -k``, ``dkms install -k``; modinfo(8), dkms(8))."""
_KERNEL_WORD = when_used(r"\bkernel(?:\s*version)?(?:\s*:)?\s*v?(\d\.\d{1,2}(?:\.\d{1,3})?(?:-[\w+-]+(?:\.[\w+-]+)*)?)(?!\w|\.\w)", re.IGNORECASE)
"""``kernel 6.8.0-45-generic``, ``Kernel: 6.12.4``; a release that ends a sentence (``... on kernel 6.12.4.``)
is read without the full stop."""
_LINUX_WORD = when_used(r"(?<![\w/-])linux[ \t]+v?([3-7]\.\d{1,2}(?:\.\d{1,3})?(?:-[\w+-]+(?:\.[\w+-]+)*)?)(?!\w|\.\w)", re.IGNORECASE)
"""The kernel called by the system's name: "fails to build on Linux 6.15.8" (legacy-rocm-build#5109), "on Linux
6.16" (legacy-rocm-build#5110), Ubuntu's upstream kernel "Linux 5.3.0-050300-generic" (legacy-rocm-build#1088),
"Kernel: Linux 6.17.0-20-generic" (ROCm/ROCm#6146). A distribution's release is "<Name> Linux 9.3" (Rocky, Oracle,
Alma, Kali, Amazon, Red Hat Enterprise Linux): :func:`_distribution_before` leaves those, and a kernel's major
release is 3 to 7."""
_NAME_BEFORE_LINUX = when_used(r"(?:^|[^\w!])([A-Za-z][\w!]*)[ \t]+$")
_WORDS_BEFORE_KERNEL_LINUX = frozenset(
    "on with running run runs using use uses under to and from mainline stock upstream vanilla latest current my the "
    "a new newer old older default generic kernel".split()
)
"""Words that may stand before "Linux 6.8" when it is the kernel ("running Linux 6.8", "upstream Linux 6.8",
"Kernel: Linux 6.8"); any other word there ("Rocky Linux 9.3", "Amazon Linux 2023", "Enterprise Linux 8.10")
names a distribution."""


_DISTRIBUTIONS_BEFORE_LINUX = frozenset(
    "rocky oracle alma kali amazon enterprise arch mint scientific clear alpine void gentoo centos hat rhel suse opensuse".split()
)
"""Distributions written "<name> Linux <release>", as people type them in lower case too ("centos linux 7.9": CentOS
Linux 7 is the release many older ROCm reports ran)."""


_PRODUCT_FOR_LINUX = when_used(r"(?:^|[^\w!])[A-Z][\w!.+-]{0,40}[ \t]+for[ \t]+$")
"""A product's Linux build: "Docker Desktop for Linux 4.27.2", "Blender for Linux 4.2.1" give the product's release;
"amdgpu-dkms fails to build for Linux 6.8" (a lower-case word before "for") is the kernel."""


def _distribution_before(before: str) -> bool:
    """The word before "Linux" names a distribution or a product, not the kernel (:data:`_WORDS_BEFORE_KERNEL_LINUX`)."""
    if _PRODUCT_FOR_LINUX.search(before[-60:]):
        return True
    word = _NAME_BEFORE_LINUX.search(before[-40:])
    if word is None or word.group(1).lower() in _WORDS_BEFORE_KERNEL_LINUX:
        return False
    return word.group(1)[0].isupper() or word.group(1).lower() in _DISTRIBUTIONS_BEFORE_LINUX


_KERNEL_RELEASE_SAID = r"\d\.\d{1,2}(?:\.\d{1,3})?(?:-[\w+-]+(?:\.[\w+-]+)*)?"
_KERNEL_BEFORE_WORD = when_used(
    r"\b(?:with|on|running|using|under|to|it['\u2019]?s|is|have|has)\s+(?:(?:a|an|the|my|its|stock|default|mainline|generic|newer|latest|current)\s+){0,2}"
    r"v?(\d\.\d{1,2}(?:\.\d{1,3})?(?:-[\w+]+(?:[.-][\w+]+)*)?)\s+(?:linux\s+)?kernel\b(?!s|-)",
    re.IGNORECASE,
)
"""The release before the word: "Ubuntu 24.04.02 with 6.8 Kernel didn't recognize the GPU"
(legacy-rocm-build#5102), "It's a 4.15 kernel" (ROCm/amdgpu#68), "Ubuntu 20.04.1 with 5.4 kernel"
(legacy-rocm-build#1367), "Ubuntu 16.04 was updated today to the 4.15 kernel" (legacy-rocm-build#449),
"Ubuntu 20.04.5 LTS with 5.14 Kernel" (legacy-rocm-build#1809). A word that puts the kernel in use
must lead ("with", "on", "running", "to the"); a list ("the 5.10, 5.11 and 5.12 kernels") and a
package name ("6.8 kernel-headers") are not one running kernel."""
_KERNEL_ANOTHER_STATE = (
    r"used\s+to|before|previously|earlier|last\s+working|instead\s+of|compar\w*|vs\.?|than"
    r"|ships?|shipped|shipping|by\s+default|friend['\u2019]?s|colleague['\u2019]?s|(?:other|another|second)\s+(?:machine|pc|computer|laptop|desktop|system|box)"
)
"""Words before a kernel release, named by number or with the word "kernel", that make it another state than
the running one: a past or compared state, what a release ships, another person's or machine's."""
_KERNEL_NOT_NOW_BEFORE = when_used(
    r"\b(?:work(?:s|ed|ing)?|was\s+fine|not\s+(?:on|with|using|running|under|in|to|the|a|an)|n['\u2019]t\s+(?:use|run)|defaults?|"
    + _KERNEL_ANOTHER_STATE
    + r")\b[^.!?;\n]{0,40}$",
    re.IGNORECASE,
)
"""Words before the release that make it another state than the running one: "The compilation worked
perfectly for the 6.14 kernel" (legacy-rocm-build#5624), "instead of the 6.8 kernel", what a release
ships with ("Ubuntu 24.04 ships with 6.8 kernel; I run 6.14"), another machine ("my friend's PC is on
6.8 kernel"), a kernel denied ("I'm not on the 6.8 kernel", "not using the 6.8 kernel"). A "not" that
denies something else keeps the kernel the running one: "RX 9070 XT not detected on Ubuntu 24.04 with
the 6.8 kernel" is the GPU unseen on that kernel (h31e)."""
_KERNEL_CHANGE = when_used(
    r"\b(?:work(?:s|ed|ing)?|ran|runs|was\s+fine|is\s+fine)\b(?:\s+(?:fine|well|ok|perfectly|great))?\s+(?:with|on|under|in)\s+"
    r"(?:the\s+)?(?:linux\s+)?(?:kernel\s*)?v?(?P<before>" + _KERNEL_RELEASE_SAID + r")(?!\w|\.\w)(?:\s+kernel)?"
    r"[^.;\n]{0,60}?(?:\bbut\b|\band\b|\bwhile\b|,)?\s*\b(?:not|fails?|failed|failing|breaks?|broke|broken|crash(?:es|ed)?|hangs?|segfaults?|"
    r"stopped\s+working|no\s+longer\s+works?|after\s+(?:updating|upgrading|update|upgrade|moving))\b[^.;\n]{0,40}?"
    r"\b(?:with|on|under|since|to|in)\s+(?:the\s+)?(?:linux\s+)?(?:kernel\s*)?v?(?P<after>" + _KERNEL_RELEASE_SAID + r")(?!\w|\.\w)",
    re.IGNORECASE,
)
"""A kernel that worked and the one that does not, in one sentence: "ROCm works on 5.4.0-54, not on
5.4.0-57" (legacy-rocm-build#1307), "works fine with 4.15.0-29 but fails with 4.15.0-33"
(ROCm/amdgpu#53), "worked on kernel 6.11.10 but after updating to kernel 6.12.4 ..." (the form of
ollama/ollama#8262's bisection, legacy-rocm-build#1007 "works fine on kernel 5.4.15", "hangs ... on
kernel 5.5.0"). The first is an earlier state (RD801 compares them), the second the current kernel.
Only read when the sentence says "kernel" or both are full releases (5.4.0-54): "works with torch 2.5
but not 2.6" is no kernel."""
_FULL_RELEASE = when_used(r"\d\.\d{1,2}\.\d{1,3}-")
_KERNEL_MOVE = when_used(
    r"\bfrom\s+(?:the\s+)?(?:(?:linux\s+)?kernel\s*|linux\s+(?=v?[3-7]\.))v?(?P<before>" + _KERNEL_RELEASE_SAID + r")(?!\w|\.\w)(?:\s+kernel)?"
    r"\s+(?:up\s+|down\s+)?to\s+(?:the\s+)?(?:linux\s+)?(?:kernel\s*)?v?(?P<after>" + _KERNEL_RELEASE_SAID + r")(?!\w|\.\w)",
    re.IGNORECASE,
)
"""A move between kernels: "I upgraded from kernel 5.15 to 6.2", "moved from kernel 6.8 to 6.11", and with the
kernel called by the system's name (:data:`_LINUX_WORD`), "after updating from Linux 7.0.11 to 7.0.12": the
second is the kernel now, the first an earlier state (h34c; the word read alone took the first)."""
_KERNEL_UPDATED_TO = when_used(
    r"\b(?:updat|upgrad)(?:ed|ing)\b(?:[^.!?;\n]|(?<=\d)\.(?=\d)){0,40}?\b(?:(?:linux|os)\s+)?kernel\s+(?:version\s+)?(?:up\s+)?to\s+"
    r"(?:(?:the|version|kernel|linux)\s+){0,2}v?(?P<after>" + _KERNEL_RELEASE_SAID + r")(?!\w|\.\w)"
    r"|\b(?:after|since)\s+(?:(?:the|a|my)\s+)?(?:(?:linux|os)\s+)?(?:kernel\s+)?(?:updat|upgrad)(?:ed|ing|es?)\s+(?:up\s+)?to\s+"
    r"(?:(?:the|a|version|linux)\s+){0,2}kernel\s+(?:version\s+)?v?(?P<after2>" + _KERNEL_RELEASE_SAID + r")(?!\w|\.\w)"
    r"|\b(?:after|since)\s+(?:(?:the|a|my)\s+)?(?:linux\s+)?kernel\s+(?:update|upgrade)\s+to\s+(?:(?:the|version)\s+)?v?(?P<after3>" + _KERNEL_RELEASE_SAID + r")(?!\w|\.\w)",
    re.IGNORECASE,
)
"""A move to a kernel with no "from": "updated, among others, the kernel to 4.13.0-36" (ROCm/legacy-rocm-build#344),
"I updated my POP OS system's Linux kernel to version 5.13.0-7614-generic" (M-Bab/linux-kernel-amdgpu-binaries#100),
"I have upgraded kernel to 4.18" (legacy-rocm-build#671), "after kernel upgrade to 4.13.0-36" (#344's title), "since
updating to kernel 6.18.4": the release moved to is the kernel now. Not a try ("when trying to upgrade to the kernel
4.15.0-128", #1333), advice or a plan ("try updating the kernel to 6.11", "should I upgrade the kernel to 6.14?"),
another person's move, nor one of several releases tried in turn (#671 tried 4.18, 4.19 and 4.20), which the reader's
caller drops (driver48)."""
_KERNEL_MOVE_UNDONE_AFTER = when_used(
    r"\b(?:(?:went|go(?:ne|ing)?|rolled|roll(?:ing)?|switched|moved|booted|boot(?:ing)?|came|returned|reverted)\s+back|revert(?:ed|ing)?|downgrad(?:ed|ing))\b"
    r"(?!\s+(?:(?:my|the|to)\s+)?(?:rocm|torch|pytorch|python|mesa|drivers?|amdgpu|adrenalin|hip|packages?|firmware|bios)\b)"
    r"|\bback\s+(?:on|to|in(?:to)?)\s+(?:the\s+)?(?:old|older|previous|earlier|last|v?\d)"
    r"|\bstill\s+(?:on|running|using|booting)\s+(?:the\s+)?(?:old|older|previous|earlier)"
    r"|\b(?:did(?:n['\u2019]t|\s+not)|does(?:n['\u2019]t|\s+not)|won['\u2019]t|would(?:n['\u2019]t|\s+not)|could(?:n['\u2019]t|\s+not)|can(?:['\u2019]t|not)|fails?\s+to|failed\s+to)\s+boot",
    re.IGNORECASE,
)
"""After a move to a kernel, in the rest of its paragraph: the move undone or never booted ("I updated the kernel to 6.8
but went back to 6.5", "then rolled back to 6.5.0-35", "so I reverted to 6.5", "I downgraded the kernel again", "it
would not boot, so I'm back on 6.8"): the release moved to is not the one running (rev48c)."""
_KERNEL_MOVE_NOT_MADE_BEFORE = when_used(
    r"(?:\b(?:not|never)|n['\u2019]t)\s+(?:(?:yet|even|actually|really)\s+)?(?:been\s+)?$", re.IGNORECASE
)
"""Just before the move's verb: a move denied ("I haven't upgraded the kernel to 6.8 yet", rev48c)."""
_KERNEL_MOVE_VERB = when_used(
    r"\b(?:upgrad|updat|mov|went|go|goes|going|gone|switch|downgrad|chang|jump|bump|migrat|roll|came|come|install)\w*\b[^.!?;\n]{0,50}$",
    re.IGNORECASE,
)
"""A verb of moving before "from kernel X to Y" in its clause; without one the words are a range ("I tested every
release from kernel 6.8 to 6.14", "Tried kernels from 6.5 to 6.8"), neither end of which is the kernel now (r34b)."""
_KERNEL_STATE_LABEL = when_used(
    r"^[ \t>*+#|-]{0,6}(?:"
    r"(?P<good>(?:(?:last|previous)[ \t]+(?:known[ \t]+)?)?(?:working|good|known[ \t-]good)[ \t]+kernel(?:[ \t]*\((?:working|good|ok)\))?"
    r"|kernel[ \t]*\((?:(?:last[ \t]+)?(?:known[ \t]+)?(?:working|good|ok))\))"
    r"|(?P<bad>(?:first[ \t]+(?:known[ \t]+)?)?(?:broken|bad|failing|non[ \t-]?working|not[ \t]+working)[ \t]+kernel(?:[ \t]*\((?:broken|bad|failing)\))?"
    r"|kernel[ \t]*\((?:(?:first[ \t]+)?(?:known[ \t]+)?(?:broken|bad|failing|not[ \t]+working|non[ \t-]?working))\)))"
    r"[ \t]*[:=][ \t]*`?(?:linux(?:-lts)?[ \t]+)?v?(?P<release>" + _KERNEL_RELEASE_SAID + r")(?!\w|\.\w)",
    re.IGNORECASE | re.MULTILINE,
)
"""A kernel named on a line whose label says its state, as regression reports list the two: "Kernel (working):
7.0.11-200.fc44.x86_64" / "Kernel (broken): 7.0.12-200.fc44.x86_64" (legacy-rocm-build#6358), "Kernel (working):
linux-lts 6.6.x" / "Kernel (broken): 6.7.x and newer" (amd-gfx, "Regression: RX 470 fails to boot with amdgpu.dpm=1
on kernel 6.7+", https://lore.kernel.org/amd-gfx/CABH-8xf3sg1CiHWM9nN0a3eSRTF9Lc_vkcZDzbvWZAH0f+Gf2g@mail.gmail.com/),
"Last known WORKING kernel (GOOD): 6.12.50-1-lts" / "First known NON-WORKING kernel (BAD): 6.12.51-1-lts"
(linux-media, "[REGRESSION] uvcvideo: Grandstream GUV3100 broken on recent kernels",
https://lore.kernel.org/linux-media/CAOzBiVspo5fsWpPL930TDDXzQCnv45BvuzQUQ7kv2WY9Td+ibQ@mail.gmail.com/), and a
bisection's "Good kernel:" / "Bad kernel:". The working one is an earlier state (RD801 compares it), never the
running kernel; the broken one is the kernel the failure is reported on when a working one is listed beside it.
"Current kernel: X" is read by :data:`_KERNEL_WORD`."""
_KERNEL_ROW = when_used(
    r"^[ \t>*+#|-]{0,6}(?P<lead>(?:[a-z][\w'\u2019-]{0,15}[ \t]{1,4}){0,4}?)"
    r"(?P<said>(?:linux-image-|(?:linux[ \t]{1,4})?kernel[ \t]{0,4}[:=]?[ \t]{0,4}|linux[ \t]{1,4}))?[*_`]{0,2}v?(?P<release>" + _KERNEL_RELEASE_SAID + r")(?!\w|\.\w)[*_`]{0,2}"
    r"(?P<rest>[^\n.!?]{0,48}?)"
    r"(?:(?P<bad>\b(?:(?:does|do|did|is|was)(?:[ \t]{0,2}n['\u2019]?t|['\u2019]t|[ \t]{1,4}not)[ \t]{1,4}work\w*|not[ \t]{1,4}work\w*|ko|fail\w*|broken|breaks|broke"
    r"|crash\w*|seg(?:mentation)?[ \t]?fault\w*|hangs?|freez\w*)\b|\u274c)"
    r"|(?P<good>\b(?:works?|worked|working|ok|okay|fine|good)\b|\u2705|\u2714))",
    re.IGNORECASE | re.MULTILINE,
)
"""A row of a kernel A/B: a line that starts with a kernel release (a few words may stand before it) and says how the GPU
stack fares on it, the rows of one report giving a working and a failing release: "linux-image-5.4.0-54-generic
rocm-dkms,it's work" / "linux-image-5.4.0-57-generic rocm-dkms,it does't work" (ROCm/legacy-rocm-build#1307),
"6.18.1 - Works fine no problems..." / "6.18.6 - segmentation fault..." (vladmandic/sdnext#4578), "I confirm building
for **6.8.0-40-generic** is **OK**" / "... **6.8.0-44-generic** is **KO**" (ROCm/legacy-rocm-build#3701).
:func:`_kernel_rows` reads them only as a pair: the failing verdict is looked for first, so "does't work" is not a
"work"."""
_KERNEL_ROW_HEDGED = when_used(
    r"\b(?:if|whether|should|would|could|might|may|will|try|trying|expect\w*|hope\w*|maybe|perhaps|someone|friend|other)\b",
    re.IGNORECASE,
)
"""A row that is a question, a plan or another person's ("6.8.0-45: should work?", "6.11 might be fine"): no state."""
_KERNEL_BUT_WORKS = when_used(
    r"\b(?:but|however|whereas|while)\b,?\s+(?:(?:on|with|under|using|in)\s+)?(?:the\s+)?(?:(?:lts|older|old|previous|stock|mainline)\s+)?"
    r"(?P<said>(?:linux\s+)?kernel\s*)?v?(?P<release>" + _KERNEL_RELEASE_SAID + r")(?!\w|\.\w)(?:\s+kernel)?,?\s+"
    r"(?:(?:everything|it|rocm|that\s+one)\s+)?(?:still\s+)?(?:works|is\s+fine|runs\s+fine|is\s+working|is\s+ok)"
    r"(?:\s+(?:fine|well|perfectly|great|ok|flawlessly|as\s+expected))?(?=\s*(?:[.;!,]|$))",
    re.IGNORECASE | re.MULTILINE,
)
"""The kernel that works, set against a failing one named before it: "Kernel 6.17.9 breaks ROCm, but 6.17.7 works"
(kyuz0/amd-strix-halo-toolboxes#45), "However, using the LTS kernel (6.6.x), everything works as expected" (the
amd-gfx RX 470 report, lore link at :data:`_KERNEL_STATE_LABEL`), "ROCm fails on 6.14.1+ and works on 6.14.0"
(r/NobaraProject, as summed up in legacy-rocm-build#4919). Read only where the words before it in its sentence name
a failing kernel (:data:`_KERNEL_FAILS_BEFORE`, dots in releases blanked): "fails with torch 2.6, but 2.5 works" and
"ComfyUI crashes in Docker but works on kernel 6.8" set no kernel against it."""
_KERNEL_BUT_WORKS_ON = when_used(
    r"\b(?:but|and|however|whereas|while)\b,?\s+(?:(?:it|rocm|everything)\s+)?(?:still\s+)?(?:works|runs|is\s+fine)(?:\s+(?:fine|well|ok|perfectly))?\s+(?:on|with|under|in)\s+"
    r"(?:the\s+)?(?:(?:lts|older|old|previous|stock|mainline)\s+)?(?P<said>(?:linux\s+)?kernel\s*)?v?(?P<release>" + _KERNEL_RELEASE_SAID + r")(?!\w|\.\w)(?:\s+kernel)?"
    r"(?=\s*(?:[.;!,]|$))",
    re.IGNORECASE | re.MULTILINE,
)
"""The same with the words before the release: "ROCm fails on 6.14.1+ and works on 6.14.0", "fails on kernel 6.8
but works on 6.5"."""
_KERNEL_BARE_ROLLBACK = when_used(
    r"\b(?:(?:roll(?:ed|ing)?|go(?:ing)?|went|boot(?:ed|ing)?|switch(?:ed|ing)?|revert(?:ed|ing)?|return(?:ed|ing)?|dropp(?:ed|ing))\s+back|revert(?:ed|ing)?|downgrad(?:e|ed|ing))"
    r"\s+to\s+(?:the\s+)?v?(?P<release>" + _KERNEL_RELEASE_SAID + r")(?!\w|\.\w)(?!\s+(?:linux\s+)?kernel\b)"
    r"(?![^\S\n]*(?:\(?(?:rocm|torch|pytorch|python|mesa|bios|firmware|drivers?)\b|of\b))"
    r"(?P<rest>(?:[^.!?;\n]|\n(?![^\S\n]*\n)|(?<=\d)\.(?=\d)){0,80}?)"
    r"(?:\b(?:works?|worked|working|fine|restor(?:es|ed)|fix(?:es|ed)|solv(?:es|ed)|resolv(?:es|ed))\b"
    r"|[.!]\s+now\s+(?:it|everything|all|rocm)\s+works\b)",
    re.IGNORECASE,
)
"""A rollback to a release said without the word kernel, and what it restored: "Once rolling back to 7.0.11 all works as
expected again" (Comfy-Org/ComfyUI#14488, after "When using kernel version 7.0.12"), "Booting back to 7.0.11-200 restores
normal performance immediately" (ROCm/legacy-rocm-build#6358, after "updating from kernel 7.0.11-200.fc44"), "the supported
kernels are 4.13 - 4.15, so I downgraded to 4.15. Now it works." (ROCm/legacy-rocm-build#753). A bare release may be any
program's ("if I downgrade to 2.9 things start to work again" is ROCm 2.9 beside "the kernel to 5.0",
ROCm/legacy-rocm-build#950; "downgrading ROCm back to 6.4.1"): :func:`_kernel_bare_rollbacks` reads it only where the
block named a kernel release of the same major.minor with the word kernel before it, and no program with that release."""
_KERNEL_RELEASES_NAMED = when_used(
    r"\bkernels?(?:[^\S\n]+(?:versions?|are|is|was|were|from))?(?:[^\S\n]*[:=])?[^\S\n]*`?v?(?P<after>\d\.\d{1,2}[\w.+-]{0,40}(?:(?:[^\S\n]{0,4}[,/\u2013][^\S\n]{0,4}|[^\S\n]{1,4}(?:-|to|and|or)[^\S\n]{1,4})v?\d\.\d{1,2}[\w.+-]{0,40}){0,4})"
    r"|\b(?P<before>\d\.\d{1,2})[\w.+-]{0,40}[^\S\n]{1,4}(?:linux[^\S\n]{1,4})?kernels?\b"
    r"|\blinux[^\S\n]+v?(?P<linux>\d\.\d{1,2})",
    re.IGNORECASE,
)
"""Kernel releases named with the word kernel ("kernel version 7.0.12", "from kernel 7.0.11-200.fc44", "the supported
kernels are 4.13 - 4.15", "the 6.8 kernel", "Linux 7.0.12"): the major.minor a bare rollback must share. A release's own characters run at most 40
and hold no space, and a list's separators are punctuation or a spaced word or dash, so each boundary is decided at one
place and no start scans further than a bounded stretch (linear); the spaces around a ":" are one optional run before it
and one after, not two runs that may split the same spaces ("kernel" and 16,000 spaces took 7.5 s, read57)."""
_MAJOR_MINOR = when_used(r"(?<![\d.])(\d\.\d{1,2})(?!\d)")
_ROLLBACK_NOT_KERNEL = when_used(
    r"(?:\b(?:rocm(?:-core)?|torch|pytorch|python|pip|hip|sdk|drivers?|adrenalin|mesa|amdgpu(?:-(?:dkms|install|pro))?|firmware"
    r"|bios|uefi|agesa|ollama|comfyui|cuda|triton|numpy|transformers|zluda|llvm|docker)\b|(?<![^\W\d_])rocm(?=\d))"
    r"(?:[^\S\n]{0,4}[:=]|[^\S\n]{1,4}(?:(?:version|ver|is|was|from|to|at|now|update[ds]?|upgraded|updating|upgrading)[^\S\n]{1,4}){1,3})?[^\S\n]{0,4}v?"
    r"(?P<release>\d\.\d{1,2})(?!\d)",
    re.IGNORECASE,
)
"""A program's release of the kernel's form ("ROCm 6.3.1", "ROCm: 7.1.1", "upgrading ROCm to 6.2", "+rocm6.2", "Python
3.12", "the BIOS update to 5.19", "the driver 6.6"): ROCm 6.x and 7.x share the major of the kernels they run on, Python
3.x CentOS 7's kernel 3.10."""
_ROLLBACK_ENDED_AFTER = when_used(
    r"[^.!?;\n]{0,60}?\b(?:until|then|before|came\s+back|but\s+(?:now|then)|but\b[^.!?;\n]{0,60}?\bstill)\b", re.IGNORECASE
)
_ROLLBACK_UNDONE = when_used(
    r"(?:\b(?:not|never|no\s+longer|still|nothing|no\s+(?:difference|change|luck|improvement)|just\s+as|same)\b|n['\u2019]t\b)",
    re.IGNORECASE,
)
_ROLLBACK_NOT_MINE_BEFORE = when_used(
    r"\b(?:others?|people|users?|some(?:one|body)|every(?:one|body)|many|he|she|they|maybe|perhaps|hopefully"
    r"|(?:does|do|did|has|have)\s+(?:any|some)(?:one|body)|(?:does|do|did|would|will|could|can)\s+(?:rolling|booting|going|downgrading|reverting))\b"
    r"[^.!?;\n]{0,60}$",
    re.IGNORECASE,
)
_ROLLBACK_NOT_MINE_AFTER = when_used(
    r"[^.!?;\n]{0,40}?\b(?:for\s+(?:him|her|them|others|some(?:one|body)?|many|most|any(?:one|body)|every(?:one|body)|people|a\s+few)"
    r"|ha(?:ve|s)\s*n['\u2019]?t\s+tried|not\s+(?:yet\s+)?tried)\b",
    re.IGNORECASE,
)
"""Another person's rollback or one guessed at ("Others on the forum rolled back to 7.0.11 and it works for them",
"Maybe downgrading to 6.9.0 fixes it, I haven't tried", "Does downgrading to 6.9.0 work for anyone")."""
_RELEASE_TOKEN = when_used(r"\d\.\d{1,2}[\w.+-]{0,40}")


_KERNEL_FAILS = r"(?:breaks?|broke|broken|fails?|failed|crash(?:es|ed)?|hangs?|segfaults?|freezes?|regress\w*|(?:does|do|is)\s*n['\u2019]?t\s+work|(?:does|do|is)\s+not\s+work)"
_KERNEL_FAILS_BEFORE = when_used(
    r"\bkernel\s*v?\d[^.!?;\n]{0,60}?\b" + _KERNEL_FAILS + r"\b|\b" + _KERNEL_FAILS + r"\b[^.!?;\n]{0,40}?\bkernel\s*v?\d",
    re.IGNORECASE,
)
"""A failing kernel named earlier in the sentence ("Kernel 6.17.9 breaks ROCm, but ...", "fails on kernel 6.8, but
...")."""
_KERNEL_WORD_NOT_NOW = when_used(
    r"\b(?:(?:was|were)\s+(?:on|using|running)|(?:other|another|second)\s+server|" + _KERNEL_ANOTHER_STATE
    + r"|needs?|needed|requires?|required|recommend(?:s|ed)?|suggest(?:s|ed)?|try|trying|should|must|at\s+least|minimum"
    # r34b: what a release supports or lists, where a GPU's support landed, a plan, a doubt, a document's or
    # another person's words ("ROCm 6.4 supports kernel 6.8 and 6.11", "RDNA4 support was added in kernel
    # 6.11", "I'll upgrade to kernel 6.14 tomorrow", "I don't think kernel 6.8 supports it", "According to
    # the docs, kernel 6.14 is needed")
    r"|supports?|supported|lists?|listed|(?:landed|added|introduced|merged|arrived|came)\s+(?:in|with)|since|will|['\u2019]ll|going\s+to"
    r"|(?:do\s*n['\u2019]?t|do\s+not)\s+think|not\s+sure|" + DOCUMENT_SAYS + r"|" + REPORTED_SPEECH + r"|(?:the\s+)?(?:rocm\s+)?docs?\b|documentation)\b[^.!?;\n]{0,40}$",
    re.IGNORECASE,
)
"""Words before "kernel X" that make it another state than the running one (h34c): a past one ("It used to
work on kernel 6.8", "Before the update I was on kernel 6.8.0-45"), another machine's ("My other machine runs
kernel 5.15"), what a release ships ("Ubuntu 24.04 ships kernel 6.8"), a requirement or advice ("You need
kernel 6.11 or newer", "AMD requires kernel 6.14", "Try kernel 6.11"). A failure on the kernel ("not working
on kernel 6.8") keeps it the running one."""
_KERNEL_WORD_NOT_NOW_AFTER = when_used(
    r"[ \t]{0,4}(?:or\s+(?:newer|later|above|higher|greater)|\+|and\s+(?:newer|later|above))\b|[^.!?;\n]{0,40}\bby\s+default\b"
    # r34b: a requirement or a support statement about the release ("Kernel 6.11 is required for the RX 9070",
    # "lists kernel 6.8 as supported", "Kernel 6.11 added support for gfx12")
    r"|[ \t]{1,4}(?:(?:is|was|are)\s+(?:(?:the|a)\s+)?(?:minimum|required|needed|necessary|recommended|mandatory)"
    r"|as\s+(?:(?:the|a)\s+)?(?:supported|required|minimum|recommended)|(?:added|adds|introduced|introduces|brought|brings|enabled|enables)\s+support)\b",
    re.IGNORECASE,
)


WSL_STATED, WSL_CAPABILITY, WSL_HYPOTHETICAL = "stated", "capability", "hypothetical"
"""How a sentence names WSL (:func:`wsl_asked`)."""
_HYPOTHETICAL_BEFORE = when_used(
    r"(?<!\bhow\s)(?<!\bwhy\s)\b(?:can|could|would|will|should|may|might)\b(?!n?['’]t\b|\s*not\b)"
    r"|\b(?:if|whether|plan(?:s|ning)?\s+to|want\s+to|wanna|going\s+to|thinking\s+(?:of|about)|consider(?:s|ing)?)\b",
    re.IGNORECASE,
)
"""Words before WSL in a question that make it a setup asked about, not one in use: "does anyone know if I can
use ROCm in WSL2?" (pytorch/pytorch#106608), "so if i use WSL, can i useing ROCm and tensorflow-gpu?"
(microsoft/WSL#4471), "Can I use my 7900 XTX under WSL?". "How can I ..."/"Why can ..." ask about the setup
in use, and "can't"/"cannot" state a failure."""


def wsl_asked(text: str, at: int) -> str:
    """How the sentence around the WSL mention at ``at`` of ``text`` (a line joined by :func:`paragraph`) names
    it: :data:`WSL_STATED` for a statement ("I run ROCm in WSL2"), :data:`WSL_HYPOTHETICAL` for a question
    about a setup the reporter may try ("Can I use ... under WSL?"; never this machine's platform), and
    :data:`WSL_CAPABILITY` for a question whether WSL supports something ("Does 6950xt support ROCm via
    wsl?" ROCm/legacy-rocm-build#4503, "Is the RX 590 compatible with WSL2?" ROCm/legacy-rocm-build#1249,
    "It is possible to install the ROCm framework on WSL2? I can't find any GPU" microsoft/WSL#5495):
    people ask those from WSL after it failed, so the mention counts unless the report states another
    platform (:func:`_states_another_platform`). Bounded to the sentence window around it."""
    start = max(0, at - SENTENCE_WINDOW)
    for match in _SENTENCE_END.finditer(text, start, at):
        start = match.end()
    end = _SENTENCE_END.search(text, at, min(len(text), at + SENTENCE_WINDOW))
    tail = text[at : min(len(text), at + SENTENCE_WINDOW)]
    asks = (end is not None and end.group(0)[0] == "?") or (end is None and tail.rstrip().endswith("?") and "\n" not in tail.rstrip())
    if not asks:
        return WSL_STATED
    return WSL_HYPOTHETICAL if _HYPOTHETICAL_BEFORE.search(text, max(start, at - 120), at) else WSL_CAPABILITY


_NATIVE_LINUX = when_used(
    r"\bnative(?:ly)?\s+(?:on\s+)?(?:Linux|Ubuntu|Debian|Fedora|Arch|Mint|openSUSE|Manjaro|CachyOS|NixOS)\b"
    r"|\b(?:Linux|Ubuntu|Debian|Fedora|Arch|Mint|openSUSE|Manjaro|CachyOS|NixOS)(?:\s+[\d.]+(?:\s+LTS)?)?,?\s+(?:native(?:ly)?|on\s+bare[\s-]metal)\b"
    r"|\bon\s+bare[\s-]metal\b",
    re.IGNORECASE,
)


def _states_another_platform(block: Block) -> bool:
    """The block says the machine runs Linux natively ("Right now on Ubuntu 22.04 native", "on bare metal",
    "native Arch"): with WSL only asked about, that is the platform in use. A distribution named alone is no
    such statement: people on WSL name theirs without it."""
    return next(block.scan(_NATIVE_LINUX), None) is not None


_ADRENALIN = when_used(
    r"\bAdrenaline?(?:[ \t]+Edition)?(?:[ \t]+(?:drivers?|software|version))?(?:[ \t]{1,4}is)?[ \t:(v-]{0,4}(2\d\.\d{1,2}\.\d{1,2})(?!\.?\d)"
    r"|\b(?:AMD[ \t]+|GPU[ \t]+|graphics[ \t]+|display[ \t]+|Windows[ \t]+)?drivers?(?:[ \t]{1,4}is)?[ \t]+(?:version[ \t]+)?(?:from[ \t]+v?-?2\d\.\d{1,2}\.\d{1,2}[ \t]+)?(?:to[ \t]+)?\(?v?-?(2\d\.\d{1,2}\.\d{1,2})(?!\.?\d)",
    re.IGNORECASE,
)
"""An Adrenalin release as people name it: ``Adrenalin Edition 24.9.1``, ``Adrenalin 24.10.1``,
``Adrenalin Drivers (26.1.1)`` and, with the same parenthesis, ``the newest AMD display drivers (25.5.1)``
(vladmandic/sdnext#3918), ``updated my driver from 24.9.1 to 24.10.1`` (the release after
"to" is the one installed). Releases are year.month.n; the WMI driver version (32.0.x.y) and
the four-part internal version (24.20.11.01) are other numbers and not read here. Also the forms
users write (block h31f): the misspelling "Adrenaline" ("adrenaline 24.8.1 driver", ROCm/ROCm#4062;
"Updating from Adrenaline 25.1.1 to 25.3.1", ROCm/ROCm#4459; "Adrenaline drivers 25.11.1",
ollama#13236) and "driver is": "the AMD driver is 24.9.1" (likelovewant/ollama-for-amd#35), "Windows
driver is 24.6.1" (a WSL2 report, ROCm/ROCm#3563's kind), "my Adrenalin driver is ..."; not a required
release ("the compatible driver is 24.6.1", ROCm/ROCm#4062: _REQUIRED_RELEASE)."""
_OR_LATER = when_used(r"[ \t]{0,4}(?:\+|or[ \t]{1,4}(?:later|newer|higher|above|greater))", re.IGNORECASE)
_TO_RELEASE = when_used(r"\)?[ \t]{1,4}to[ \t]{1,4}\(?v?-?(2\d\.\d{1,2}\.\d{1,2})(?!\.?\d)", re.IGNORECASE)
"""After a release, the one moved to: "from Adrenaline 25.1.1 to 25.3.1", "from display drivers (25.5.1) to (25.4.1)"."""
_ADRENALIN_ADVISED_BEFORE = when_used(
    r"\b(?:should|please|try(?:ing)?|recommend\w*|suggest\w*|must|(?:have|need)\s+to|make\s+sure\s+(?:to|you))\s+(?:\w+\s+){0,3}?"
    r"(?:update|upgrade|install|use|get|download|switch|go|move|downgrade|revert|roll\s+back)\b[^.!?;\n]{0,40}$",
    re.IGNORECASE,
)
"""A release named in advice to move to it, not the installed one: "You should update to Adrenalin 25.5.1", "Please
update to the newest AMD display drivers (25.5.1) and try again" (rev48c)."""
_REQUIRED_RELEASE = when_used(
    r"\b(?:compatible|required|recommended|supported|needed|minimum|validated|tested|listed)\b[^.!?\n]{0,24}$",
    re.IGNORECASE,
)
_NEWEST_IS = when_used(r"\b(?:latest|newest|current)\b[^.!?\n]{0,24}$", re.IGNORECASE)
"""Before "driver is X": "the latest driver is 25.3.1" names what AMD offers, not what is installed
(while "the latest Adrenalin 24.9.1 slows everything down" names the installed one)."""
_IS = when_used(r"[ \t]is[ \t]", re.IGNORECASE)
_ADRENALIN_NOT_NOW_BEFORE = when_used(
    r"\b(?:(?:worked|was[ \t]+working)(?:[ \t]+(?:fine|well|perfectly|great|ok))?[ \t]+(?:with|on|under)|was[ \t]+fine[ \t]+(?:with|on)"
    r"|used[ \t]+to|before|previously|last[ \t]+working|avoid|stay[ \t]+away[ \t]+from|(?:do[ \t]+not|don['\u2019]?t|never)[ \t]+(?:install|use|update|upgrade)"
    r"|(?:introduced|fixed|resolved|solved|patched)[ \t]+(?:in|with|since|by)|known[ \t]+(?:issues?|bugs?|problems?)[ \t]+(?:with|in|of|for)"
    r"|(?:roll(?:ed|ing)?[ \t]+back|revert\w*|downgrad\w*|(?:went|go(?:ing)?)[ \t]+back)(?:[^.!?;\n]|\.\d){0,30}?[ \t]from)"
    r"\b[^.!?;\n]{0,30}$",
    re.IGNORECASE,
)
"""Words before a release that make it one left behind or warned against, not the one installed: "It worked with
Adrenalin 24.10.1 but after updating to 24.12.1 ...", "Avoid Adrenalin 24.10.1, I am on 24.8.1"; a release a bug is
dated by: "The bug was introduced in driver 24.9.1, I'm on 24.8.1", "Known issue with Adrenalin 24.9.1" (as
:data:`_KERNEL_NOT_NOW_BEFORE` for kernels). A move "from X to Y" is read by :data:`_TO_RELEASE` first."""
_ADRENALIN_NOT_NOW_AFTER = when_used(
    r"[ \t,)]{0,4}(?:(?:was|were)[ \t]+(?:the[ \t]+)?(?:last|fine|working|ok(?:ay)?|good|stable)\b|worked\b"
    r"|[^.!?;\n]{0,30}\bbefore[ \t]+(?:the|my|this|that)[ \t]+(?:driver[ \t]+)?(?:update|upgrade)\b"
    r"|[^.!?;\n]{0,40}\b(?:stay(?:ed|ing)?|remain(?:ed|ing)?|still)[ \t]+on[ \t]+(?:Adrenaline?[ \t]+)?2\d\.\d{1,2}\.\d)",
    re.IGNORECASE,
)
"""After it: "Adrenalin 24.9.1 was the last driver that worked; now on 24.12.1", "Adrenalin 26.5.1 worked fine, but after
updating to 26.6.1 ...", "I had Adrenalin 26.5.1 before the update; now 26.6.1" (rev52a: the past, not the release
installed); a release moved away from ("Reverting to 26.3.1 from Adrenalin 26.5.1 fixed it", "after rolling back from
Adrenalin 26.5.1") or kept off ("Adrenalin 26.5.1 is broken for ROCm, so I stayed on 26.3.1")."""
_ADRENALIN_WORKED_BEFORE = when_used(
    r"\b(?:(?:worked|was[ \t]+working)(?:[ \t]+(?:fine|well|perfectly|great|ok))?[ \t]+(?:with|on|under)|was[ \t]+fine[ \t]+(?:with|on)"
    r"|used[ \t]+to[ \t]+work\w*[^.!?;\n]{0,20}|last[ \t]+working)\b[^.!?;\n]{0,30}$",
    re.IGNORECASE,
)
_ADRENALIN_WORKED_AFTER = when_used(
    r"[ \t,)]{0,4}(?:(?:was|were)[ \t]+(?:the[ \t]+)?(?:last[ \t]+(?:\w{1,12}[ \t]+){0,2}(?:that|which)[ \t]+worked|last[ \t]+working|fine|working|ok(?:ay)?|good|stable)\b|worked\b)",
    re.IGNORECASE,
)
"""Of :data:`_ADRENALIN_NOT_NOW_BEFORE`'s and :data:`_ADRENALIN_NOT_NOW_AFTER`'s words, those that say the release worked
("It worked with Adrenalin 24.10.1 but after updating ...", "Adrenalin 24.9.1 was the last driver that worked"): the
earlier state, kept for what changed; "Avoid Adrenalin 24.10.1", "introduced in 24.9.1" are not."""
_LINUX_DRIVER_WORDS = when_used(r"\b(?:amdgpu|pro|linux|dkms|kernel|rocm|hip sdk)\b", re.IGNORECASE)
_PYTHON = when_used(r"\bpython\s?v?(3\.\d{1,2}(?:\.\d{1,2})?)(?![\w.])|\bcp3(\d{1,2})-cp3\d{1,2}|\bpy3\.?(\d{1,2})(?![\w.])", re.IGNORECASE)
_WHEEL_REFUSED = when_used(r"is not a supported wheel|none of the wheel'?s tags match", re.IGNORECASE)
"""pip's lines about a wheel it will not install here ("ERROR: torch-2.0.1-cp310-cp310-linux_x86_64.whl is not a supported
wheel on this platform.", "Skipping link: none of the wheel's tags match: cp38-cp38-manylinux1_x86_64"): the wheel's cpXY
tag names a Python this interpreter is not: pip raises the first when a wheel's tags are not among the interpreter's
(pypa/pip at 895eb8c617e0a3e4f8ec0b4ce9245a1073e7f016, src/pip/_internal/resolution/resolvelib/factory.py) and logs the
second for an index file it passes over (src/pip/_internal/index/package_finder.py, LinkEvaluator.evaluate_link).
Reports: microsoft/DirectML#544, evshiron/rocm_lab#6, ROCm/tensorflow-upstream#1215."""


_DENIED = when_used(
    r"\b(?:not|no|never|without|instead of|rather than|away from|outside(?: of)?|no longer|disabled?|turned off|switch(?:ed)? off|don'?t have|do not have)\b[^.,;\n]{0,24}$",
    re.IGNORECASE,
)
"""Words just before a mention that deny it (``not using WSL``, ``moved away from WSL2``, ``I disabled the iGPU``)."""


def denied(text: str, position: int) -> bool:
    """The mention at ``position`` of ``text`` is denied by the words before it: it says what the machine
    is not. (A question is kept: "does my card work in WSL?" usually comes from someone on WSL.)"""
    return bool(_DENIED.search(text[max(0, position - 200) : position]))


WRAP_REACH = 3
"""Lines looked at on each side of a mention's line for the rest of a sentence a wrapping tool cut."""

PARAGRAPH_WINDOW = 300
"""Characters of the lines around a mention that :func:`paragraph` joins on each side: the guards read
at most this far (:data:`SENTENCE_WINDOW`), and a bound keeps the work per mention independent of how
long the lines are (a log line can be megabytes long)."""

_ITEM_START = when_used(r"\s{0,8}(?:[-*+]|\d{1,3}[.)])\s")
"""A list item's marker: a wrapping tool never starts a line with one, so the line before is another item."""
_SENTENCE_START = when_used(r"(?:I|i(?:['’](?:m|ve|d|ll))?(?=\s)|[A-Z][a-z]+)\b")
"""A line after a mention's line that starts with "I" or a capitalised word ("Running under WSL2", "I have not set
HSA_OVERRIDE_GFX_VERSION") more likely starts a sentence than continues one: reports break lines
between thoughts far more often than a tool wraps them, and joined, the next line's words ("override",
"not") were read as the line before's. Reporters who write in lower case start theirs with "i": "i have
an rx 580 8gb with latest adrenalin drivers" (vosen/ZLUDA#326), "i dunnow what this is"
(vladmandic/sdnext#3556), "i dont know. I didnt edit anything." (patientx-cfz/comfyui-rocm#115); a wrapping tool
never leaves the pronoun alone at a line's start any more than "I"."""
_ANSWERED = when_used(r"[?:]\s{0,4}(?:yes|no|none|n/?a|true|false)\W{0,4}$", re.IGNORECASE)
"""A line that ends with the answer to its own question or field ("... a virtual machine (VM)? No",
"Docker: no"): the answer ends it, and the next line is no continuation of it."""


def _continues(text: str, following: str, onwards: bool = False) -> bool:
    """The line ``following`` may be the rest of ``text`` that a wrapping tool cut: looked at only at
    their ends, so the cost does not grow with the lines' length. ``onwards``: ``following`` comes after
    the mention's line, and one that starts like a sentence is not taken as its continuation."""
    head = following[:PARAGRAPH_WINDOW].strip()
    if not may_be_wrapped(text, head) or _ITEM_START.match(following[:16]) or (onwards and _SENTENCE_START.match(head)):
        return False
    return not _ANSWERED.search(text[-24:])


def before_in_sentence(text: str, start: int, width: int = 60) -> str:
    """The ``width`` characters before ``start``, with the line break before ``start``'s line read as a space
    when a wrapping tool may have made it (:func:`_continues`): words that put a sentence in the past
    ("previously it ran\nfine on ROCm 2.1") reach across the wrap, and still end at the sentence's full stop."""
    before = text[max(0, start - width) : start]
    cut = before.rfind("\n")
    if cut < 0:
        return before
    line_start = start - len(before) + cut + 1
    previous = text[text.rfind("\n", 0, line_start - 1) + 1 : line_start - 1]
    end = text.find("\n", line_start)
    current = text[line_start : end if end >= 0 else len(text)]
    if not _continues(previous, current):
        return before
    return before[:cut] + " " + before[cut + 1 :]


def _with_wrapped_head(lines: "List[Line]", index: int) -> str:
    """Line ``index``'s text, led by the end of the line before when a wrapping tool may have cut it from that one: a
    line wrapped again at a narrower width leaves a short tail ("... it appears that `gfx1036` is" / "defined in" /
    "TheRock CMake as a valid target", ROCm/rocm-libraries#2297 wrapped at 80 columns), and whether the break after
    the tail is a wrap too is judged by the line it was cut from, not by the tail's few words. One line back only,
    and at most :data:`PARAGRAPH_WINDOW` characters of it, so the work per line stays bounded. Where the line before
    is itself such a tail, the line it was cut from leads it (rev54g): a long row of an indented results table wrapped
    at 80 columns ("-> 2 devices  (empty HSA_XNACK is" / "harmless)") leaves the next row after a tail of one word,
    and unwrapped that row followed the long one; judged by the tail alone, the rows after it lost the words the
    unwrapped rows were read with ("HSA_OVERRIDE_GFX_VERSION empty -> no ROCm devices"), and a wrap made a GPU
    mention (Osmantic/ODS#1779 wrapped at 80 columns). Two lines back at most."""
    text = lines[index].text
    if index == 0 or len(text) >= WRAPPED_AT:
        return text
    head = lines[index - 1].text
    if index >= 2 and len(head) < WRAPPED_AT and _continues(lines[index - 2].text, head):
        head = lines[index - 2].text[-PARAGRAPH_WINDOW:] + " " + head
    if not _continues(head, text):
        return text
    return head[-PARAGRAPH_WINDOW:] + " " + text


def paragraph(block: Block, line: Line, column: int, whole_line: bool = False) -> Tuple[str, int]:
    """``line`` joined with the lines around it that a wrapping tool may have cut from it (up to
    :data:`WRAP_REACH` on each side), and where ``column`` of ``line`` stands in the joined text: the
    words that say whose GPU a sentence names ("were tested on gfx1201 and do not exhibit", "someone
    with an RX 6700", "spoofing") are read though an 80-column wrap put them on another line. At most
    :data:`PARAGRAPH_WINDOW` characters on each side of ``column`` are joined (all of ``line`` when
    ``whole_line``); a list item or a line that answers its own question is not joined to the next."""
    lines = block.lines
    index = block.position_of(line)
    text = line.text
    low, high = (0, len(text)) if whole_line else (max(0, column - PARAGRAPH_WINDOW), min(len(text), column + PARAGRAPH_WINDOW))
    before: List[str] = []
    first, room = index, PARAGRAPH_WINDOW - (column - low)
    while low == 0 and room > 0 and first > 0 and index - first < WRAP_REACH and _continues(_with_wrapped_head(lines, first - 1), lines[first].text):
        first -= 1
        piece = lines[first].text[-room:]
        before.insert(0, piece)
        room -= len(piece) + 1
    after: List[str] = []
    last, room = index, PARAGRAPH_WINDOW - (high - column)
    while high == len(text) and room > 0 and last + 1 < len(lines) and last - index < WRAP_REACH and _continues(_with_wrapped_head(lines, last), lines[last + 1].text, onwards=True):
        last += 1
        piece = lines[last].text[:room]
        after.append(piece)
        room -= len(piece) + 1
    if not before and not after and low == 0 and high == len(text):
        return text, column
    head = "".join(piece + " " for piece in before)
    return head + text[low:high] + "".join(" " + piece for piece in after), len(head) + column - low


_NOT_AFFECTED = when_used(
    r"\b(?:do(?:es)?|did)(?:n['\u2019]?t|\s+not)\s+(?:exhibit|show|have|reproduce|fail|occur|happen|crash|create)\b"
    r"|\bnot\s+(?:occurring|happening|failing|reproducing)\b",
    re.IGNORECASE,
)
_COMPARED = when_used(r"\b(?:tested|tried|testing|the same|in the case of)\b", re.IGNORECASE)
_SENTENCE_END = when_used(r"[.;!?](?:\s|$)")
_OWN_BEFORE = when_used(r"\b(?:my|our)\s+(?:\w+\s+){0,2}[`'\"]?$", re.IGNORECASE)
SENTENCE_WINDOW = 300
"""Characters looked at on each side of a GPU mention for the sentence around it."""


def compared_elsewhere(text: str, start_in_line: int) -> bool:
    """The GPU named at ``start_in_line`` is one the report compares with: its sentence says a test
    there does not show the problem ("The same builds were tested on gfx1201 and do not exhibit this
    problem", pytorch/pytorch#189849; "the bug not occurring like in the case of gfx1150",
    ROCm/rocm-libraries#5706; "confirmed with testing ... that gfx1201 does not create the same
    issues", ROCm/rocSHMEM#322). Such a GPU was tried on another machine or build; it is no device
    the reporting machine is known to have."""
    # A window around the mention bounds the work per mention (a log line can be megabytes long).
    start = max(0, start_in_line - SENTENCE_WINDOW)
    for match in _SENTENCE_END.finditer(text, start, start_in_line):
        start = match.end()
    stop = min(len(text), start_in_line + SENTENCE_WINDOW)
    end_match = _SENTENCE_END.search(text, start_in_line, stop)
    sentence = text[start : end_match.start() if end_match else stop]
    if _OWN_BEFORE.search(text[max(0, start_in_line - 24) : start_in_line]):
        return False  # "does not crash on my RX 7900 XTX": the reporter's own card
    # The comparison names the GPU after its "tested on" / "the same ... on": a GPU before it is the
    # one the problem was seen on ("On an RX 7900 XTX + Raphael iGPU: the same code does not crash
    # when ...", "The RX 7900 XTX crashes, but the same code does not crash on an RX 6800").
    return bool(_NOT_AFFECTED.search(sentence) and _COMPARED.search(text, start, start_in_line))


_SOMEONE_ELSES = when_used(
    # Not "anyone else with" / "other users with" / "others with": those say the reporter has the GPU too.
    r"(?<!other )\b(?:(?:some|any|every)(?:one|body)(?!\s+else\b)|people|users|owners|those)"
    r"\s+(?:with|who\s+(?:has|have|owns?|runs?|is\s+on|are\s+on))\b[^.;:!?\n]{0,24}$",
    re.IGNORECASE,
)


def someone_elses(text: str, start_in_line: int) -> bool:
    """The GPU named at ``start_in_line`` belongs to someone the report addresses, not to its machine:
    "this needs a check from someone with an RX 6700/6750 XT" (JuliaGPU/AMDGPU.jl#1039), "anyone with a
    7900 XTX can contribute the per-kernel breakdown", "Anyone with an RX 5000 card can reproduce the
    resource numbers", "Anyone with an RX580 (or other GPU) can run the same flake" (public ROCm
    write-ups)."""
    return bool(_SOMEONE_ELSES.search(text[max(0, start_in_line - 80) : start_in_line]))


THIS_MACHINE, ELSEWHERE, DOUBTFUL = "this machine", "elsewhere", "doubtful"
"""Whose GPU a prose mention names (:func:`gpu_scope`)."""

_GPU_ELSEWHERE_BEFORE = when_used(
    # One wished for or about to be bought: "I'm thinking of buying a 9070 XT", "should I get an RX 7600",
    # "I wish I had a 7900 XTX". ("I bought a 7900 XTX" and "to get the 7900 XTX working" are the machine's.)
    r"(?:\b(?:buy|buying|purchas(?:e|ing)|pre-?order(?:ing)?|wish\s+I\s+(?:had|owned|could\s+afford))"
    r"|\b(?:should\s+I|thinking\s+(?:of|about)|planning\s+(?:on|to)|considering|want\s+to|going\s+to)\s+(?:get|getting|order)"
    # One left behind: "upgraded from an RX 580", "replaced my RX 580 with ...", "I used to have a Vega 64",
    # "my previous card, an RX 5700".
    r"|\b(?:upgrad|switch|mov|migrat)(?:e|ed|ing)\s+from|\breplac(?:e|ed|ing)|\bused\s+to\s+(?:have|own|run|use)"
    # "Previously I had an RX 6600, now an RX 7900 XTX"
    r"|\b(?:previously|formerly|originally)\s+(?:I\s+)?(?:had|used|owned|ran|was\s+(?:using|on|running))"
    r"|\b(?:previous|former|prior)(?:\s+(?:card|gpu|graphics\s+card))?\s*,?)"
    r"\s+(?:(?:a|an|the|my|one|new|second|another)\s+){0,2}$",
    re.IGNORECASE,
)
_GPU_OTHERS_BEFORE = when_used(
    # Another person's ("my friend's 9070 XT works", "a colleague with an RX 7900 XT") or an old card of
    # the reporter's ("my old RX 580", which may be gone or may still be the one in the machine).
    r"\b(?:friend|colleague|co-?worker|brother|sister|dad|father|son|wife|husband|roommate|buddy|some(?:one|body)\s+else)"
    r"(?:['\u2019]s)?\b[^.!?;,\n]{0,30}$"
    r"|\bmy\s+old\s+$"
    # another machine of the reporter's (r34b): "on my other PC, an RTX 3060", "my work laptop has an RTX 4070"
    r"|\b(?:(?:other|another|second|different)\s+(?:machine|pc|computer|laptop|desktop|server|box|rig)|work\s+(?:machine|pc|computer|laptop|desktop|server|box|rig)|at\s+work)\b[^.!?;,\n]{0,30}$"
    # another person's or a document's words: "In that issue someone wrote \"... on my RX 6700 XT\""
    r"|(?:" + REPORTED_SPEECH + r"|" + DOCUMENT_SAYS + r")(?:[^.!?;\n]|[.!?](?=\S)){0,80}$",
    re.IGNORECASE,
)
_GPU_OTHERS_AFTER = when_used(
    r"[^.!?;,\n]{0,12}?\b(?:(?:machine|pc|computer|laptop|desktop|server|box|rig|workstation)\s+(?:at|from)\s+(?:work|the\s+office|my\s+(?:job|office|lab|university))|at\s+work)\b"
    # ov50: a GPU named as the class of readers a tip is for ("Tip for RX 6000 users: ...", "780M owners should ...")
    r"|(?:\s{1,3}(?:series|cards?|gpus?|xtx?))?\s{1,3}(?:users|owners)\b",
    re.IGNORECASE,
)
_GPU_ADVICE_KEY_BEFORE = when_used(r"(?:^|[.!?:;]\s{1,3})(?:and\s{1,3}|also\s{1,3}|but\s{1,3})?for\s{1,3}(?:an?\s{1,3}|the\s{1,3})?$", re.IGNORECASE)
_GPU_ADVICE_KEY_AFTER = when_used(
    r"[\w ]{0,16}?[,:]?\s{1,3}(?:(?:you\s{1,3})?(?:use|set|export|add|put)\b|you\s{1,3}(?:need|must|should|have\s{1,3}to)\b|it\s{1,3}is\s{1,3}(?:HSA|\d)|the\s{1,3}override\b|(?:also\s{1,3})?(?:HSA_OVERRIDE_GFX_VERSION\s{0,3}=\s{0,3})?\d{1,2}\.\d\.\d\b)",
    re.IGNORECASE,
)
"""A GPU that keys an advice sentence ("For RX 7600 use 11.0.0.", "For the 780M, set HSA_OVERRIDE_GFX_VERSION=11.0.0"): a
reader's card the advice is for, not the machine's (kept where the report names no other GPU)."""
"""A GPU named as another machine's after it (r34b): "It works on my RTX 4090 machine at work": the reporter's,
but not the machine the report runs on."""
_ASKED_OWNER = when_used(
    r"\b(?:my|mine|our|I\s+(?:have|own|use|run|got|bought)|I['\u2019]m\s+(?:using|running|on)|I\s+am\s+(?:using|running|on)|why|how|what|which"
    r"|(?:any|some|every)(?:one|body)|others?|too|also)\b",
    re.IGNORECASE,
)
"""Words that make a question one about the reporter's own GPU ("Why is my RX 6800 not found?", "How do I
get the 7900 XTX to work?", "Anyone else with a 7900 XTX seeing this crash?"): only a yes/no question about
a GPU nobody in it owns ("Does the RX 9070 XT work on kernel 6.8?") may be about a GPU the reporter does
not have."""


_SUPPORT_TOLD_BEFORE = when_used(
    # What a ROCm release supports, said of a GPU as a product, not as the reporter's card: "ROCm 5.0 removed
    # the RX 480 from the support list", "the compatibility matrix lists the RX 7900 XTX" (a "my" before the GPU makes
    # it the reporter's: checked first). Reports name such products beside their own GPU: the MI25 whose support was
    # dropped after ROCm 4.5 (ROCm/legacy-rocm-build#1669, a Vega 56/64 owner), the RX 590 "too early to drop support"
    # (ROCm/legacy-rocm-build#1659), GFX 702 "no longer supported on ROCm 6.2" (ROCm/ROCR-Runtime#74), a GPU no longer
    # listed in the install guide (ROCm/legacy-rocm-build#5573). Not a present lack ("rocBLAS lacks 780M gpu support", ROCm/rocBLAS#1536;
    # "ollama does not support gfx1031"): that is how people say their own GPU is left out.
    # ROCm (or AMD) as the one that drops: "the driver dropped the RX 6800", "ollama no longer supports the RX 6600"
    # speak of the machine's card
    r"\b(?:(?:rocm|hip|amd)(?:\s{1,4}v?\d[\w.]{0,8})?\s{1,4}(?:(?:has|have|had|officially|already|quietly)\s{1,4})?"
    r"(?:dropp(?:ed|ing)|drops?|remov(?:ed|es|ing)|deprecat(?:ed|es|ing)|discontinu(?:ed|es|ing)|(?:never|no\s+longer)\s+supports?(?:ed)?)"
    # a document's list, not a tool's ("rocminfo lists the RX 7900 XTX", "Device Manager lists the RX 6700 XT": the
    # machine's own card)
    r"|(?:matrix|list|guide|docs?|documentation|page|table|readme|website|notes)\s{1,4}(?:(?:only|also|still|now)\s{1,4})?(?:lists|listed))"
    r"\s+(?:(?:the|all|any|older|old|legacy|official|rocm|hip)\s+){0,2}$",
    re.IGNORECASE,
)
_SUPPORT_TOLD_AFTER = when_used(
    # The GPU as the subject of its support history: "The R9 290 was dropped in ROCm 2.x", "Vega 64 support ended with
    # ROCm 5.x", "Polaris cards like the RX 480 are no longer supported", "The Radeon VII was supported until ROCm 6.3",
    # "The R9 Fury was never supported". A present "is not supported" or "is no longer supported by ollama" of one card
    # is left: people say it of their own card (a plural "are" speaks of a class of products). "Dropped" and its kin
    # need the release or the support list after them: "the RX 6800 was dropped from rocminfo", "got dropped by the
    # driver" are the machine's card gone missing.
    r"[\w ]{0,24}?\s(?:(?:gpus?|cards?|series|apus?)\s+)?(?:support\s+(?:ended|stopped|was\s+(?:dropped|removed))"
    r"|(?:was|were|has\s+been|have\s+been|got|will\s+be)\s+(?:(?:officially|already|also|long|quietly)\s+)?"
    r"(?:(?:dropped|removed|deprecated|discontinued)\s{1,4}(?:(?:in|with|since|after|from|as\s{1,4}of|starting\s{1,4}(?:with|from|in)|by)\s{1,4}"
    r"(?:rocm\b|hip\b|amd\b|v?\d|the\s{1,4}(?:(?:rocm|official)\s{1,4})?(?:support|supported|compatibility)\b"
    r"|(?:a|the)\s{1,4}(?:next|future|upcoming|coming)\s{1,4}(?:release|version)\b)|from\s{1,4}support\b)"
    r"|never\s+supported|supported\s+(?:until|up\s+to|through|only\s+until))"
    r"|are\s+(?:(?:now|officially)\s+)?(?:deprecated|discontinued|no\s+longer\s+supported|(?:EOL|end[\s-]of[\s-]life)\b))",
    re.IGNORECASE,
)
"""A GPU named in a statement of what ROCm or a program supports, as a product rather than the reporter's card
(:func:`gpu_scope` gives it :data:`DOUBTFUL`: kept when the report names no other GPU, as "The RX 580 was dropped in
ROCm 4, and now my card fails" names the reporter's own)."""


_PAST_OWNED_BEFORE = when_used(r"\b(?:I|we)\s{1,4}(?:had|owned|ran|used|bought|was\s{1,4}(?:using|running))\s{1,4}(?:(?:a|an|the|one|two)\s{1,4})?$", re.IGNORECASE)
"""The reporter's own past card, in a sentence whose words put it in the past: "Before the upgrade I ran an RX 5700 XT",
"before that I used an RX 580"."""
_ANOTHERS_MACHINE = when_used(r"\b(?:" + ANOTHERS_MACHINE + r")\b", re.IGNORECASE)


def gpu_scope(text: str, at: int) -> str:
    """Whose GPU the mention at ``at`` of ``text`` (a line joined by :func:`paragraph`) names, read from
    its sentence the way :func:`rocm_doctor.ingest.signatures.statement_pattern` reads a statement:
    :data:`ELSEWHERE` for one wished for or left behind (never this machine's), :data:`DOUBTFUL` for
    another person's, "my old" one, one ROCm's support history names as a product, one the reporter had
    before or has on another machine, or one a yes/no question asks about (this machine's only when the
    report names no other GPU), else :data:`THIS_MACHINE`. Bounded to the sentence window around it."""
    start = max(0, at - SENTENCE_WINDOW)
    for match in _SENTENCE_END.finditer(text, start, at):
        start = match.end()
    before = text[max(start, at - 80) : at]
    if _GPU_ELSEWHERE_BEFORE.search(before):
        return ELSEWHERE
    if _GPU_OTHERS_BEFORE.search(before):
        return DOUBTFUL
    if _GPU_OTHERS_AFTER.match(text, at, min(len(text), at + 120)):
        return DOUBTFUL
    if _GPU_ADVICE_KEY_BEFORE.search(text, max(0, at - 12), at) and _GPU_ADVICE_KEY_AFTER.match(text, at, min(len(text), at + 80)):
        return DOUBTFUL
    end_of_sentence = _SENTENCE_END.search(text, at, min(len(text), at + SENTENCE_WINDOW))
    if len(support_list_keys(text[start : end_of_sentence.start() if end_of_sentence else min(len(text), at + SENTENCE_WINDOW)])) >= SUPPORT_TABLE_GPUS:
        # ov50: a sentence that lists three or more GPUs each with its setting or support ("RX 6700 XT needs
        # HSA_OVERRIDE_GFX_VERSION=10.3.0, RX 7600 needs 11.0.0, RX 5700 XT is unsupported"): a support list in prose
        return DOUBTFUL
    if _OWN_BEFORE.search(before[-24:]):
        return THIS_MACHINE
    if _SUPPORT_TOLD_BEFORE.search(before[-60:]) or _SUPPORT_TOLD_AFTER.match(text, at, min(len(text), at + 120)):
        return DOUBTFUL
    scope = scope_before(text[start:at], at - start, reach=80, span=120)
    if (scope == PAST and _PAST_OWNED_BEFORE.search(before[-40:])) or (scope == ELSEWHERE_SCOPE and _ANOTHERS_MACHINE.search(text, max(start, at - 120), at)):
        # "Before the upgrade I ran an RX 5700 XT", "on my other PC it is an RX 6600": a GPU the reporter had in the
        # past or has on another machine (a document's or another person's words are :data:`_GPU_OTHERS_BEFORE`'s; an
        # example's GPU is the reporter's). A past STATE said of the GPU is not a past GPU: "It crashes before the first
        # step on the RX 7900 XTX", "It used to be fast on the RX 6800" name the card still in the machine, and so
        # does another container or venv on it ("in another container the RX 6800 is found").
        return DOUBTFUL
    end = _SENTENCE_END.search(text, at, min(len(text), at + SENTENCE_WINDOW))
    if end is not None and end.group(0)[0] == "?" and not _ASKED_OWNER.search(text, start, end.start()):
        return DOUBTFUL
    return THIS_MACHINE


_FILE_END = when_used(r"\.[A-Za-z][A-Za-z0-9]{1,5}$")
_TOKEN_EDGE = " \t\n\"'`()[]<>,;"


def in_file_name(text: str, start: int, end: int) -> bool:
    """The text at ``start:end`` is part of a file name or path (``Kernels.so-000-gfx1030.hsaco``,
    ``/lib/firmware/.../gfx1100/...``): a file name says which files exist, not which GPU the machine
    has (a device line does). Looks at the token around it only, within 200 characters."""
    left = start
    while left > 0 and start - left < 200 and text[left - 1] not in _TOKEN_EDGE:
        left -= 1
    right = end
    while right < len(text) and right - end < 200 and text[right] not in _TOKEN_EDGE:
        right += 1
    token = text[left:right].rstrip(".:")
    if token == text[start:end]:
        return False
    return "/" in token or "\\" in token or bool(_FILE_END.search(token))


_OWN_GFX_BEFORE = when_used(
    # The reporter introduces the target as the GPU's own, right before it: "I am on gfx1201 which is
    # already natively supported ... spoofing" (jamiepine/voicebox#469), "the 6600 is `gfx1032`, I have
    # to override it to `gfx1030`" (ROCm/legacy-rocm-build#5069), "an RX 6700 XT (gfx1031), which
    # requires HSA_OVERRIDE_GFX_VERSION" (ace-step/ACE-Step-1.5#658). Such a gfx is a device even in a
    # sentence about overrides, which otherwise names targets and support lists.
    r"(?:\bI(?:['\u2019]m|\s+am)\s+(?:on|using|running)(?:\s+an?)?"
    r"|\bmy\s+(?:\w+\s+){0,2}(?:is|=)"
    r"|\b(?:RX\s?\d{3,4}|\d{4})\s?(?:XTX|XT|GRE)?\s+is"
    r"|\b(?:RX\s?\d{3,4}|\d{4})\s?(?:XTX|XT|GRE)?\s?\()"
    r"\s{0,2}[`'\"]?$",
    re.IGNORECASE,
)


_BY_OVERRIDE_AFTER = when_used(r"[\w`'\"]{0,12}[ \t]{0,3}[(,]?[ \t]{0,3}(?:through|via|with|using|by)[ \t]+(?:the[ \t]+|an?[ \t]+)?(?:HSA_OVERRIDE|override|spoof)", re.IGNORECASE)
"""What follows a target the reporter runs as, not has: "I'm using gfx1030 through HSA_OVERRIDE_GFX_VERSION=10.3.0"."""


def _own_gfx(text: str, start: int, end: int) -> bool:
    """The gfx at ``start``-``end`` is introduced as the reporter's GPU (:data:`_OWN_GFX_BEFORE`), not as the
    target an override makes it run as (:data:`_BY_OVERRIDE_AFTER`)."""
    return bool(_OWN_GFX_BEFORE.search(text[max(0, start - 40) : start])) and not _BY_OVERRIDE_AFTER.match(text, end, end + 60)


_TARGET_ROW = when_used(
    r"[ \t]{0,8}(?:[-*+|][ \t]{0,4}|\d{1,2}[.)][ \t]{1,4})?[`*_]{0,2}gfx([0-9]{2,3}[0-9a-f])\b[`*_]{0,2}[ \t]{0,4}"
    r"(?:[\u2014\u2013:=|(]|->|=>|-{1,2}(?=[ \t]))",
    re.IGNORECASE,
)
"""A line that opens with a gfx target and maps it to something ("- gfx1100 \u2014 RX 7900 XTX / 7900 XT",
"gfx1101: RX 7800 XT", "| gfx1102 | RX 7600 |")."""


_PACKAGE_BEFORE = when_used(r"[A-Za-z0-9]-\Z")


def _in_package_name(text: str, start: int) -> bool:
    """The gfx at ``start`` ends a hyphenated package or artifact name (``rocm-sdk-libraries-gfx1151``,
    ``amd-torch-device-gfx1100``, ``torch[device-gfx1201]``): the name says which build was installed, not
    which GPU the machine has (ROCm/TheRock#3046 installed rocm-sdk-libraries-gfx1151 on a gfx1150 laptop)."""
    return text[start : start + 3].lower() == "gfx" and bool(_PACKAGE_BEFORE.search(text[max(0, start - 2) : start]))


def target_table_rows(block: Block) -> FrozenSet[int]:
    """The lines of a table or list that maps gfx targets to products (two rows or more, each opening with
    another target): a reference of which target each card is, written out by the reporter or copied from a
    document (ROCm/legacy-rocm-build#6049 lists every RDNA3 target with its cards under "What Is Present vs
    Missing" on a 780M machine), not the GPUs this machine has. A machine's own GPUs are named by name first
    ("GPU 0: RX 7900 XTX (gfx1100)") or by a tool's listing, read by their own readers."""
    if "gfx" not in block.lower:
        return frozenset()
    rows = {line.number: match.group(1).lower() for line in block.lines for match in [_TARGET_ROW.match(line.text)] if match}
    return frozenset(rows) if len(set(rows.values())) >= 2 else frozenset()


_QUOTED_TARGET_ITEM = when_used(r"[ \t]{0,12}[\"']gfx([0-9]{2,3}[0-9a-f])(?::(?:xnack|sramecc)[+-]){0,2}[\"'][ \t]{0,4}[,)\]]{0,2}[ \t]{0,4}$", re.IGNORECASE)
"""A line that holds one quoted target and nothing else but list punctuation: an item of a CMake ``list(APPEND ...)``,
a Python or JSON list written one item a line."""


def target_list_lines(block: Block) -> FrozenSet[int]:
    """The lines of a list of targets written one quoted item a line, three or more distinct in a row (rev52d):
    a build's target list copied from its CMake file (ROCm/TheRock#1443 quotes Tensile's ``list(APPEND
    BASE_ARCHITECTURES "gfx803" ...)`` from TensileSupportedArchitectures.cmake; hipBLASLt's
    TensileliteSupportedArchitectures.cmake is written the same way), not the GPUs this machine has. A tool's
    listing of devices (``rocm_agent_enumerator``, one bare target a line) does not quote its targets."""
    if "gfx" not in block.lower:
        return frozenset()
    out: Set[int] = set()
    run: List[Tuple[int, str]] = []
    for line in list(block.lines) + [None]:
        match = _QUOTED_TARGET_ITEM.match(line.text) if line is not None else None
        if match is not None:
            run.append((line.number, match.group(1).lower()))
            continue
        if len({gfx for _, gfx in run}) >= 3:
            out.update(number for number, _ in run)
        run = []
    return frozenset(out)


def _gfx_sightings(block: Block) -> List[GpuSighting]:
    if "gfx" not in block.lower:
        return []
    by_line: Dict[int, List[Tuple[str, Line, bool, bool]]] = {}
    text = block.text
    reference = target_table_rows(block) | target_list_lines(block)
    bundle_entries: Dict[int, bool] = {}  # once per line: a long line holds many targets (a JSON listing on one line)
    for match, line in block.scan(_GFX):
        if line.number in reference or _in_package_name(text, match.start()):
            continue
        gfx = gfx_of("gfx" + match.group(1))
        if line.number not in bundle_entries:
            bundle_entries[line.number] = BUNDLE_ENTRY_LINE.search(line.text) is not None
        # an entry of the HIP runtime's "Bundled Code Objects:" list names a target of the binary, not a device
        if gfx is not None and not in_file_name(text, match.start(), match.end()) and not bundle_entries[line.number]:
            around, at = paragraph(block, line, block.column_at(match.start()))
            scope = gpu_scope(around, at)
            if scope == ELSEWHERE or compared_elsewhere(around, at) or someone_elses(around, at):
                continue
            column = block.column_at(match.start())
            by_line.setdefault(line.number, []).append((gfx, line, _own_gfx(text, match.start(), match.end()), scope == DOUBTFUL, column))
    out: List[GpuSighting] = []
    for number, found in by_line.items():
        line = found[0][1]
        # the line with the lines a wrapping tool may have cut from it: the words that say a gfx is an
        # override target or a support list ("override ... gfx1030", "spoofing") may stand there
        head, at = paragraph(block, line, 0, whole_line=True)
        # the targets of a printed supported list are no device; a target before the list, or in another
        # sentence, is counted and read as any other
        spans = _supported_list_spans(head)

        def in_list(position: int) -> bool:
            return any(start <= position < end for start, end in spans)

        found = [item for item in found if item[2] or not in_list(at + item[4])]
        targets = {gfx for gfx, _, _, _, _ in found}
        # a list of three or more targets, counted in the sentence an 80-column wrap may have cut over
        # several lines ("... gfx906, gfx908, gfx90a,\ngfx942 but not for gfx1010"): its tail is the list too;
        # one target before a printed supported list is the one refused ("Unknown GPU architecture: gfx1151.
        # Supported architectures: [...]", "my gfx1031 is not in the supported architectures: gfx1030, gfx1100")
        named = [(gfx_of("gfx" + m.group(1)), in_list(m.start())) for m in _GFX.finditer(head)]
        listed = targets | {gfx for gfx, _ in named if gfx}
        refused_before_list = bool(spans) and len(targets | {gfx for gfx, member in named if gfx and not member}) == 1
        if (len(listed) >= 3 and not refused_before_list) or _GFX_LIST_CONTEXT.search(head):
            targets = {gfx for gfx, _, own, _, _ in found if own}
        for gfx in sorted(targets):
            doubtful = all(doubt for seen, _, _, doubt, _ in found if seen == gfx)
            out.append(GpuSighting("mention", 0, line, gpu_fields(gfx=gfx), doubtful=doubtful))
    return out


def count_before(text: str, start: int) -> int:
    match = _COUNT_BEFORE.search(text[max(0, start - 16) : start])
    if match is None:
        return 1
    if match.group(1):
        return max(1, min(int(match.group(1)), 16))
    return _COUNT_WORDS[match.group(2).lower()]


MAX_LINES_PER_NAME = 64
"""Lines kept per GPU name in one block: enough to count cards (``2x``), bounded for 20 MB logs."""


@lru_cache(maxsize=4096)
def _model(text: str):
    return model_for_name(text)


AMD_GPU_NAMED = "rocm_stack_mentioned"
"""An AMD GPU named by its model ("RX 580", "rx6700xt", "MI100", "7900 XTX") speaks of an AMD GPU as much as
the word "Radeon" does (the signature rocm_stack_mentioned): the context cannot depend on whether the reporter
wrote "AMD Radeon" before the model (ollama/ollama#3547 and #7845, likelovewant/ollama-for-amd#123,
vosen/ZLUDA#326, robertrosenbusch/gfx803_rocm#28 name only the model). Counted where the name is this machine's
GPU: a model sold, compared with or someone else's ("I used to have an RX 6800, now an RTX 4090") does not make an
NVIDIA user's report one about an AMD GPU (RD829 is an error)."""


def _name_sightings(block: Block, named: Optional[List[Line]] = None) -> List[GpuSighting]:
    """The AMD and NVIDIA GPUs named in ``block``; the first line naming an AMD model of this machine is appended to
    ``named``."""
    lowered = block.lower
    text = block.text
    taken = Spans()
    per_name: Dict[str, int] = {}
    out: List[GpuSighting] = []
    reference = target_table_rows(block)

    def keep(key: str, counted: bool) -> bool:
        per_name[key] = per_name.get(key, 0) + 1
        return counted or per_name[key] <= MAX_LINES_PER_NAME

    for pattern in GPU_NAME_PATTERNS:
        for match, line in block.scan(pattern):
            if match.start() in taken or line.number in reference:
                continue
            name = match.group(0).strip()
            model = _model(name.lower())
            if model is None:
                continue
            if pattern is _LOWER_IGPU or pattern is _MOBILE_NUMBER:
                column = block.column_at(match.start())
                if not _lower_igpu_said_as_gpu(line.text, column, column + len(match.group(0))):
                    continue
                if pattern is _MOBILE_NUMBER and _mobile_number_a_quantity(line.text, column, column + len(match.group(0))):
                    continue
            taken.add(match.start(), match.end())
            around, at = paragraph(block, line, block.column_at(match.start()))
            scope = gpu_scope(around, at)
            if scope == ELSEWHERE or compared_elsewhere(around, at) or someone_elses(around, at):
                continue
            if named is not None and not named:
                named.append(line)
            count = count_before(text, match.start())
            if not keep(model.gfx + name.lower(), count > 1):
                continue
            fields = gpu_fields(name=name)
            if count > 1:
                fields[COUNT_FIELD] = count
            out.append(GpuSighting("mention", 0, line, fields, doubtful=scope == DOUBTFUL))
    for match, line in block.scan(codename_regex()):
        if match.start() in taken or line.number in reference:
            continue
        model = _model(match.group(0).lower())
        if model is None:
            continue
        column = block.column_at(match.start())
        if _in_name_token(line.text, column, column + len(match.group(0))):
            continue
        around, at = paragraph(block, line, column)
        scope = gpu_scope(around, at)
        if scope == ELSEWHERE or someone_elses(around, at):
            continue
        if keep(match.group(0).lower(), False):
            fields = gpu_fields(gfx=model.gfx)
            fields.update({"name": match.group(0), "integrated": model.integrated})
            out.append(GpuSighting("mention", 0, line, fields, doubtful=scope == DOUBTFUL))
    if "gpu" in lowered or "apu" in lowered or "integrated" in lowered:
        for match, line in block.scan(_IGPU):
            column = block.column_at(match.start())
            if denied(*paragraph(block, line, column)) or _OTHER_VENDOR_BEFORE.search(line.text[:column]):
                continue
            if _in_url(line.text, column):
                continue
            if keep("igpu", False):
                out.append(GpuSighting("mention", 0, line, {"integrated": True, "vendor": "AMD", "name": "integrated GPU (" + match.group(0) + ")"}))
    if "rtx" in lowered or "gtx" in lowered or "nvidia" in lowered or "quadro" in lowered or "titan" in lowered or "tesla" in lowered or "my " in lowered:
        for match, line in block.scan(NVIDIA_NAME):
            if match.start() in taken:
                continue
            taken.add(match.start(), match.end())
            around, at = paragraph(block, line, block.column_at(match.start()))
            scope = gpu_scope(around, at)
            if scope == ELSEWHERE or compared_elsewhere(around, at) or someone_elses(around, at) or denied(around, at):
                continue
            if _COMPARED_WITH_BEFORE.search(around[max(0, at - 40) : at]):
                continue
            if _NVIDIA_GONE_BEFORE.search(around[max(0, at - 80) : at]) or _NVIDIA_GONE_AFTER.search(
                around, at + match.end() - match.start(), at + match.end() - match.start() + 60
            ):
                continue
            name = match.group(0).strip()
            count = count_before(text, match.start())
            if not keep("nvidia " + name.lower(), count > 1):
                continue
            fields: Dict[str, object] = {"name": name, "vendor": "NVIDIA", "integrated": False}
            if count > 1:
                fields[COUNT_FIELD] = count
            out.append(GpuSighting("mention", 0, line, fields, doubtful=scope == DOUBTFUL))
    if "series" in lowered:
        for match, line in block.scan(_SERIES):
            if keep("series" + match.group(0).lower(), False):
                out.append(GpuSighting("mention", 0, line, {"integrated": False, "vendor": "AMD", "name": match.group(0)}))
    return out


def _fx_sightings(block: Block) -> List[Observation]:
    """The AMD FX processor a block names (it carries no integrated GPU), read as the machine's CPU unless the
    paragraph places it on another machine; the first one only."""
    if _INTEL_CPU_NAMED.search(block.text):
        return []
    for match, line in block.scan(_CPU_FX):
        column = block.column_at(match.start())
        # only this machine's: the FX alone decides RD620, so another person's, "my old" one, or one a question asks
        # about ("My friend has an FX-8350 and it works for him") is not read (rev53e)
        if gpu_scope(*paragraph(block, line, column)) != THIS_MACHINE:
            continue
        # a URL or a file name ("guides/fx-8350-rx580.html") names no processor of this machine (rev53e)
        end = min(len(line.text), column + len(match.group(0)))
        if _in_url(line.text, column) or in_file_name(line.text, column, end) or line.text[end : end + 1] in ("-", "_", "/"):
            continue
        name = " ".join(match.group(0).split())
        if not name.upper().startswith("AMD"):
            name = "AMD " + name
        return [Observation("cpu.model", name, line, TRUST_PROSE), Observation("cpu.vendor", "AMD", line, TRUST_PROSE)]
    return []


def _cpu_sightings(block: Block) -> Tuple[List[Observation], List[GpuSighting]]:
    lowered = block.lower
    apu_named = ("max" in lowered or "hx" in lowered or "ai " in lowered) and _APU_WITHOUT_RYZEN.search(block.text) is not None
    if "ryzen" not in lowered and "threadripper" not in lowered and "athlon" not in lowered and not re.search(r"\br[3579]\s", lowered) and not apu_named:
        # an FX only where no Ryzen shares the block ("moved from an FX-8350 to a Ryzen 5 3600": which one runs is
        # the Ryzen reader's question, not a second CPU)
        return (_fx_sightings(block) if "fx" in lowered else []), []
    observations: List[Observation] = []
    gpus: List[GpuSighting] = []
    found = [(match, line, match.group(0).strip()) for match, line in block.scan(_CPU)]
    if not found and ("max" in lowered or "hx" in lowered or "ai " in lowered):
        # "AI Max+ 395", "HX 370" with no "Ryzen": read only where no Ryzen name is (the Ryzen reader's own question)
        found = [(match, line, _apu_lookup_name(match)) for match, line in block.scan(_APU_WITHOUT_RYZEN)]
    for match, line, lookup in found:
        name = match.group(0).strip()
        scope = gpu_scope(*paragraph(block, line, block.column_at(match.start())))
        if scope == ELSEWHERE:
            continue  # "thinking of buying a Ryzen AI Max+ 395": no part of this machine
        observations.append(Observation("cpu.model", name, line, TRUST_PROSE))
        observations.append(Observation("cpu.vendor", "AMD", line, TRUST_PROSE))
        igpu = igpu_for_cpu(lookup)
        if igpu is not None:
            fields = gpu_fields(gfx=igpu.gfx)
            fields.update({"integrated": True, "name": f"{igpu.name} (the iGPU of {name})"})
            gpus.append(GpuSighting("cpu", 0, line, fields, doubtful=scope == DOUBTFUL))
    return observations, gpus


# ------------------------------------------------------------------ torch, ROCm, containers


def _plain(version: str) -> str:
    return version.replace("%2B", "+").replace("%2b", "+")


def _inside(position: int, spans: List[Tuple[int, int]]) -> bool:
    return any(start <= position < end for start, end in spans)


_RESOLVER_EXPLANATION = when_used(
    # uv (pubgrub): "× No solution found when resolving dependencies: ╰─▶ Because torch==2.9.0+rocm7.10.0a20251117 depends on
    # filelock ... And because you require torch==..., we can conclude that your requirements are unsatisfiable."
    r"\bNo\s{1,4}solution\s{1,4}found\s{1,4}when\s{1,4}resolving\b(?:[^\n]|\n(?![ \t]*\n)){0,6000}?\bunsatisfiable\b"
    r"|\bBecause\b[^\n]{0,400}\b(?:depends\s{1,4}on|is\s{1,4}available|are\s{1,4}available|was\s{1,4}not\s{1,4}found|you\s{1,4}require|there\s{1,4}(?:is|are)\s{1,4}no\s{1,4}versions?)\b"
    # the conclusion in the same paragraph, in a resolver's words ("we can conclude that torch==2.9.0 cannot be used": a
    # bare "cannot be used" is prose - "Because ComfyUI depends on torch, I installed ... The GPU cannot be used")
    r"(?:[^\n]|\n(?![ \t]*\n)){0,6000}?\b(?:unsatisfiable|version\s{1,4}solving\s{1,4}failed|is\s{1,4}forbidden"
    r"|conclude\s{1,4}that\b[^\n]{0,200}\bcannot\s{1,4}be\s{1,4}used)\b[^\n]{0,200}"
    # pip's resolver: "ERROR: Cannot install torch==A and torchvision==B because these package versions have conflicting
    # dependencies. The conflict is caused by: The user requested torch==A / torchvision B depends on torch==C"
    r"|\bCannot\s{1,4}install\b[^\n]{0,2000}?\bconflicting\s{1,4}dependencies\b"
    # and the indented lines under it (pip prints each cause indented; a "$" under MULTILINE had ended it at its own line)
    r"|\bThe\s{1,4}conflict\s{1,4}is\s{1,4}caused\s{1,4}by:[^\n]{0,400}(?:\n[ \t]{1,12}[^\n]{0,400}){0,60}"
    r"|^[^\n]{0,80}\bThe\s{1,4}user\s{1,4}requested\s{1,4}(?:py)?torch\b[^\n]{0,200}"
    # a requirement with its specifier ("xformers 0.0.28 depends on torch==2.5.0", "depends on torch (1.7.1)", uv's
    # "depends on torch{sys_platform == 'linux'}>=2.6.0"); prose's "Because ComfyUI depends on torch, I installed torch
    # 2.5.1+rocm6.2" names the installed one on the same line
    r"|^[^\n]{0,200}\bdepends\s{1,4}on\s{1,4}(?:py)?torch(?:vision|audio)?\s{0,2}(?:\(|\{|[<>=!~]=|[<>])[^\n]{0,200}"
    # pip finding no wheel for a pin ("ERROR: Could not find a version that satisfies the requirement torch==2.1.0+cu121
    # (from versions: ...)", "ERROR: No matching distribution found for torch==2.1.0+cu121"): the pin was not installed,
    # and neither was it by the install command whose output that is (the command line and up to twelve lines to the error)
    r"|^[^\n]{0,200}\b(?:pip3?|uv[ \t]{1,4}pip)[ \t]{1,4}install\b[^\n]{0,400}\n(?:[^\n]{0,400}\n){0,12}?[^\n]{0,80}"
    r"(?:Could\s{1,4}not\s{1,4}find\s{1,4}a\s{1,4}version\s{1,4}that\s{1,4}satisfies\s{1,4}the\s{1,4}requirement|No\s{1,4}matching\s{1,4}distribution\s{1,4}found\s{1,4}for)\s{1,4}(?:py)?torch\b[^\n]{0,200}"
    r"|^[^\n]{0,80}(?:Could\s{1,4}not\s{1,4}find\s{1,4}a\s{1,4}version\s{1,4}that\s{1,4}satisfies\s{1,4}the\s{1,4}requirement|No\s{1,4}matching\s{1,4}distribution\s{1,4}found\s{1,4}for)\s{1,4}[^\n]{0,200}",
    re.IGNORECASE | re.MULTILINE,
)
"""A resolver's explanation of why it refused an install: uv's ("Because only torch<=2.5.1+rocm6.2 is available and your
project depends on torch>=2.6.0, we can conclude that your project's requirements are unsatisfiable": astral-sh/uv#13197,
astral-sh/uv#10604, ROCm/TheRock#2344, ROCm/TheRock#5358, pytorch/pytorch#189748), poetry's ("Because torchvision
(0.8.2+cu101) depends on torch (1.7.1) and <env> depends on torch (1.7.1+cu101), torchvision is forbidden. So, because
... version solving failed": pytorch/vision#4819, pytorch/vision#4347, pytorch/vision#2310) and pip's ("The conflict is
caused by: The user requested torch==2.2.1+cu118 / torchvision 0.16.1+cu118 depends on torch==2.1.1+cu118":
mjtaheri11/FL-wireless#1, Akegarasu/lora-scripts#375, hacksider/Deep-Live-Cam#1091), and pip finding no wheel for a pin
(pip 24.0 src/pip/_internal/resolution/resolvelib/factory.py: "Could not find a version that satisfies the requirement",
"No matching distribution found for"). The torch and companion releases it
names are candidates, requests and pins, none of them installed: no torch release is read inside it (what it says is
read by the resolver signatures of rules/data/signatures.yaml)."""


_PAST_LABEL = when_used(
    r"(?:^|\n)[ \t>*_#-]{0,8}(?:last\s{1,4}(?:known[ -]\s{0,2})?(?:working|good)|previously|before(?:\s{1,4}(?:the|my)\s{1,4}up(?:date|grade))?|old|previous|earlier)"
    r"(?:\s{1,4}(?:setup|environment|env|version|versions|install\w*|state|config\w*))?[*_`]{0,3}\s{0,2}:"
    # to the torch named, unless the line turns to the present first ("Before: torch 2.4.1+rocm6.1, after: torch 2.5.1+rocm6.2")
    r"(?:(?!\b(?:now|after|currently|current|today|new|updated|upgraded)\b)[^\n]){0,120}$",
    re.IGNORECASE,
)
"""An inline label that puts the rest of its line in an earlier state ("Last working: torch 2.4.1+rocm6.1, ROCm 6.1.3",
"Before the update: torch 2.5.1+rocm6.2"): the line-of-its-own label (:func:`rocm_doctor.ingest.blocks.past_blocks`)
written on the same line as what it labels."""


def _torch_scope(text: str, at: int) -> str:
    """Whose and when the torch release at ``at`` is: another machine's by the words before it in its clause
    (:func:`rocm_doctor.ingest.scope.scope_before`: "On my other machine (RX 6800, Ubuntu 22.04) torch 2.4.1+rocm6.1
    works fine"), the past by an inline past label on its line (:data:`_PAST_LABEL`). A document's or another person's
    words, and the past in running prose, are left to the readers' own checks."""
    line_start = text.rfind("\n", 0, at) + 1
    if _PAST_LABEL.search(text, max(line_start - 1, 0), at):
        return PAST
    start = max(line_start, at - 140)
    # another clause of the reporter's own starts after ", my" / "but": "My friend's RTX 3090 works fine, my RX 7900 XTX with
    # torch 2.3.0+cu121 says ..." names this machine's torch after another person's GPU
    turns = [m.end() for m in _OWN_CLAUSE.finditer(text, start, at)]
    start = turns[-1] if turns else start
    # the past is :func:`_torch_past`'s (a bare "before" starts a clause as often as it labels a past): only another machine here
    scope = scope_before(text[start:at], at - start, reach=100, span=140)
    return ELSEWHERE_SCOPE if scope == ELSEWHERE_SCOPE else NOW


_OWN_CLAUSE = when_used(
    # ", on this one torch ..." / ", with mine ...": "On my other machine (RX 6800, ROCm 6.1.3) it works, on this one torch
    # 2.5.1+rocm6.2 segfaults" turns back to this machine after the comma
    r",\s{0,4}(?=(?:(?:on|with|in|for)\s{1,4})?(?:my|mine|i|i'm|we|our|here|this|now|currently)\b)|\b(?:but|while|whereas|however|now|currently)\b",
    re.IGNORECASE,
)


def _resolver_spans(block: Block) -> List[Tuple[int, int]]:
    """Where a resolver explains a refused install in the block (:data:`_RESOLVER_EXPLANATION`)."""
    lowered = block.lower
    if "depends on" not in lowered and "because" not in lowered and "requested" not in lowered and "conflict" not in lowered and "satisfies the requirement" not in lowered and "matching distribution" not in lowered:
        return []
    return [m.span() for m in _RESOLVER_EXPLANATION.finditer(block.text)]


def _torch(block: Block) -> List[Observation]:
    lowered = block.lower
    out: List[Observation] = []
    text = block.text
    moved: List[Tuple[int, int]] = _resolver_spans(block)
    tagged = "+rocm" in lowered or "+cu" in lowered or "+cpu" in lowered
    # a dry run, a download, an index listing or a compiled requirements file names candidates, not the torch installed
    idle = not_installing_lines(block)
    if ("torch" in lowered or tagged) and " to " in lowered:
        for match, line in block.scan(_TORCH_CHANGE):
            moved.append(match.span())
            if _move_not_made(text, match):
                continue  # neither release is shown to be the one in use
            out.append(Observation("symptoms.earlier", [f"torch.version={_plain(match.group(1))}"], line, TRUST_PROSE))
            out += torch_version_observations(_plain(match.group(2)), line, TRUST_PROSE)
    if "torch" in lowered:
        for pattern in (_TORCH_WORKED_FAILED, _TORCH_REGRESSION):
            for worked, failing, line, match in _worked_then_failed(block, pattern):
                moved.append(match.span())
                out.append(Observation("symptoms.earlier", [f"torch.version={_plain(worked)}"], line, TRUST_PROSE))
                out += torch_version_observations(_plain(failing), line, TRUST_PROSE)
        for match, line in block.scan(_TORCH):
            if line.number in idle or _inside(match.start(), moved) or _attempt_failed(text, match.start(), match.end()):
                continue
            if _install_command_asked_about(text, match):
                continue  # the build an install command asked about or advised would put in place
            if _torch_required(text, match):
                continue  # "xformers requires PyTorch 2.8.0": another package's requirement, not the torch in use
            scope = _torch_scope(text, match.start())
            if scope == ELSEWHERE_SCOPE:
                continue  # "On my other machine (RX 6800, Ubuntu 22.04) torch 2.4.1+rocm6.1 works": not this machine's
            if _removed_earlier(text, match.start(), match.end()) or _torch_past(text, match.start(), match.end()) or scope == PAST:
                moved.append(match.span())
                out.append(Observation("symptoms.earlier", [f"torch.version={_plain(match.group(1))}"], line, TRUST_PROSE))
                continue  # the build removed, replaced or had before is what changed, not the one in use
            if _BUILT_WITH_BEFORE.search(text, max(0, match.start() - 24), match.start()) or _BUILT_FOR_BEFORE.search(text, max(0, match.start() - 200), match.start()):
                continue  # collect_env's "CUDA used to build PyTorch: 12.1": a CUDA or HIP release, not torch's
            out += torch_version_observations(_plain(match.group(1)), line, TRUST_PROSE)
        for match, line in block.scan(_WHEEL):
            if line.number in idle or _install_command_asked_about(text, match):
                continue  # "Should I run\npip install .../torch-2.3.0%2Bcu121-...whl\nor the rocm one?": not run
            identity = from_wheel(match.group(0))
            out += identity_observations(identity, line, TRUST_PROSE)
        for match, line in block.scan(_COMPANION):
            if line.number in idle or _inside(match.start(), moved):
                continue  # a resolver's candidate or pin, not the companion installed
            version = match.group(2).replace("%2B", "+").replace("%2b", "+")
            if "+" not in version:
                continue  # prose drops the local tag ("torchvision 0.20.1" for 0.20.1+rocm6.2): only a tagged one tells the build
            out += [replace(o, trust=TRUST_PROSE) for o in companion_observations(match.group(1).lower(), version, line)]
    if "+rocm" in lowered or "+cu" in lowered or "+cpu" in lowered:
        for match, line in block.scan(_LOCAL_VERSION):
            before = text[max(0, match.start() - 40) : match.start()]
            if line.number in idle or _NOT_TORCH_BEFORE.search(before) or _BUILT_FOR_BEFORE.search(text, max(0, match.start() - 200), match.start()) or match.group(1).startswith("0.") or _inside(match.start(), moved) or _attempt_failed(text, match.start(), match.end()):
                continue
            if _install_command_asked_about(text, match):
                continue  # the build an install command asked about or advised would put in place
            scope = _torch_scope(text, match.start())
            if scope == ELSEWHERE_SCOPE:
                continue  # another machine's torch
            if _removed_earlier(text, match.start(), match.end()) or _torch_past(text, match.start(), match.end()) or scope == PAST:
                out.append(Observation("symptoms.earlier", [f"torch.version={match.group(1)}"], line, TRUST_PROSE))
                continue  # the build removed, replaced or had before is what changed, not the one in use
            out += torch_version_observations(match.group(1), line, TRUST_PROSE)
    if "index" in lowered or "://" in lowered or " -f " in lowered or " -i " in lowered:
        kept_other = kept_torch_not_rocm(block)
        installs_after: Optional[List[Tuple[int, int]]] = None  # the block's non-ROCm installs, found once
        resolutions: Optional[List[int]] = None  # where the block's later resolutions start, found once
        breaks: List[int] = []  # where the block's blank lines start (prose: a step's paragraph ends there)
        for match, line in block.scan(_INDEX):
            url = match.group(1) or match.group(2)
            identity = from_index_url(url)
            if identity.flavour is None or line.number in idle or _install_command_asked_about(text, match):
                continue
            if _torch_scope(text, match.start()) != NOW:
                continue  # another machine's install ("My friend ran pip install ... cu121") or a past one: not the torch in use
            if (
                identity.flavour == "cuda" and _torch_index_install(text, match) and not _NOT_CUDA_TORCH_PIN.search(line.text)
                and not _torch_past(text, match.start(), match.end())  # "I used to run pip install ... cu121 but now ...": a past install
            ):
                out.append(Observation("symptoms.context", [CUDA_INDEX_INSTALL], line, TRUST_PROSE))
            if identity.flavour == "rocm" and (
                "--extra-index-url" in match.group(0).lower()
                or _SEVERAL_INDEXES.match(line.text)
                or _EXTRA_INDEX_SETTING_BEFORE.search(text, max(0, match.start() - 60), match.start())
            ):
                continue  # pip also searches PyPI, whose CUDA build can win: a ROCm extra index decides nothing
            if identity.flavour == "rocm" and kept_other is not None:
                continue  # pip kept the torch that was there: the ROCm index installed nothing
            if identity.flavour == "rocm":
                if installs_after is None:
                    installs_after = _non_rocm_installs(block)
                if _install_after(block, match.end(), installs_after):
                    continue  # what was installed after it is told or shown, and it is not a ROCm build
            if identity.flavour == "rocm":
                if resolutions is None:
                    resolutions = [m.start() for m in _LATER_RESOLUTION.finditer(text) if _resolution_ran(text, m)]
                    breaks = [m.start() for m in _PARAGRAPH_BREAK.finditer(text)] if resolutions else []
                if any(at >= match.end() and _same_step_run(block, breaks, match.end(), at) for at in resolutions):
                    continue  # a later requirements install, pinned torch or uv sync resolved torch again
            # the build the command asks for: a later step may have replaced it (Observation.intended)
            observations = identity_observations(identity, line, TRUST_PROSE, intended=True)
            out += [o for o in observations if o.path != "torch.version"]
    return out


_QUOTED_SPAN = when_used(r"[\"\u201c\u201d]([^\"\u201c\u201d\n]{1,400})[\"\u201c\u201d]|`([^`\n]{1,400})`")
"""A span a prose line quotes: in straight or curly double quotes, or in backticks."""
_ERROR_WORDS = when_used(r"error|exception|undefined\s{1,4}symbol|cannot\s{1,4}open|no\s{1,4}such\s{1,4}file|not\s{1,4}found|failed|traceback", re.IGNORECASE)


def _in_quoted_error(block: Block, position: int) -> bool:
    """prec55: ``position`` lies inside an error message a prose sentence quotes ("The error is \u201cAttributeError:
    /opt/rocm-7.0.1/lib/libamd_smi.so: undefined symbol: ...\u201d (full log below)", `OSError: /opt/rocm-6.1.0/lib/...`):
    the path is the program's, as that tool printed it, not a listing of the machine's installs. The metamorphic rewrite
    "error quoted in prose, added" made such a sentence over amdsmi-186's traceback a second ROCm install (7.0.1 beside
    the 7.1.1 read from the log) and the ROCm release unknown. A fenced or pasted log, ls, ldd and a loader trace are no
    prose and are read as before."""
    if block.kind != "prose":
        return False
    text = block.text
    start = text.rfind("\n", 0, position) + 1
    end = text.find("\n", position)
    end = len(text) if end < 0 else end
    return any(
        quote.start() < position < quote.end() and _ERROR_WORDS.search(quote.group(0)) is not None
        for quote in _QUOTED_SPAN.finditer(text, start, end)
    )


def _rocm(block: Block) -> List[Observation]:
    lowered = block.lower
    out: List[Observation] = []
    if "rocm" not in lowered and "amdgpu-install" not in lowered and "radeon" not in lowered:
        return out
    text = block.text
    installs: List[Tuple[str, Line]] = []
    for match, line in block.scan(_OPT_ROCM):
        if not line.command and _in_quoted_error(block, match.start()):
            continue  # a path in an error message the prose quotes: the tool's, not a listing of the installs
        installs.append((match.group(1), line))
    if installs:
        versions = sorted({v for v, _ in installs})
        out.append(Observation("rocm.installs", [f"/opt/rocm-{v}" for v in versions], installs[0][1], TRUST_PROSE))
        if len(versions) == 1:
            out.append(Observation("rocm.version", versions[0], installs[0][1], TRUST_PROSE))
    if " to " in lowered:
        for match, line in block.scan(_ROCM_CHANGE):
            if _move_not_made(text, match) or _TORCH_BUILD_AFTER.match(text, match.end(), match.end() + 24):
                continue  # "from ROCm 6.1 to 6.2 wheels": the torch build's ROCm, read below
            out.append(Observation("symptoms.earlier", [f"rocm.version={match.group(1)}"], line, TRUST_PROSE))
            out.append(Observation("rocm.version", match.group(2), line, TRUST_PROSE))
    if " to " in lowered or "\nto " in lowered or " to\n" in lowered:  # "... ROCm\nto 6.2": a line wrapped at "to" (rev48e)
        for match, line in block.scan(_ROCM_MOVED_TO):
            if _move_not_made(text, match) or denied(text, match.start()):
                continue  # "Should I upgrade ROCm to 6.2?", "I will update ROCm to 6.1", "I did not upgrade ROCm to 6.2"
            if _MOVE_UNDONE_OR_ELSEWHERE_AFTER.match(text, match.end()):
                continue  # "I upgraded ROCm to 6.2 but went back to 6.1", "... to 6.2 in the container" (rev48e)
            scope = scope_before(text, match.start(), reach=60, span=120)
            if scope not in (NOW, PAST):
                continue  # "My friend says he upgraded ROCm to 6.2", "on my other machine I upgraded ROCm to 6.2" (rev48e)
            if scope == PAST or _PAST_BEFORE.search(text[max(0, match.start() - 60) : match.start()]):
                # "Before, I had upgraded ROCm to 6.1": a release left behind is evidence of what changed
                out.append(Observation("symptoms.earlier", [f"rocm.version={match.group(1)}"], line, TRUST_PROSE))
                continue
            out.append(Observation("rocm.version", match.group(1), line, TRUST_PROSE))
    pairs: List[Tuple[int, int]] = []
    if "rocm" in lowered:
        for worked, failing, line, match in _worked_then_failed(block, _ROCM_WORKED_FAILED):
            if any(_TORCH_BUILD_AFTER.match(text, match.end(g), match.end(g) + 24) for g in range(1, 5) if match.group(g)):
                continue  # "works with ROCm 6.1 wheels but not with ROCm 6.2 wheels": torch builds, read below
            pairs.append(match.span())
            out.append(Observation("symptoms.earlier", [f"rocm.version={worked}"], line, TRUST_PROSE))
            out.append(Observation("rocm.version", failing, line, TRUST_PROSE))
    working: List[Observation] = []  # releases named as a setup that works, the current state only if none other is
    for match, line in block.scan(_ROCM_WORD):
        if _inside(match.start(), pairs):
            continue  # read above as a release that worked beside one that fails
        if _rocm_required(text, match):
            continue  # "requires ROCm 6.0 or later", "ROCm 5.5 is oldest for PyTorch 2.1": a requirement, not the system's
        before = text[max(0, match.start() - 60) : match.start()]
        after = text[match.end() : match.end() + 24]
        version_before = _PACKAGE_VERSION_BEFORE.search(before)
        if version_before and version_before.group(1).lower() != "torch":
            continue  # "torchvision 0.20.1 rocm6.2": the companion's build, not the system's ROCm
        other = _another_programs_build(text, match.start()) if not version_before and _ROCM_BUILT_WITH.search(before) else None
        if other is False:
            continue  # another program's build ("CTranslate2 compiled against ROCm 6.2"): neither torch's nor the system's
        if other is True:
            out.append(Observation("rocm.version", match.group(1), line, TRUST_PROSE))
        elif _TORCH_BUILD_AFTER.match(after) or _ROCM_BUILT_WITH.search(before) or version_before:
            if _move_not_made(text, match) or denied(text, match.start()) or _PAST_BEFORE.search(before) or _PROBLEM_ABSENT_WITH_BEFORE.search(before):
                continue  # a build asked about, wanted, denied, left behind or compared with is not the torch in use
            out.append(Observation("torch.rocm_version", match.group(1), line, TRUST_PROSE))
            # a torch built for a ROCm release is a ROCm build of torch
            out.append(Observation("torch.flavour", "rocm", line, TRUST_PROSE))
        elif _CHANGED_FROM.search(before):
            if _MOVE_TO_A_BUILD.match(text, match.end(), match.end() + 48):
                continue  # "switched from rocm6.1 to rocm6.2 torch wheels": both are torch builds, not the system's
            if _move_not_made(text, match):
                # "Should I upgrade from ROCm 6.2 to 6.4?": the release asked about leaving is the current one
                out.append(Observation("rocm.version", match.group(1), line, TRUST_PROSE))
            else:
                # "updating from ROCm 5.7.1 to ROCm 6.0": the release left behind is evidence of what changed
                out.append(Observation("symptoms.earlier", [f"rocm.version={match.group(1)}"], line, TRUST_PROSE))
        elif (target := _MOVE_TARGET_BEFORE.search(before)) and _move_not_made(text, match, match.start() - len(before) + target.start()):
            continue  # "... from ROCm 6.2 to ROCm 6.4?": the release a planned or asked-about move would reach
        elif _PROBLEM_ABSENT_WITH_BEFORE.search(before) and not _QUESTION_AFTER.match(text, match.end(), match.end() + 12):
            # "The crash does not happen with ROCm 6.1": a release compared with the failing one, evidence of what changed
            out.append(Observation("symptoms.earlier", [f"rocm.version={match.group(1)}"], line, TRUST_PROSE))
        elif _WISHED_BEFORE.search(before) or _QUESTION_AFTER.match(text, match.end(), match.end() + 12) or denied(text, match.start()):
            continue  # "Should I install ROCm 6.0?", "I want to install ROCm 6.0", "I have not installed ROCm 6.0"
        elif _PAST_BEFORE.search(before) or ("\n" in before and _PAST_BEFORE.search(before_in_sentence(text, match.start()))):
            out.append(Observation("symptoms.earlier", [f"rocm.version={match.group(1)}"], line, TRUST_PROSE))
        elif (
            (_WORKING_SETUP_BEFORE.search(before) or _WORKING_SETUP_AFTER.match(text, match.end()))
            and scope_before(text, match.start(), reach=60, span=120) == NOW
            and not _MOVED_TO_BEFORE.search(before[-40:])  # "Downgrading to ROCm 6.1 works": a fix, maybe the release in use
            and not _WORKS_NOW_BEFORE.search(before)  # "now it works fine with ROCm 6.1": a fix, maybe the release in use
        ):
            working.append(Observation("rocm.version", match.group(1), line, TRUST_PROSE))
        else:
            out.append(Observation("rocm.version", match.group(1), line, TRUST_PROSE))
    if working:
        in_use = {o.value for o in out if o.path in ("rocm.version", "torch.rocm_version")}
        for found in working:
            # "6.2" and "6.2.4" name one release at two precisions: not another release in use (rev51g)
            if {v for v in in_use if v != found.value and not v.startswith(found.value + ".") and not found.value.startswith(v + ".")}:
                # "pytorch 2.1.2 rocm 6.0 ... but it is fine with pytorch 2.2.0 with rocm 5.7": what changed, not what runs
                out.append(Observation("symptoms.earlier", [f"rocm.version={found.value}"], found.line, TRUST_PROSE))
            else:
                out.append(found)
    for pattern in (_AMDGPU_INSTALL, _RADEON_APT):
        for match, line in block.scan(pattern):
            installer = _installer_rocm(match)
            if installer:
                out.append(Observation("rocm.version", installer, line, TRUST_PROSE))
    if "rocm/" in lowered:
        for match, line in block.scan(_IMAGE):
            tag = match.group(2)
            rocm = _IMAGE_ROCM.search(tag)
            version = rocm and (rocm.group(1) or rocm.group(2))
            if version:
                out.append(Observation("rocm.version", version, line, TRUST_PROSE))
            torch = _IMAGE_TORCH.search(tag)
            if torch and match.group(1) in ("pytorch", "pytorch-training", "pytorch-nightly", "vllm"):
                # the torch the image ships, which a later step in the container may replace (Observation.intended)
                out += identity_observations(identify(torch.group(1)), line, TRUST_PROSE, intended=True)
                out.append(Observation("torch.flavour", "rocm", line, TRUST_PROSE, intended=True))
                out.append(Observation("torch.distributor", "amd", line, TRUST_PROSE, intended=True))
                if version:
                    # AMD builds the image's torch against the user-space ROCm its tag names
                    # (https://rocm.docs.amd.com/projects/install-on-linux/en/docs-6.2.0/how-to/3rd-party/pytorch-install.html)
                    out.append(Observation("torch.rocm_version", version, line, TRUST_PROSE, intended=True))
    return out


def _container(block: Block) -> List[Observation]:
    if not any(word in block.lower for word in ("docker", "podman", "from rocm/", "distrobox", "toolbox", "toolbx", "container")):
        return []
    found = block.scan(_DOCKER)
    for _, line in found:
        return [Observation("host.container", "docker", line, TRUST_PROSE), Observation("host.os", "linux", line, TRUST_PROSE)]
    return []


# ------------------------------------------------------------------ platform


def _kernel_move_asked(line: Line, column: int, length: int) -> bool:
    """The kernel move of ``length`` characters at ``column`` of ``line`` is asked about, advised or tried (the words
    before it in its clause, a question right after it), not made: both kernel-move readers' guard."""
    if _NOT_DONE_BEFORE.search(_DOT_IN_RELEASE.sub("_", line.text[max(0, column - 80) : column])):
        return True
    end = column + length
    return bool(_QUESTION_AFTER.match(line.text, end) or _SENTENCE_ASKS.match(line.text, end))


def _kernel_moved(match: "re.Match[str]", line: Line) -> List[Observation]:
    """A move from one kernel release to another: the release moved to is the running kernel, the one left is
    the earlier state (what changed); nothing when the release moved to is not a kernel release."""
    found = kernel_observations(match.group("after"), line, TRUST_PROSE)
    if not found:
        return []
    return [Observation("symptoms.earlier", [f"host.kernel_release={match.group('before')}"], line, TRUST_PROSE), *found]


def _not_this_system(block: Block, line: Line, match: "re.Match[str]") -> bool:
    """A distribution named in prose that the sentence says is not what this machine runs (see
    :data:`_DISTRO_NOT_RUN_BEFORE`); bounded to the 200 characters before the name and 40 after."""
    column = block.column_at(match.start())
    around, at = paragraph(block, line, column)
    before = around[max(0, at - 200) : at]
    end = at + match.end() - match.start()
    return bool(_DISTRO_NOT_RUN_BEFORE.search(before)) or bool(_DISTRO_NOT_RUN_AFTER.match(around[end : end + 40]))


def _windows_elsewhere(block: Block, line: Line, match: "re.Match[str]") -> bool:
    """A Windows named in prose whose sentence says it is not this machine's: words earlier in the sentence (at most
    60 characters before it, :func:`rocm_doctor.ingest.scope.scope_before`) that put it in the past, on another
    person's or machine's side, in a document's or another person's words: "I used to run it on Windows 11, ..."
    (a setup left), "my friend's laptop with Windows 11 runs it" (another person's), "the README says on Windows
    use ...". A "now" after them starts this machine's state again ("before I was on Ubuntu, now on Windows 11")."""
    around, at = paragraph(block, line, block.column_at(match.start()))
    return scope_before(around, at, reach=60, span=200) != NOW


def _platform(block: Block) -> List[Observation]:
    lowered = block.lower
    out: List[Observation] = []
    wsl = False
    # the name spelled out ("Ubuntu on Windows Subsystem for Linux"), neofetch's "on Windows 10 x86_64" and
    # /dev/dxg carry no "wsl" to gate on
    if "wsl" in lowered or "subsystem for linux" in lowered or "dxg" in lowered or "windows 1" in lowered:
        another_platform: Optional[bool] = None
        for match, line in block.scan(_WSL):
            if denied(*paragraph(block, line, block.column_at(match.start()))):
                continue
            # a setup left behind ("I used to run Windows 11 + WSL2, now native Ubuntu") is not this machine's
            # platform (r30a); a question is kept: "Does the 6950 XT support ROCm via WSL?" is asked from WSL
            column = block.column_at(match.start())
            if _PAST_BEFORE.search(line.text[max(0, column - 80) : column]):
                continue
            # a code path described by its WSL condition, or the condition's own test (dev65env)
            if _WSL_AS_CODE_CONDITION.search(line.text[max(0, column - 60) : column]):
                continue
            asked = wsl_asked(*paragraph(block, line, column))
            if asked == WSL_CAPABILITY and another_platform is None:
                another_platform = _states_another_platform(block)  # once per block: the scan reads all of it
            if asked == WSL_HYPOTHETICAL or (asked == WSL_CAPABILITY and another_platform):
                continue
            if _USECASE_WSL.match(match.group(0)):
                # the installer's wsl use case named where the block says this machine runs Linux natively ("The WSL
                # guide uses --usecase=wsl,rocm but I'm on bare metal"): a command read about, not run here (rev52e)
                if another_platform is None:
                    another_platform = _states_another_platform(block)
                if another_platform:
                    continue
            out += [Observation("host.os", "linux", line, TRUST_PROSE), Observation("host.wsl_version", 2, line, TRUST_PROSE)]
            wsl = True
            break
    if ("win" in lowered or ":\\" in block.text or ":/" in block.text or "sdk" in lowered or ".dll" in lowered or ".bat" in lowered) and not wsl:
        for match, line in block.scan(_WINDOWS_VER):
            out += windows_observations(match.group(0), line, TRUST_TOOL)
        for match, line in block.scan(_WINDOWS):
            if not _windows_elsewhere(block, line, match):
                out += windows_observations(match.group(0), line, TRUST_PROSE)
        for match, line in block.scan(_WINDOWS_CONTEXT):
            if _windows_elsewhere(block, line, match):
                continue
            if match.group(0).lower().endswith(".bat") and (
                _BATCH_FILE_ELSEWHERE.search(line.text) or _POSIX_SHELL_IN_BLOCK.search(block.text)
            ):
                continue  # "Windows users start it with webui-user.bat, I use ./webui.sh": the other platform's launcher
            out.append(Observation("host.os", "windows", line, TRUST_PROSE))
            break
    for match, line in block.scan(_DISTRO):
        name = match.group(0)
        if name.lower().startswith("arch"):
            # "arch" is also the architecture: only "Arch Linux", a line naming nothing else, or a capitalised
            # "Arch" that the sentence says is run ("I'm on Arch", "using Arch") counts
            if "linux" not in name.lower():
                column = block.column_at(match.start())
                said_run = name.startswith("Arch") and _ARCH_AFTER.search(line.text[max(0, column - 40) : column]) is not None
                # "Does it run on Arch?" asks about Arch; the bare word is weak evidence already (r36a)
                said_run = said_run and not _QUESTION_AFTER.match(line.text, column + len(name))
                if not said_run and not re.match(r"^\W*arch\W*$", line.text, re.IGNORECASE):
                    continue
            # Arch is rolling: a number after its name is the kernel's ("Arch Linux 6.7.4-arch1-1"), not a release
            name = "Arch Linux"
        if block.kind == "prose" and _not_this_system(block, line, match):
            continue
        found = distro_observations(name, line, TRUST_PROSE)
        if wsl:
            found = [o for o in found if o.path != "host.os"]
        out += found
    changed: List[Tuple[int, int]] = []
    out += _kernel_rows(block, changed)
    if "kernel" in lowered or "work" in lowered:
        for match, line in block.scan(_KERNEL_CHANGE):
            said_kernel = "kernel" in match.group(0).lower()
            if not said_kernel and not (_FULL_RELEASE.match(match.group("before")) and _FULL_RELEASE.match(match.group("after"))):
                continue
            moved = _kernel_moved(match, line)
            if moved:
                changed.append(match.span())
                out += moved
        out += _kernel_states(block, changed)
    if "kernel" in lowered or "linux" in lowered:
        for match, line in block.scan(_KERNEL_MOVE):
            if _inside(match.start(), changed):
                continue
            column = block.column_at(match.start())
            if _kernel_move_asked(line, column, match.end() - match.start()):
                continue  # a move asked about or advised ("should I go from kernel 6.8 to 6.11?")
            if not _KERNEL_MOVE_VERB.search(_DOT_IN_RELEASE.sub("_", line.text[max(0, column - 80) : column])):
                changed.append(match.span())  # a range ("tested every release from kernel 6.8 to 6.14"): neither end runs
                continue
            moved = _kernel_moved(match, line)
            if moved:
                changed.append(match.span())
                out += moved
    if "kernel" in lowered:
        moves: List[Tuple["re.Match[str]", str, List[Observation]]] = []
        for match, line in block.scan(_KERNEL_UPDATED_TO):
            if _inside(match.start(), changed):
                continue
            column = block.column_at(match.start())
            if _kernel_move_asked(line, column, match.end() - match.start()):
                continue  # tried, asked or advised ("when trying to upgrade to the kernel 4.15.0-128")
            if scope_before(line.text, column, reach=60, span=120) != NOW:
                continue  # another person's or machine's move, or words quoted from elsewhere
            if _KERNEL_MOVE_NOT_MADE_BEFORE.search(line.text[max(0, column - 30) : column]) or _KERNEL_MOVE_UNDONE_AFTER.search(
                block.text, match.end(), match.end() + 200
            ):
                changed.append(match.span())  # a move denied, undone or never booted: that release is not running
                continue
            release = match.group("after") or match.group("after2") or match.group("after3")
            found = kernel_observations(release, line, TRUST_PROSE)
            if found:
                moves.append((match, release, found))
        for match, _, _ in moves:
            changed.append(match.span())
        # one release moved to is the kernel now; several ("I have upgraded kernel to 4.18: ... not supported. I have
        # upgraded kernel to 4.19: ...", legacy-rocm-build#671) are attempts, none of which need be the one running
        if len({release for _, release, _ in moves}) == 1:
            out += moves[0][2]
    if "kernel" in lowered or "linux" in lowered:
        # the kernel named before the rollback may be said "Linux 7.0.12" as well as "kernel 7.0.12"
        out += _kernel_bare_rollbacks(block, changed)
    if "kernel" in lowered:
        out += _kernel_before_word(block, changed, wsl)
    for pattern in (_KERNEL, _KERNEL_WORD, _LINUX_WORD):
        if pattern is _LINUX_WORD and "linux" not in lowered:
            continue
        for match, line in block.scan(pattern):
            if _inside(match.start(), changed):
                continue  # read above as the kernel that worked and the one in use
            if pattern is not _KERNEL and _kernel_word_not_now(block, match, line):
                continue
            # a full release said of another person's or machine's kernel, or the past's ("my friend's PC runs
            # 6.8.0-45-generic", "I used to run 6.5.0-14-generic": r37b), not uname's line here; a release uname
            # prints stands on a line of its own or after "Linux"/"Kernel:", with no such words
            if pattern is _KERNEL and scope_before(line.text, block.column_at(match.start()), reach=40, span=80) != NOW:
                continue
            before = line.text[: block.column_at(match.start())]
            if pattern is _LINUX_WORD and _distribution_before(before):
                continue
            if _UBUNTU_SIGNATURE.search(before):
                continue  # "(Ubuntu 5.15.0-133.144-generic 5.15.173)": the package, not the release
            if _INSTALLED_KERNEL_NAMED.search(before) or _is_dkms_entry(line.text):
                continue  # a kernel installed or built for, which need not be the one running
            found = kernel_observations(match.group(1), line, TRUST_PROSE)
            if wsl:
                found = [o for o in found if o.path != "host.wsl_version" or o.value == 2]
            out += found
    if "driver" in lowered or "adrenalin" in lowered:
        out += _adrenalin(block)
    if "py" in lowered:
        for match, line in block.scan(_PYTHON):
            if match.group(2) and _WHEEL_REFUSED.search(line.text):
                continue  # the tag of a wheel pip refuses here: another Python's
            version = match.group(1) or ("3." + (match.group(2) or match.group(3)))
            out.append(Observation("python.version", version, line, TRUST_PROSE))
    return out


_DOT_IN_RELEASE = when_used(r"(?<=\d)\.(?=\d)")
_SENTENCE_ASKS = when_used(r"(?:[^.!?,;\n]|(?<=\d)\.(?=\d)){0,120}\?")
"""The rest of a clause that ends in a question mark ("... with the 6.8 kernel for my RX 9070 XT?"): the
kernel is asked about, not the one running. A comma ends the clause ("I'm on the 6.8 kernel and the GPU
is not found, what can I do?" states the kernel and then asks)."""


def _kernel_states(block: Block, changed: List[Tuple[int, int]]) -> List[Observation]:
    """A kernel the report says worked, on a labelled line (:data:`_KERNEL_STATE_LABEL`) or set against a failing
    kernel named before it (:data:`_KERNEL_BUT_WORKS`), as an earlier state, and the kernel labelled broken beside a
    working one as the kernel the failure is on. What it reads is added to ``changed``, so that the readers of a
    release alone do not take the working one as the running one."""
    out: List[Observation] = []
    worked = False
    broken: List[Tuple["re.Match[str]", Line]] = []
    if "kernel" in block.lower:
        for match, line in block.scan(_KERNEL_STATE_LABEL):
            if _inside(match.start(), changed):
                continue
            start = match.start() - block.column_at(match.start())
            if match.group("good"):
                changed.append((start, start + len(line.text)))
                out.append(Observation("symptoms.earlier", [f"host.kernel_release={match.group('release')}"], line, TRUST_PROSE))
                worked = True
            else:
                broken.append((match, line))
    if worked and broken:
        for match, line in broken:
            start = match.start() - block.column_at(match.start())
            changed.append((start, start + len(line.text)))  # the whole line: "7.0.12-200 and 7.0.12-201"
        match, line = broken[0]
        out += kernel_observations(match.group("release"), line, TRUST_PROSE)
    if "work" not in block.lower and "ran" not in block.lower and "fine" not in block.lower:
        return out
    for match, line in [*block.scan(_KERNEL_BUT_WORKS), *block.scan(_KERNEL_BUT_WORKS_ON)]:
        if _inside(match.start("release"), changed):
            continue
        column = block.column_at(match.start())
        around, at = paragraph(block, line, column)  # a wrapped sentence's start is on the line above
        before = _DOT_IN_RELEASE.sub("_", around[max(0, at - 100) : at])
        failing = _KERNEL_FAILS_BEFORE.search(before)
        if failing is None:
            continue  # no failing kernel before it: "fails with torch 2.6, but 2.5 works", "crashes in Docker but works on kernel 6.8"
        if _NOT_DONE_BEFORE.search(before) or NOW != scope_before(around, at) or NOW != scope_before(around, max(0, at - 100) + failing.start()):
            continue  # asked or advised, another person's or machine's, someone else's words (the failing kernel's too)
        changed.append((match.start("said") if match.group("said") else match.start("release"), match.end("release")))
        out.append(Observation("symptoms.earlier", [f"host.kernel_release={match.group('release')}"], line, TRUST_PROSE))
    return out


_KERNEL_ROW_HEADER_REACH = 3
"""Lines above a bare row ("6.18.1 - Works fine") in which the word "kernel" must stand for the row to be a kernel's."""


def _bare_rows_under_a_kernel_header(block: Block, line: Line, release: str) -> bool:
    """Whether a row that names its release bare ("6.18.1 - Works fine", vladmandic/sdnext#4578 under "Install of alternate
    kernel ...") stands under a line about kernels: one of the few lines just above it says "kernel" and shows no full
    kernel release of another major.minor (rev62b: "Kernel: 6.8.0-45-generic" above "4.44.2 - works fine" / "4.45.0 -
    fails", a library's releases, and a benchmark table's rows are not kernels)."""
    index = next((i for i, candidate in enumerate(block.lines) if candidate is line), None)
    if index is None:
        return False
    minor = _MAJOR_MINOR.match(release)
    for above in block.lines[max(0, index - _KERNEL_ROW_HEADER_REACH) : index]:
        text = above.text.lower()
        if "kernel" not in text:
            continue
        others = [m.group(1) for m in _MAJOR_MINOR.finditer(above.text) if _FULL_RELEASE.match(above.text, m.start())]
        return not any(minor is None or other != minor.group(1) for other in others)
    return False


def _kernel_rows(block: Block, changed: List[Tuple[int, int]]) -> List[Observation]:
    """A kernel A/B said in rows (:data:`_KERNEL_ROW`): where one paragraph's rows name a release that works and another
    that fails, each working release is an earlier state (``symptoms.earlier``, what changed: RD801 says "worked with
    kernel X, fails with Y") and the first failing one the kernel the failure is reported on. A release is a kernel's
    when the row names it so (``linux-image-``, "kernel"), it is a full release ("6.8.0-40-generic", "5.4.0-57"), or it
    stands alone at the row's start in a block that says "kernel". Rows of another program's release ("ROCm 6.2 - works")
    and rows that ask, plan or speak of another machine are not read; nor a lone row (a single "works on 6.8" is no A/B)."""
    out: List[Observation] = []
    lowered = block.lower
    says_kernel = "kernel" in lowered
    programs = {p.group("release") for p in _ROLLBACK_NOT_KERNEL.finditer(block.text)}
    groups: Dict[int, List[Tuple[bool, str, Line, Tuple[int, int]]]] = {}
    last_line = -2
    group = 0
    for match, line in block.scan(_KERNEL_ROW):
        if _inside(match.start("release"), changed):
            continue
        release = match.group("release")
        lead = match.group("lead") or ""
        said = bool(match.group("said"))
        full = bool(_FULL_RELEASE.match(release)) or release.count(".") >= 2 and "-" in release
        if not (said or full or (says_kernel and not lead)):
            continue
        if not (said or full) and not _bare_rows_under_a_kernel_header(block, line, release):
            continue
        minor = _MAJOR_MINOR.match(release)
        if minor is None or (not said and minor.group(1) in programs):
            continue
        if _KERNEL_ROW_HEDGED.search(lead) or _KERNEL_ROW_HEDGED.search(match.group("rest") or ""):
            continue
        if line.text.rstrip().endswith("?"):
            continue
        if line.number != last_line + 1:
            group += 1
        last_line = line.number
        start = match.start() - block.column_at(match.start())
        groups.setdefault(group, []).append((match.group("good") is not None, release, line, (start, start + len(line.text))))
    for rows in groups.values():
        good = [r for r in rows if r[0]]
        bad = [r for r in rows if not r[0]]
        if not good or not bad or {r[1] for r in good} & {r[1] for r in bad}:
            continue
        for _, release, line, span in rows:
            changed.append(span)
        for _, release, line, _ in good:
            out.append(Observation("symptoms.earlier", [f"host.kernel_release={release}"], line, TRUST_PROSE))
        out += kernel_observations(bad[0][1], bad[0][2], TRUST_PROSE)
    return out


def _kernel_bare_rollbacks(block: Block, changed: List[Tuple[int, int]]) -> List[Observation]:
    """A rollback to a release said without the word kernel (:data:`_KERNEL_BARE_ROLLBACK`) as the kernel that worked (an
    earlier state, which RD801 compares with the running one), where the block named a kernel release of the same
    major.minor before it and no program (ROCm, torch, a driver) with that major.minor; not a rollback asked about,
    advised, another person's, or one that did not help ("rolling back to 7.0.11 didn't fix it")."""
    out: List[Observation] = []
    rollbacks = list(block.scan(_KERNEL_BARE_ROLLBACK))
    if not rollbacks:
        return out
    # where the block first named a kernel of each major.minor, and each release (or a prefix of one up to a "." or "-")
    # named a kernel, with the word; and the programs' releases: each read once, looked up per rollback
    first_minor: Dict[str, int] = {}
    first_release: Dict[str, int] = {}
    for kernel in _KERNEL_RELEASES_NAMED.finditer(block.text):
        said = kernel.group("after") or kernel.group("before") or kernel.group("linux") or ""
        for m in _MAJOR_MINOR.finditer(said):
            first_minor.setdefault(m.group(1), kernel.end())
        for token in _RELEASE_TOKEN.finditer(kernel.group(0)):
            full = token.group(0).rstrip(".-+")
            for cut in [i for i, c in enumerate(full) if c in ".-+_"] + [len(full)]:
                first_release.setdefault(full[:cut], kernel.end())
    programs = {p.group("release") for p in _ROLLBACK_NOT_KERNEL.finditer(block.text)}
    program_majors = {p.split(".")[0] for p in programs}
    for match, line in rollbacks:
        if _inside(match.start("release"), changed) or _ROLLBACK_UNDONE.search(match.group("rest")):
            continue
        if any(p.match(block.text, match.end()) for p in (_ROLLBACK_ENDED_AFTER, _ROLLBACK_NOT_MINE_AFTER, _SENTENCE_ASKS)):
            continue  # "... works, but ROCm still crashes", "worked until the next update", "works for them", "works?"
        release = match.group("release")
        minor = _MAJOR_MINOR.match(release)
        if minor is None or minor.group(1) in programs:
            continue  # "ROCm 7.0 ... downgrading to 7.0.2": the release may be the program's
        if first_minor.get(minor.group(1), len(block.text) + 1) > match.start():
            continue
        if release.split(".")[0] in program_majors and (
            not (release.count(".") > 1 or "-" in release) or first_release.get(release, len(block.text) + 1) > match.start()
        ):
            # "Kernel 6.2.0-39, ROCm 6.3.1 broke it, rolling back to 6.2.4 fixed it": with a program of the kernel's major
            # named, the release rolled back to is a kernel only where the report named that very release a kernel
            # ("from kernel 7.0.11-200.fc44" before "Booting back to 7.0.11-200" beside "ROCm: 7.1.1")
            continue
        column = block.column_at(match.start())
        before = _DOT_IN_RELEASE.sub("_", line.text[max(0, column - 80) : column])
        if (
            _NOT_DONE_BEFORE.search(before)
            or _ROLLBACK_NOT_MINE_BEFORE.search(before)
            or scope_before(line.text, column, reach=60, span=120) != NOW
        ):
            continue
        changed.append(match.span("release"))
        out.append(Observation("symptoms.earlier", [f"host.kernel_release={release}"], line, TRUST_PROSE))
    return out


def _kernel_before_word(block: Block, changed: List[Tuple[int, int]], wsl: bool) -> List[Observation]:
    """The running kernel said with its release before the word ("with 6.8 Kernel"), when the
    sentence puts it in use now: not asked about or planned, not an earlier or compared state."""
    out: List[Observation] = []
    for match, line in block.scan(_KERNEL_BEFORE_WORD):
        if _inside(match.start(), changed):
            continue
        column = block.column_at(match.start())
        before = line.text[max(0, column - 80) : column + (match.start(1) - match.start())]
        # a release's own dots ("Ubuntu 24.04 with the 6.8 kernel") end no sentence
        before = _DOT_IN_RELEASE.sub("_", before)
        if _NOT_DONE_BEFORE.search(before) or _KERNEL_NOT_NOW_BEFORE.search(before):
            continue
        end = column + (match.end() - match.start())
        if _QUESTION_AFTER.match(line.text, end) or _SENTENCE_ASKS.match(line.text, end):
            continue
        found = kernel_observations(match.group(1), line, TRUST_PROSE)
        if wsl:
            found = [o for o in found if o.path != "host.wsl_version" or o.value == 2]
        out += found
    return out


def _is_dkms_entry(text: str) -> bool:
    """A ``dkms status`` line names the kernels a module was built for, not the running one (the
    dkms-status reader keeps it: legacy-rocm-build#738, #1504, ROCm/amdgpu#115)."""
    return any(entry.kernel for entry in parse_dkms_status(text))


def _adrenalin(block: Block) -> List[Observation]:
    """The Windows display driver's release named in prose (``windows.driver_version``)."""
    out: List[Observation] = []
    for match, line in block.scan(_ADRENALIN):
        column = block.column_at(match.start())
        around, at = paragraph(block, line, column)
        if denied(around, at):
            continue
        release = match.group(1) or match.group(2)
        # "Updating from Adrenaline 25.1.1 to 25.3.1" (ROCm/ROCm#4459): the release after "to" is installed
        # "I went back from display drivers (25.5.1) to (25.4.1)": the release after "to" is installed here too
        later = _TO_RELEASE.match(line.text, column + len(match.group(0)))
        if later:
            release = later.group(1)
        # "drivers (25.3.1, 25.4.1, 25.5.1)": a list of releases in the parenthesis, none of them the installed one
        opened = match.group(0)[: len(match.group(0)) - len(match.group(1) or match.group(2))].rstrip("v-")
        if opened.endswith("(") and not line.text.startswith(")", column + len(match.group(0))):
            continue
        if _ADRENALIN_ADVISED_BEFORE.search(line.text[max(0, column - 80) : column]):
            continue  # advice to move to it ("You should update to Adrenalin 25.5.1")
        # whose driver: not a friend's or a document's ("my friend's PC with Adrenalin 24.10.1", "the
        # README says: install Adrenalin 24.9.1"), not one asked about ("Does Adrenalin 24.9.1 have the
        # bug?"), not one left behind ("upgraded from Adrenalin 24.8.1", unless a release follows "to")
        scope = gpu_scope(around, at)
        if scope == DOUBTFUL or (scope == ELSEWHERE and not later):
            continue
        # "Adrenalin 24.9.1 or later" is a requirement, not the installed release
        if _OR_LATER.match(line.text, column + len(match.group(0)) + (later.end() - later.start() if later else 0)):
            continue
        # a release left behind or warned against: "It worked with Adrenalin 24.10.1 but after updating ...",
        # "Adrenalin 24.9.1 was the last driver that worked", "Avoid Adrenalin 24.10.1, I am on 24.8.1"
        end = column + len(match.group(0))
        if not later and (
            _ADRENALIN_NOT_NOW_BEFORE.search(line.text[max(0, column - 60) : column])
            or _ADRENALIN_NOT_NOW_AFTER.match(line.text, end, end + 60)
        ):
            # ab62: a release said to have worked is the earlier state (what changed, RD543), not dropped; one warned
            # against, dated a bug or moved away from is neither that nor the installed one
            if _ADRENALIN_WORKED_BEFORE.search(line.text[max(0, column - 60) : column]) or _ADRENALIN_WORKED_AFTER.match(line.text, end, end + 60):
                out.append(Observation("symptoms.earlier", [f"windows.driver_version={release}"], line, TRUST_PROSE))
            continue
        # "the compatible driver is 24.6.1" names what a guide requires, not what is installed
        before = line.text[max(0, column - 40): column + len(match.group(0)) - len(match.group(1) or match.group(2))]
        if _REQUIRED_RELEASE.search(before) or (_IS.search(match.group(0)) and _NEWEST_IS.search(before)):
            continue
        # "driver 22.20.1" on Linux is AMD's amdgpu-pro/amdgpu-install numbering, not Adrenalin's
        if match.group(2) and _LINUX_DRIVER_WORDS.search(line.text[max(0, column - 40): column + len(match.group(0))]):
            continue
        out.append(Observation("windows.driver_version", release, line, TRUST_PROSE))
    return out


_CONFIG_LINE = when_used(r"^[^\S\n]*(?:FROM|RUN|ENV|ARG)\s", re.MULTILINE)
_DLL = when_used(r"\b(amdhip64(?:_\d+)?\.dll)\b", re.IGNORECASE)
# The HIP runtime a Python wheel bundles (TheRock's and AMD's Windows wheels: site-packages\_rocm_sdk_core\bin,
# ROCm/TheRock#1229, #1278) is not the HIP SDK: the DLL keeps that folder so the HIP SDK tables do not judge it.
_WHEEL_DLL_FOLDER = when_used(r"_rocm_sdk_core[\\/]{1,2}bin[\\/]{1,2}$", re.IGNORECASE)
WHEEL_RUNTIME_FOLDER = "_rocm_sdk_core\\bin\\"


def _firmer(observations: List[Observation]) -> List[Observation]:
    """A command the reporter ran or a Dockerfile instruction says more than a sentence: labelled-field trust."""
    out = []
    for obs in observations:
        if obs.trust == TRUST_PROSE and (obs.line.command or _CONFIG_LINE.match(obs.line.text)):
            obs = replace(obs, trust=TRUST_TEMPLATE)
        out.append(obs)
    return out


_WINDOWS_PROMPT = when_used(rf"^\s*{WINDOWS_ENV_PREFIX}(?:PS [A-Z]:[\\/][^>\n]*|[A-Z]:\\[^>\n]*|[A-Z]:{SLASH_PROMPT_PATH})>")
_WSL_COMMAND = when_used(r"^\s*wsl(?:\.exe)?(?:\s|$)", re.IGNORECASE)
"""``wsl --update``, ``wsl -l -v``, ``wsl --shutdown``: WSL is managed from a Windows shell on its host
(https://github.com/MicrosoftDocs/WSL/blob/90e96e70438730844b2faf32388cf69ab2b70721/WSL/basic-commands.md),
so a prompt running it is a WSL report's, not a native Windows one's."""


def _windows_prompt(block: Block) -> List[Observation]:
    """A PowerShell or cmd prompt (``PS C:\\Users\\me>``) shows the commands ran on Windows."""
    for line in block.lines:
        if line.command and _WINDOWS_PROMPT.match(line.raw) and not _WSL_COMMAND.match(line.text):
            return [Observation("host.os", "windows", line, TRUST_TEMPLATE)]
    return []


# The HIP SDK's release, as reports show it: its install folder ("C:\\Program Files\\AMD\\ROCm\\6.2\\bin"
# in a path or a rocBLAS error: ROCm/hip#3805, ROCm/legacy-rocm-build#4390,
# leejet/stable-diffusion.cpp#160) or prose ("HIP_SDK 6.2", "HIP SDK 6.4", "HIP SDK: 7.1":
# ROCm/legacy-rocm-build#4872, ROCm/rocm-systems#1786, unslothai/unsloth#6043); Arch's
# rocm-hip-sdk package and AMD's hip-sdk page address are not it.
_HIP_SDK_FOLDER = when_used(r"\bAMD[\\/]{1,2}ROCm[\\/]{1,2}(\d{1,2}\.\d{1,2})(?:\.\d{1,3})?[\\/]", re.IGNORECASE)
_HIP_SDK_WORDS = when_used(
    r"(?<![\w/.-])HIP[ _-]?SDK(?:[ \t]+(?:version|ver\.?))?[ \t]*[:=]?[ \t]*v?(\d{1,2}\.\d{1,2})(?:\.\d{1,3})?(?![\d])",
    re.IGNORECASE,
)


# ZLUDA users name the HIP SDK "HIP" and its release alone, beside ZLUDA in the same block: "Installed
# everything as stated wit HIP 6.2.4 and also used patchzluda2" (patientx/ComfyUI-Zluda#162), "installing with
# HIP 6.2.4 and ZLUDA-nightly-windows-rocm6-amd64.zip" (patientx/ComfyUI-Zluda#66), "Zluda nightly with HIP 6.2"
# (vladmandic/sdnext#3725). Only a HIP SDK release's major (5, 6, 7) and never a labelled runtime version ("HIP
# version: 6.2.41133", "HIP Version: 7.2.0-50a8893d67"): the word "version" or a build suffix keeps those out.
_HIP_RELEASE_BESIDE_ZLUDA = when_used(
    r"(?<![\w/.-])HIP[ \t]+v?([5-7]\.\d{1,2})(?:\.\d{1,3})?(?![\w.-])",
    re.IGNORECASE,
)


def _hip_sdk(block: Block) -> List[Observation]:
    lowered = block.lower
    zluda = "zluda" in lowered
    if "rocm" not in lowered and "sdk" not in lowered and not zluda:
        return []
    found: List[Tuple[str, Line]] = []
    patterns = (_HIP_SDK_FOLDER, _HIP_SDK_WORDS) + ((_HIP_RELEASE_BESIDE_ZLUDA,) if zluda else ())
    for pattern in patterns:
        found += [(match.group(1), line) for match, line in block.scan(pattern)]
    if not found:
        return []
    return [Observation("windows.hip_sdk_versions", sorted({v for v, _ in found}, key=_version_order), found[0][1], TRUST_PROSE)]


def _version_order(version: str) -> Tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def _dll_name(text: str, match: "re.Match[str]") -> str:
    name = match.group(1).lower()
    start = match.start(1)
    return WHEEL_RUNTIME_FOLDER + name if _WHEEL_DLL_FOLDER.search(text[max(0, start - 24):start]) else name


def _windows_runtime(block: Block) -> List[Observation]:
    if ".dll" not in block.lower:
        return []
    names = sorted({_dll_name(block.text, m) for m, _ in block.scan(_DLL)})
    if not names:
        return []
    line = next(line for _, line in block.scan(_DLL))
    return [Observation("windows.amdhip_dlls", names, line, TRUST_PROSE), Observation("host.os", "windows", line, TRUST_PROSE)]


_BRACKETED_EXAMPLE = when_used(r"[\[(<][ \t]*(?:e\.[ \t]?g\.?|eg\.|for example)[,:]?[^\[\]()<>\n]{0,120}[\])>]", re.IGNORECASE)
"""A template's example left in place (``- OS: [e.g. Ubuntu 20.04]``, ``- GPU: [e.g. RX 6800]``, the form of the
bug-report template GitHub offers and many projects keep; PyTorch's ``- PyTorch Version (e.g., 1.0):``,
https://github.com/pytorch/pytorch/blob/dfb94b9717803b11ec9613c70a6812a9ace041f4/.github/ISSUE_TEMPLATE/bug-report.md,
left in pytorch/pytorch#51213) or an example in parentheses ("other GPUs (e.g., MI100)", ROCm/hipBLASLt#516):
never a reading of the reporter's machine. fields.py skips such values after a label; here they are blanked
before prose is read."""


def _without_examples(block: Block) -> Block:
    """The block with every bracketed example blanked (same length, so columns and spans still hold)."""
    if "e.g" not in block.lower and "eg." not in block.lower and "for example" not in block.lower:
        return block
    lines = tuple(
        replace(line, text=_BRACKETED_EXAMPLE.sub(lambda m: " " * len(m.group(0)), line.text)) if _BRACKETED_EXAMPLE.search(line.text) else line
        for line in block.lines
    )
    return replace(block, lines=lines)


def parse(block: Block) -> List[Piece]:
    block = _without_examples(block)
    observations = _firmer(_torch(block) + _rocm(block) + _container(block) + _platform(block)) + _windows_runtime(block) + _hip_sdk(block)
    if ":\\" in block.text or any(line.command for line in block.lines[:50]):
        observations += _windows_prompt(block)
    cpu_observations, cpu_gpus = _cpu_sightings(block)
    observations += cpu_observations
    named: List[Line] = []
    gpus = _gfx_sightings(block) + _name_sightings(block, named) + cpu_gpus
    observations += [Observation("symptoms.context", [AMD_GPU_NAMED], line, TRUST_PROSE) for line in named]
    if not observations and not gpus:
        return []
    lines = [o.line for o in observations] + [g.line for g in gpus]
    piece = make_piece("mentions", lines, observations, gpus)
    return [piece]


_KERNEL_WORD_DENIED = when_used(
    r"(?:\bnot|n['\u2019]t|\bnever|\bno\s+longer)\s+(?:(?:really|currently|actually|even|yet)\s+)?"
    r"(?:on|using|use|used|running|run|booting|boot|have|had)\s+(?:(?:the|a|any)\s+)?(?:linux\s+)?$",
    re.IGNORECASE,
)
"""Being on the kernel denied just before "kernel X" ("I am no longer on kernel 6.8", "I don't use kernel 6.8",
"I'm not using kernel 6.8 anymore"); a failure denied ("not working on kernel 6.8") keeps it the running one (r34b)."""


_KERNEL_WORD_WORKED_ON = when_used(r"\b(?:work(?:s|ed|ing)?|was\s+fine|runs?\s+fine|ran\s+fine)\b[^.!?;\n]{0,40}$", re.IGNORECASE)
"""learn53d: "works fine on kernel 5.4.15" where the same paragraph names another release the failure is on is the
release the report compares, not the running one, as "works fine on the 5.4.15 kernel" is for
:data:`_KERNEL_NOT_NOW_BEFORE` (the release before the word): the two spellings of one statement (the metamorphic
test's "ROCm and kernel version spellings in prose") read alike. ROCm/legacy-rocm-build#1007 ("clinfo hangs when run
on kernel 5.5.0" / "clinfo works fine on kernel 5.4.15"). Alone ("ROCm 6.2 installed and works on kernel 6.8.0-45")
the release is still the one in use."""
_KERNEL_FAILS_ON_RELEASE = when_used(
    r"\b" + _KERNEL_FAILS + r"\b[^.!?;\n]{0,40}?\b(?:kernel|linux)\s*(?:version\s*)?v?(?P<release>" + _KERNEL_RELEASE_SAID + r")(?!\w|\.\w)"
    r"|\bkernel\s*(?:version\s*)?v?(?P<release2>" + _KERNEL_RELEASE_SAID + r")(?!\w|\.\w)[^!?;\n]{0,60}?\b" + _KERNEL_FAILS + r"\b",
    re.IGNORECASE,
)
"""A kernel release named as the one the failure is on ("clinfo hangs when run on kernel 5.5.0", "Kernel 6.17.9 breaks
ROCm"), with its release."""


_NOTE_LINE = when_used(
    r"\b(?:change\s?log|release\s+notes?|known\s+(?:issues?|bugs?|problems?|regressions?)|what['\u2019]?s\s+new)\b"
    r"|^[\s>*+\-\u2022]{0,6}(?:fixed|fixes|fix)\b",
    re.IGNORECASE,
)
"""prec53b: a line a changelog, a release note or a known-issues list writes ("- rocminfo hangs on kernel 6.12 (known
issue)", "Release notes: ... crashes on kernel 6.10", "- Fixed a hang on kernel 6.12"): a project's record of a release,
not the reporter's failure (the words kernel_releases_fail_told's unless_line leaves for the same reason, rev49a)."""


_SUPPOSED_BEFORE = when_used(r"\b(?:if|whether|in\s+case|unless|suppos(?:e|ing))\b[^.!?,;\n]{0,60}$", re.IGNORECASE)
"""prec53b: a failure supposed, not seen ("If rocminfo hangs on kernel 6.12, ...", "in case it crashes with kernel 6.12");
the modal verbs of :data:`_NOT_DONE_BEFORE` ("can", "may", "how") are not read here: "I can see that rocminfo hangs on
kernel 6.12" is the reporter's failure."""


def _failure_not_reporters(block: Block, match: "re.Match[str]", line: Line) -> bool:
    """prec53b: the failing release at ``match`` is not the reporter's failure now: a condition, a wish or a question ("If
    rocminfo hangs on kernel 6.12, ...", "Does it hang on kernel 6.12?": :data:`_SUPPOSED_BEFORE`, :data:`_WISHED_BEFORE`
    before it and a question after it, as the kernel-move readers ask), another person's, the past or someone else's words
    (:func:`rocm_doctor.ingest.scope.scope_before`, as :func:`_kernel_states` asks of its failing kernel), or a
    changelog's or release note's line (:data:`_NOTE_LINE`). The wrapped sentence is read whole (:func:`paragraph`)."""
    column = block.column_at(match.start())
    around, at = paragraph(block, line, column)
    if _NOTE_LINE.search(around):
        return True
    before = _DOT_IN_RELEASE.sub("_", around[max(0, at - 80) : at])
    if _WISHED_BEFORE.search(before) or _SUPPOSED_BEFORE.search(before) or scope_before(around, at, reach=60, span=120) != NOW:
        return True
    end = at + (match.end() - match.start())
    return bool(_QUESTION_AFTER.match(around, end) or _SENTENCE_ASKS.match(around, end) or _SENTENCE_ASKS.match(around, at))


_FAILING_RELEASES: Dict[Tuple[str, str], Tuple[FrozenSet[str], Tuple[str, ...]]] = {}
"""The last few blocks' failing kernel releases (:func:`_failing_kernel_releases`), keyed by the block's kind and text."""


def _failing_kernel_releases(block: Block) -> Tuple[FrozenSet[str], Tuple[str, ...]]:
    """The distinct kernel releases a block names as the ones the reporter's failure is on (not a condition's, a
    question's, another person's or a changelog's: :func:`_failure_not_reporters`), as a set and sorted: one scan
    per block, however many "works on kernel X" it holds (fix53: each of them scanned the whole block)."""
    key = (block.kind, block.text)
    known = _FAILING_RELEASES.get(key)
    if known is None:
        found = frozenset(
            failing
            for match in _KERNEL_FAILS_ON_RELEASE.finditer(block.text)
            if (failing := match.group("release") or match.group("release2"))
            and not _failure_not_reporters(block, match, block.line_at(match.start()))
        )
        known = (found, tuple(sorted(found)))
        if len(_FAILING_RELEASES) >= 4:
            _FAILING_RELEASES.pop(next(iter(_FAILING_RELEASES)))
        _FAILING_RELEASES[key] = known
    return known


def _another_release_fails(block: Block, release: str) -> bool:
    """The block names a kernel release other than ``release`` as the one the reporter's failure is on: one that
    neither starts with ``release`` nor begins it (5.4 and 5.4.15 are one release said twice). Counted, not listed,
    so a query costs the length of ``release`` and a bisection, not the number of releases named."""
    found, ordered = _failing_kernel_releases(block)
    if not found:
        return False
    starting_with = bisect_left(ordered, release + "\U0010ffff") - bisect_left(ordered, release)
    beginning = sum(1 for end in range(1, len(release)) if release[:end] in found)
    return len(ordered) > starting_with + beginning


def _kernel_word_not_now(block: Block, match: "re.Match[str]", line: Line) -> bool:
    """"kernel X" said of another state than the running one: past, another machine's, shipped, required or
    advised (:data:`_KERNEL_WORD_NOT_NOW`), a release said to work beside another that fails
    (:data:`_KERNEL_WORD_WORKED_ON`), or asked about ("Should I install kernel 6.11?")."""
    column = block.column_at(match.start())
    before = _DOT_IN_RELEASE.sub("_", line.text[max(0, column - 80) : column])
    if _KERNEL_WORD_NOT_NOW.search(before) or _NOT_DONE_BEFORE.search(before) or _KERNEL_WORD_DENIED.search(before):
        return True
    if _KERNEL_WORD_WORKED_ON.search(before) and _another_release_fails(block, match.group(1)):
        return True
    end = column + (match.end() - match.start())
    if _KERNEL_WORD_NOT_NOW_AFTER.match(line.text, end):
        return True
    return bool(_QUESTION_AFTER.match(line.text, end) or _SENTENCE_ASKS.match(line.text, end))
