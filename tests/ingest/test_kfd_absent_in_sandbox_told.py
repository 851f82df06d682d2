"""/dev/kfd said in words to be missing from (or unreachable in) a named container or sandbox (signature
kfd_absent_in_sandbox_told, rule RD490), and the same words where they are advice, a condition, a document's, a
question, WSL2's (no /dev/kfd by design) or the host's (the driver, not the container's device list).

The read forms follow zelikos/davincibox#193 ("It doesn't seem to have access to `/dev/kfd`"),
SirUli/homeassistant-ollama-addon#309 ("the only thing missing ... is the existence of /dev/kfd") and
apptainer/singularity#5696 ("the `/dev/kfd` device will not be present if we are using `--contain`")."""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, report_contexts

TOLD = "kfd_absent_in_sandbox_told"


@pytest.mark.parametrize(
    "text",
    [
        "I run ComfyUI in a distrobox on Fedora with an RX 7900 XTX. The distrobox doesn't have access to /dev/kfd, so it uses the CPU.\n",
        "The add-on's device list is missing /dev/kfd, Ollama only uses the CPU on my RX 6800.\n",
        "With apptainer --contain, /dev/kfd is not present in the container and rocminfo shows no GPU agent.\n",
        "My LXC container has no access to /dev/kfd, only /dev/dri is passed.\n",
        "/dev/kfd exists on the host, but /dev/kfd is not present in the distrobox, so rocminfo finds no agent.\n",
        "The host has /dev/kfd, but the podman container doesn't have access to /dev/kfd.\n",
    ],
)
def test_kfd_said_absent_in_a_sandbox_is_read(text: str) -> None:
    assert TOLD in report_contexts(text)
    assert "RD490" in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        # advice and conditions
        "Make sure /dev/kfd is passed to the docker container, otherwise ROCm will not see the GPU.\n",
        "If we use --contain, /dev/kfd will not be present in the container, so use --bind.\n",
        "If /dev/kfd isn't present in the container, add it to the compose file.\n",
        "In case /dev/kfd is not available in the container, HIP falls back to CPU.\n",
        "Just a note for others: if you run in toolbox, you don't have access to /dev/kfd unless you pass it.\n",
        # a document's words
        'The docs say: "/dev/kfd is not passed through to the container unless you add --device=/dev/kfd".\n',
        "Note that /dev/kfd is not exposed in snap packages by default, see the snapcraft docs.\n",
        # questions
        "Does the container not have access to /dev/kfd? rocminfo inside podman shows nothing.\n",
        "Is /dev/kfd not available in the flatpak sandbox? I get no GPU in Blender.\n",
        # WSL2 has no /dev/kfd by design
        "/dev/kfd is not available on WSL2, so inside the docker container ROCm uses the DXG path instead.\n",
        # the host lacks it: the driver, not the container's device list
        "On the host, /dev/kfd is not present either, lsmod shows no amdgpu, so the docker container cannot get it.\n",
        "Ubuntu 24.04 host, the host's /dev/kfd is missing after the kernel update, so the podman container finds nothing.\n",
        # 'missing' in another meaning, a healthy container
        "I'm probably missing something obvious: /dev/kfd exists and is passed into the container, but torch sees no GPU.\n",
        "Nothing seems to be missing, /dev/kfd and /dev/dri are both in the container and rocminfo lists gfx1030.\n",
        # the past, another person's machine
        "Previously the container did not have access to /dev/kfd but after adding --device it works now.\n",
        "My friend's podman container doesn't have access to /dev/kfd, mine works fine.\n",
    ],
)
def test_the_same_words_not_said_of_this_sandbox_now_are_not_read(text: str) -> None:
    assert TOLD not in report_contexts(text)
    assert "RD490" not in problems_shown(text)
