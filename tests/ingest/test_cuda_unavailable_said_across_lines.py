"""torch.cuda.is_available() written on one line and what it gave on the next (perm59).

The forms come from three public reports by different authors: a fenced command ending with the call and then
"returns `False`, while ..." in prose (ROCm/ROCm-docker#114), a snippet and "gives" / "`False`" on lines of their
own (ROCm/legacy-rocm-build#3910), and "`python3 -c '...'`" / "gave me" / "`GPU: False`" (arch4edu/arch4edu#121).
The texts below are our own, in those shapes.
"""

from __future__ import annotations

import pytest
from ingest_helpers import report_contexts, serious_findings

REPORTED = "cuda_unavailable_reported"


@pytest.mark.parametrize(
    "text",
    [
        # the call fenced, the value in the prose after it
        "And then\n```\ndocker run --device /dev/kfd --device /dev/dri -it img bash\npython -c \"import torch; torch.cuda.is_available()\"\n```\n\nreturns `False`, while it works as root.\n",
        # the verb alone on its line, the value on the next
        "Steps:\n\n`python3\n\nimport torch\nprint(torch.cuda.is_available())`\n\ngives\n`False`\n",
        # the verb and a labelled value
        "trying torch\n`python3 -c 'import torch;print(\"GPU:\",torch.cuda.is_available())'`\ngave me\n`GPU: False`\n",
        "```python\nimport torch\ntorch.cuda.is_available()\n```\nit still returns False.\n",
    ],
)
def test_the_call_and_its_false_on_the_next_line_is_read(text: str) -> None:
    assert REPORTED in report_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        # True, not False
        "```\npython -c \"import torch; print(torch.cuda.is_available())\"\n```\nreturns `True`.\n",
        # a condition in code, and what torch does in general
        "```\nif torch.cuda.is_available():\n    x = x.cuda()\n```\nreturns False otherwise.\n",
        "`torch.cuda.is_available()`\nreturns False when there is no GPU at all.\n",
        # a question, an end
        "`torch.cuda.is_available()`\nreturns False?\n",
        "`torch.cuda.is_available()`\nreturned False until I joined the render group.\n",
        # the next line is no continuation of the sentence
        "```\npython -c \"import torch; print(torch.cuda.is_available())\"\n```\nThe docs say False means no GPU.\n",
        # a quoted reply holds no half of the reporter's sentence
        "> ```\n> python -c \"import torch; print(torch.cuda.is_available())\"\n> ```\n> returns `False`\n\nThanks, that worked.\n",
    ],
)
def test_no_false_said_of_the_call_is_not_read(text: str) -> None:
    assert REPORTED not in report_contexts(text)


def test_a_non_root_image_user_whose_torch_says_false_across_lines_is_a_permissions_finding() -> None:
    # ROCm/ROCm-docker#114's shape: a Dockerfile's USER, /dev/kfd passed without a group, the value after the fence
    text = (
        "I run my containers as non-root:\n\n```\nFROM rocm/dev-ubuntu-22.04:5.6.1\nRUN adduser --disabled-password user\n"
        "USER user\nRUN pip install torch --index-url https://download.pytorch.org/whl/rocm5.6/\n```\n\nAnd then\n"
        "```\ndocker run --device /dev/kfd --device /dev/dri -it --rm img:latest /bin/bash\n"
        "python -c \"import torch; torch.cuda.is_available()\"\n```\n\nreturns `False`.\n"
    )
    found = serious_findings(text)
    assert found and found[0][2] == "permissions", found


_DOCKERFILE_USER = (
    "```\nFROM rocm/dev-ubuntu-22.04:5.6.1\nRUN adduser --disabled-password user\nUSER user\n"
    "RUN pip install torch --index-url https://download.pytorch.org/whl/rocm5.6/\n```\n\n"
)
_FALSE_AFTER = "python -c \"import torch; torch.cuda.is_available()\"\n```\n\nreturns `False`.\n"


@pytest.mark.parametrize(
    "text",
    [
        # the image runs as root (no USER line): groups decide nothing there
        "```\nFROM rocm/dev-ubuntu-22.04:5.6.1\nRUN pip install torch\n```\n\n```\n"
        "docker run --device /dev/kfd --device /dev/dri -it img bash\n" + _FALSE_AFTER,
        # the non-root user is given the render group
        _DOCKERFILE_USER + "```\ndocker run --device /dev/kfd --device /dev/dri --group-add video --group-add render -it img bash\n" + _FALSE_AFTER,
        # root and every device (--privileged)
        "```\ndocker run --privileged -u 0 -it img bash\n" + _FALSE_AFTER,
    ],
)
def test_a_false_said_across_lines_names_no_non_root_user_where_the_container_is_root_or_given_render(text: str) -> None:
    assert REPORTED in report_contexts(text)
    assert "RD613" not in [rule for rule, _, _ in serious_findings(text)]


@pytest.mark.parametrize(
    "said",
    [
        # rev59: another person's machine, another vendor's image
        "returns False on my colleague's machine, on mine it returns True.",
        "returns False for the nvidia image, True for the rocm one.",
    ],
)
def test_the_false_of_another_machine_or_vendor_on_the_next_line_is_not_read(said: str) -> None:
    text = "Docker rocm/pytorch non-root user.\n```\npython3 -c \"import torch; print(torch.cuda.is_available())\"\n```\n" + said + "\n"
    assert REPORTED not in report_contexts(text)
