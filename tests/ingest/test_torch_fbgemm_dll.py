"""torch\\lib\\fbgemm.dll that Windows could not load (learn56h, RD891).

fbgemm.dll imports MSVC's OpenMP runtime libomp140.x86_64.dll, which torch 2.4.0's Windows wheels and the
first TheRock/AMD Windows wheels did not carry. The forms below are the shapes independent reports print
(pytorch/pytorch#131662 and #129568, kohya-ss/sd-scripts#1597, openvinotoolkit/openvino.genai#813,
modelscope/FunClip#105, chenwei-zhao/captcha-recognizer#2, ROCm/TheRock#1167); the texts are written for
the test, not copied from one report.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_errors


@pytest.mark.parametrize(
    "text",
    [
        # English, the whole message on one line
        'OSError: [WinError 126] The specified module could not be found. Error loading "C:\\Users\\me\\venv\\Lib\\site-packages\\torch\\lib\\fbgemm.dll" or one of its dependencies.\n',
        # another locale's WinError text (German, Chinese), a folder with a space in it
        'ERROR    Could not load torch: [WinError 126] Das angegebene Modul wurde nicht gefunden. Error loading "P:\\AI Tools\\kohya\\venv\\lib\\site-packages\\torch\\lib\\fbgemm.dll" or one of its dependencies.\n',
        'Error running job: [WinError 126] 找不到指定的模块。 Error loading "C:\\Users\\d\\LORA Training\\venv\\Lib\\site-packages\\torch\\lib\\fbgemm.dll" or one of its dependencies.\n',
        # a logger that wraps the path onto the next line
        '02:54:18-197331 ERROR    Could not load torch: [WinError 126] The specified module could not be found. Error loading\n'
        '                         "P:\\AI\\kohya_ss\\venv\\lib\\site-packages\\torch\\lib\\fbgemm.dll" or one of its dependencies.\n',
        # the message's second half without the WinError prefix, CRLF line ends
        'The specified module could not be found. Error loading "C:\\venv\\Lib\\site-packages\\torch\\lib\\fbgemm.dll" or one of its dependencies.\r\n',
        # typographic quotes and a typo, forward slashes
        'Erro loading \u201cxxx/Lib/site-packages/torch/lib/fbgemm.dll\u201d or one of its dependencies.\n',
        # a quoted reply marker
        '> OSError: [WinError 126] Error loading "D:\\sd\\venv\\Lib\\site-packages\\torch\\lib\\fbgemm.dll" or one of its dependencies.\n',
    ],
)
def test_fbgemm_dll_that_did_not_load_is_read(text: str) -> None:
    assert "torch_fbgemm_dll_load_failed" in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        # another DLL of torch: other causes (the VC++ runtime, MKL, a CUDA DLL)
        'OSError: [WinError 126] The specified module could not be found. Error loading "C:\\venv\\Lib\\site-packages\\torch\\lib\\c10.dll" or one of its dependencies.\n',
        'OSError: [WinError 126] Error loading "C:\\venv\\Lib\\site-packages\\torch\\lib\\shm.dll" or one of its dependencies.\n',
        # the file named in a listing, not a failure
        "C:\\venv\\Lib\\site-packages\\torch\\lib\\fbgemm.dll\n",
        "fbgemm.dll seems to require libomp140.x86_64.dll\n",
    ],
)
def test_other_lines_are_not_an_fbgemm_load_failure(text: str) -> None:
    assert "torch_fbgemm_dll_load_failed" not in signature_errors(text)


def test_the_openmp_runtime_explains_the_failure_first() -> None:
    report = (
        "GPU: AMD Radeon(TM) 860M Graphics\n"
        "python -m pip install --index-url https://d2awnip2yjpvqn.cloudfront.net/v2/gfx1151/ torch\n"
        ">>> import torch\n"
        "Traceback (most recent call last):\n"
        '  File "C:\\venv\\Lib\\site-packages\\torch\\__init__.py", line 292, in _load_dll_libraries\n'
        "    raise err\n"
        'OSError: [WinError 126] The specified module could not be found. Error loading "C:\\venv\\Lib\\site-packages\\torch\\lib\\fbgemm.dll" or one of its dependencies.\n'
    )
    assert problems_shown(report)[:1] == ["RD891"]


def test_a_missing_visual_cpp_runtime_stays_first() -> None:
    report = (
        "Microsoft Visual C++ Redistributable is not installed, this may lead to the DLL load failure.\n"
        'OSError: [WinError 126] The specified module could not be found. Error loading "C:\\venv\\Lib\\site-packages\\torch\\lib\\fbgemm.dll" or one of its dependencies.\n'
    )
    shown = problems_shown(report)
    assert shown[:1] == ["RD783"] and "RD891" not in shown
