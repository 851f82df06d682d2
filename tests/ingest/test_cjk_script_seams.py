"""Chinese, Japanese and Korean text puts no space between a word of its own and a Latin one ("显卡是RX 7900XTX",
"Windows版本的ollama"), where a regex word boundary needs one: the paste is read as if a space stood there, except
inside a path. Reports written so: ollama/ollama#14989 ("Windows版本"), OpenSenseNova/SenseNova-U1#281
("GPU 0% 利用率"), and the development cases autocut-62, legacy-rocm-build-5725 and ollama-11555."""

from __future__ import annotations

import pytest
from ingest_helpers import ingest

from rocm_doctor.ingest.blocks import normalise


@pytest.mark.parametrize(
    ("chinese", "english"),
    [
        ("我的显卡是RX 7900XTX，系统是Windows11，ollama不使用GPU。", "My GPU is an RX 7900XTX, the system is Windows 11, ollama does not use the GPU."),
        ("用pip安装了torch 2.5.1+rocm6.2之后还是报错", "after installing torch 2.5.1+rocm6.2 with pip it still fails"),
    ],
)
def test_a_report_in_chinese_is_read_like_its_english_words(chinese: str, english: str) -> None:
    zh, en = ingest(chinese).facts, ingest(english).facts
    assert [a.name.value for a in zh.gpus.agents] == [a.name.value for a in en.gpus.agents]
    assert zh.host.os.value == en.host.os.value
    assert zh.torch.version.value == en.torch.version.value
    assert set(en.symptoms.context.value or []) & {"ollama_named"} <= set(zh.symptoms.context.value or [])


def test_a_path_keeps_its_spelling_and_text_without_cjk_is_untouched() -> None:
    assert normalise("D:\\AI工具\\venv\\Scripts\\python.exe 报错") == "D:\\AI工具\\venv\\Scripts\\python.exe 报错"
    assert normalise("/home/用户/rocm6.2/bin") == "/home/用户/rocm6.2/bin"
    assert normalise("显卡是RX7900") == "显卡是 RX7900"
    plain = "torch 2.5.1+rocm6.2\tRX 7900 XTX\n"
    assert normalise(plain) == plain


def test_full_width_punctuation_is_read_as_ascii() -> None:
    # A Chinese input method's colon, comma and brackets: "设备：AMD Radeon RX 7900 XTX" (legacy-rocm-build#5725),
    # "R9显卡（gfx1201）" (ollama#14989), "（CUDA is not available.）" (SenseNova-U1#281)
    assert normalise("设备：AMD Radeon RX 7900 XTX，系统（Ubuntu 22.04）") == "设备:AMD Radeon RX 7900 XTX,系统(Ubuntu 22.04)"
    zh = ingest("显卡：Radeon RX 7900 XTX（gfx1100），系统：Ubuntu 22.04").facts
    en = ingest("显卡: Radeon RX 7900 XTX (gfx1100), 系统: Ubuntu 22.04").facts
    assert [a.name.value for a in zh.gpus.agents] == [a.name.value for a in en.gpus.agents]
    assert zh.host.distro_version.value == en.host.distro_version.value
