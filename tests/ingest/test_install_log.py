"""pip's and uv's install logs: what an install removed (the past), kept and put in place (the present)."""

from __future__ import annotations

import pytest
from ingest_helpers import ingest

from rocm_doctor.judge.derived import DerivedValues

PIP_REPLACE = """\
Installing collected packages: torch, lion-pytorch
  Attempting uninstall: torch
    Found existing installation: torch 2.4.0.dev20240520+rocm6.1
    Uninstalling torch-2.4.0.dev20240520+rocm6.1:
      Successfully uninstalled torch-2.4.0.dev20240520+rocm6.1
Successfully installed lion-pytorch-0.2.2 torch-2.3.1 torchvision-0.18.1
"""

UV_REPLACE = """\
Resolved 24 packages in 1.10s
Uninstalled 2 packages in 310ms
Installed 2 packages in 1.25s
 - torch==2.5.1+rocm6.2
 + torch==2.6.0
 - torchvision==0.20.1+rocm6.2
 + torchvision==0.21.0
"""

USER_SITE = (
    r"Requirement already satisfied: torch in C:\Users\net.main\AppData\Roaming\Python\Python312\site-packages"
    r" (from -r requirements.txt (line 4)) (2.4.1)" "\n"
    r"Requirement already satisfied: torchaudio in .\python_env\Lib\site-packages"
    r" (from -r requirements.txt (line 7)) (2.11.0.3+rocm10.1.0a20260905)" "\n"
)


@pytest.mark.parametrize("text", [PIP_REPLACE, UV_REPLACE], ids=["pip", "uv"])
def test_a_removed_torch_is_the_earlier_state_and_the_installed_one_is_current(text: str) -> None:
    facts = ingest(text).facts
    assert facts.torch.version.value in ("2.3.1", "2.6.0")
    assert facts.symptoms.earlier.value and facts.symptoms.earlier.value[0].startswith("torch.version=")
    assert "rocm" in facts.symptoms.earlier.value[0]
    assert facts.torch.flavour.status != "known" or facts.torch.flavour.value != "rocm"


@pytest.mark.parametrize("text", [PIP_REPLACE, UV_REPLACE], ids=["pip", "uv"])
def test_a_rocm_torch_removed_for_an_untagged_one_is_a_replacement(text: str) -> None:
    replaced = DerivedValues(ingest(text).facts).machine("derived.rocm_torch_replaced")
    assert replaced.status == "known" and "rocm6" in replaced.value


def test_a_rocm_torch_reinstalled_over_a_rocm_torch_is_no_replacement() -> None:
    text = PIP_REPLACE.replace("torch-2.3.1 ", "torch-2.5.1+rocm6.2 ")
    facts = ingest(text).facts
    assert facts.torch.flavour.value == "rocm"
    assert DerivedValues(facts).machine("derived.rocm_torch_replaced").status == "absent"


def test_an_uninstall_alone_says_nothing_about_the_torch_now() -> None:
    facts = ingest("Found existing installation: torch 2.8.0.dev20250406+rocm6.3\n  Successfully uninstalled torch-2.8.0.dev20250406+rocm6.3\n").facts
    assert facts.torch.version.status != "known"
    assert DerivedValues(facts).machine("derived.rocm_torch_replaced").status == "unknown"


def test_uvs_package_diff_pasted_without_its_summary_still_marks_the_removed_torch_as_the_earlier_state() -> None:
    # cw48: a paste that keeps uv's " - / + " lines and drops "Uninstalled 1 package in ..." above them
    text = UV_REPLACE.split("1.25s\n", 1)[1]
    facts = ingest(text).facts
    assert facts.symptoms.earlier.value and "rocm" in facts.symptoms.earlier.value[0]
    assert facts.torch.flavour.status != "known" or facts.torch.flavour.value != "rocm"


def test_a_markdown_list_of_pins_is_not_read_as_uv_removing_them() -> None:
    facts = ingest("My versions:\n- torch==2.5.1+rocm6.2\n- torchvision==0.20.1+rocm6.2\n").facts
    assert facts.symptoms.earlier.status != "known"


def test_an_already_satisfied_torch_gives_its_version_and_folder_and_keeps_the_platform() -> None:
    facts = ingest(USER_SITE).facts
    assert facts.torch.version.value == "2.4.1"
    assert facts.torch.location.value == r"C:\Users\net.main\AppData\Roaming\Python\Python312\site-packages"
    assert facts.torch.torchaudio_version.value == "2.11.0.3+rocm10.1.0a20260905"
    assert facts.host.os.value == "windows"
    assert DerivedValues(facts).machine("derived.torch_from_user_site").status == "known"


@pytest.mark.parametrize(
    ("folder", "user_site"),
    [
        ("/home/me/.local/lib/python3.12/site-packages", True),
        (r"C:\Users\me\AppData\Roaming\Python\Python311\site-packages", True),
        ("/home/me/venv/lib/python3.12/site-packages", False),
        (r".\python_env\Lib\site-packages", False),
    ],
)
def test_only_the_per_user_folders_count_as_the_user_site(folder: str, user_site: bool) -> None:
    facts = ingest(f"Requirement already satisfied: torch in {folder} (2.4.1)\n").facts
    assert facts.torch.location.value == folder
    status = DerivedValues(facts).machine("derived.torch_from_user_site").status
    assert (status == "known") is user_site


def test_an_install_log_never_says_what_is_not_installed() -> None:
    facts = ingest("Successfully installed torch-2.10.0+rocm7.14.0a20260521 torchvision-0.25.0+rocm7.14.0a20260521\n").facts
    assert facts.torch.version.value == "2.10.0+rocm7.14.0a20260521"
    assert facts.packages.installed.status != "known"


PULLED = """\
$ pip install --upgrade torchvision
Collecting torchvision
  Downloading https://files.pythonhosted.org/packages/2e/45/0f/torchvision-0.3.0-cp36-cp36m-manylinux1_x86_64.whl (2.6MB)
Collecting torch>=1.1.0 (from torchvision)
  Downloading https://files.pythonhosted.org/packages/69/60/f6/torch-1.1.0-cp36-cp36m-manylinux1_x86_64.whl (676.9MB)
"""


def test_torch_collected_for_another_package_from_a_non_rocm_index_is_marked() -> None:
    assert "torch_pulled_by_dependency" in (ingest(PULLED).facts.symptoms.context.value or [])


@pytest.mark.parametrize(
    "text",
    [
        "Collecting torch==2.5.1+rocm6.2 (from torchvision)\n"
        "  Downloading https://download.pytorch.org/whl/rocm6.2/torch-2.5.1%2Brocm6.2-cp312-cp312-linux_x86_64.whl (4.5 GB)\n",
        "Collecting torch\n  Downloading torch-2.6.0-cp312-cp312-manylinux1_x86_64.whl.metadata (28 kB)\n",
    ],
    ids=["rocm-wheel", "not-a-dependency"],
)
def test_a_rocm_wheel_or_a_direct_install_is_not_marked(text: str) -> None:
    assert "torch_pulled_by_dependency" not in (ingest(text).facts.symptoms.context.value or [])


def test_messages_wrapped_by_an_editor_are_read_whole() -> None:
    wrapped = (
        "Requirement already satisfied: torch in\n"
        r"C:\Users\net.main\AppData\Roaming\Python\Python312\site-packages (from -r" "\n"
        "requirements.txt (line 4)) (2.4.1)\n"
    )
    facts = ingest(wrapped).facts
    assert facts.torch.location.value == r"C:\Users\net.main\AppData\Roaming\Python\Python312\site-packages"
    assert facts.torch.version.value == "2.4.1"
    installed = ingest("Successfully installed filelock-3.9.0 networkx-3.0\ntorch-2.3.1 torchvision-0.18.1\n").facts
    assert installed.torch.version.value == "2.3.1"
    assert installed.torch.torchvision_version.value == "0.18.1"


@pytest.mark.parametrize(
    ("torchvision", "untagged"),
    [("0.24.1", True), ("0.24.1+rocm7.2.1", False), ("0.24.1+cu128", False)],
)
def test_an_untagged_torchvision_beside_a_rocm_wheel_is_named(torchvision: str, untagged: bool) -> None:
    facts = ingest(f"torch==2.9.1+rocm7.2.1\ntorchvision=={torchvision}\nnumpy==2.1.0\n").facts
    status = DerivedValues(facts).machine("derived.untagged_companions_beside_rocm_torch").status
    assert (status == "known") is untagged


@pytest.mark.parametrize(
    ("text", "marked"),
    [
        ("Collecting torch\n  Downloading torch-2.6.0-cp312-cp312-manylinux1_x86_64.whl.metadata (28 kB)\n", True),
        ("Collecting torch (from -r requirements.txt (line 4))\n  Using cached torch-2.5.1-cp311-cp311-win_amd64.whl (203.1 MB)\n", True),
        ("Collecting torch==2.5.1+rocm6.2\n  Downloading https://download.pytorch.org/whl/rocm6.2/torch-2.5.1%2Brocm6.2-cp312-cp312-linux_x86_64.whl\n", False),
        ("Collecting torch\n  Downloading torch-2.8.0a0+gitfc14c65-cp312-cp312-win_amd64.whl (1.2 GB)\n", False),
        ("Collecting torchvision\n  Downloading torchvision-0.21.0-cp312-cp312-manylinux1_x86_64.whl (7 MB)\n", False),
    ],
    ids=["pypi", "requirements-file", "rocm-wheel", "git-tag-undecided", "torchvision-only"],
)
def test_a_directly_collected_torch_wheel_that_is_not_rocm_is_marked(text: str, marked: bool) -> None:
    assert ("torch_wheel_not_rocm_fetched" in (ingest(text).facts.symptoms.context.value or [])) is marked


@pytest.mark.parametrize(
    ("text", "marked"),
    [
        # pip >= 23 fetches the metadata under "Collecting torch" and the wheel itself after resolving
        ("Downloading torch-2.4.0-cp310-cp310-manylinux1_x86_64.whl (797.2 MB)\n", True),
        ("  Downloading https://download.pytorch.org/whl/cu121/torch-2.3.0%2Bcu121-cp311-cp311-linux_x86_64.whl (781.0 MB)\n", True),
        ("  Using cached torch-2.8.0-cp312-cp312-win_amd64.whl.metadata (30 kB)\n", True),
        ("Processing ./torch-2.4.0+cu121-cp310-cp310-linux_x86_64.whl\n", True),
        ("  Obtaining dependency information for torch from https://files.pythonhosted.org/packages/aa/bb/torch-2.1.0-cp311-cp311-manylinux1_x86_64.whl.metadata\n", True),
        ("Downloading https://download.pytorch.org/whl/rocm6.3/torch-2.7.1%2Brocm6.3-cp310-cp310-manylinux_2_28_x86_64.whl (4543.9 MB)\n", False),
        ("Processing c:\\users\\my name\\torch-2.9.1+rocmsdk20251203-cp312-cp312-win_amd64.whl\n", False),
    ],
    ids=["pypi-linux", "cuda-index-url", "pypi-windows-metadata", "local-cuda-file", "pip-23.2-metadata", "rocm-index", "local-rocm-file-space-in-folder"],
)
def test_a_torch_wheel_fetched_without_collecting_torch_above_it_is_read(text: str, marked: bool) -> None:
    assert ("torch_wheel_not_rocm_fetched" in (ingest(text).facts.symptoms.context.value or [])) is marked


@pytest.mark.parametrize(
    "wheel",
    [
        "torch-2.4.0-cp312-none-macosx_11_0_arm64.whl",
        "torch-2.9.0-cp312-cp312-manylinux_2_28_aarch64.whl",
        "torch-2.4.0-cp310-cp310-linux_x86_64.whl",
    ],
    ids=["macos", "aarch64", "local-build-platform-tag"],
)
def test_an_untagged_wheel_for_a_platform_not_judged_is_not_marked(wheel: str) -> None:
    for text in (f"Collecting torch\n  Downloading {wheel} (100 MB)\n", f"Downloading {wheel} (100 MB)\n"):
        assert "torch_wheel_not_rocm_fetched" not in (ingest(text).facts.symptoms.context.value or [])


def test_wheels_pip_download_saved_are_not_the_environments() -> None:
    text = (
        "Collecting torch\n  Downloading torch-2.4.0-cp310-cp310-manylinux1_x86_64.whl (797.2 MB)\n"
        "Saved ./torch-2.4.0-cp310-cp310-manylinux1_x86_64.whl\nSuccessfully downloaded torch\n"
    )
    assert "torch_wheel_not_rocm_fetched" not in (ingest(text).facts.symptoms.context.value or [])


def test_a_fetched_wheel_that_a_later_step_uninstalled_is_the_earlier_state() -> None:
    text = (
        "Collecting torch\n  Downloading torch-2.4.0-cp310-cp310-manylinux1_x86_64.whl (797.2 MB)\n"
        "Successfully installed torch-2.4.0\n"
        "$ pip uninstall -y torch\nFound existing installation: torch 2.4.0\nUninstalling torch-2.4.0:\n"
        "  Successfully uninstalled torch-2.4.0\n"
    )
    assert "torch_wheel_not_rocm_fetched" not in (ingest(text).facts.symptoms.context.value or [])
    before = "Found existing installation: torch 2.4.0+rocm6.1\nUninstalling torch-2.4.0+rocm6.1:\n  Successfully uninstalled torch-2.4.0+rocm6.1\n"
    after = "Collecting torch\n  Downloading torch-2.4.0-cp310-cp310-manylinux1_x86_64.whl (797.2 MB)\n"
    assert "torch_wheel_not_rocm_fetched" in (ingest(before + after).facts.symptoms.context.value or [])


def test_the_wheel_pip_fetches_again_after_resolving_keeps_what_collected_it() -> None:
    text = (
        "Collecting torchvision\n  Downloading torchvision-0.19.0-cp310-cp310-manylinux1_x86_64.whl.metadata (6.0 kB)\n"
        "Collecting torch==2.4.0 (from torchvision)\n  Downloading torch-2.4.0-cp310-cp310-manylinux1_x86_64.whl.metadata (26 kB)\n"
        "Downloading torchvision-0.19.0-cp310-cp310-manylinux1_x86_64.whl (7.0 MB)\n"
        "Downloading torch-2.4.0-cp310-cp310-manylinux1_x86_64.whl (797.2 MB)\n"
    )
    contexts = ingest(text).facts.symptoms.context.value or []
    assert "torch_pulled_by_dependency" in contexts
    assert "torch_wheel_not_rocm_fetched" not in contexts


# pkgenv47: another package's install that uninstalls the torch that was there
XFORMERS_REPLACES = """\
Collecting torch==2.0.0 (from xformers==0.0.19)
  Downloading torch-2.0.0-cp310-cp310-manylinux1_x86_64.whl (619.9 MB)
Installing collected packages: torch, xformers
  Attempting uninstall: torch
    Found existing installation: torch 2.0.1+cu118
      Successfully uninstalled torch-2.0.1+cu118
Successfully installed torch-2.0.0 xformers-0.0.19
"""

COMMAND_REPLACES = """\
```
$ pip install torch torchvision torchaudio --extra-index-url https://download.pytorch.org/whl/cu121
$ pip install xformers==0.0.26.post1
Collecting torch==2.3.0
  Using cached torch-2.3.0-cp310-cp310-manylinux1_x86_64.whl (779.1 MB)
  Attempting uninstall: torch
    Found existing installation: torch 2.3.1+cu121
```
"""


@pytest.mark.parametrize("text", [XFORMERS_REPLACES, COMMAND_REPLACES])
def test_another_packages_install_that_uninstalls_torch_is_a_replacement_by_that_package(text: str) -> None:
    context = ingest(text).facts.symptoms.context.value or []
    assert "torch_replaced_by_package_install" in context


@pytest.mark.parametrize(
    "text",
    [
        # torch asked for by name
        "$ pip install torch==2.5.1 --index-url https://download.pytorch.org/whl/rocm6.2\n"
        "  Attempting uninstall: torch\n    Found existing installation: torch 2.4.1\n"
        "Successfully installed torch-2.5.1+rocm6.2\n",
        # a set upgraded together: torch comes with its torchvision
        "$ pip install -U torchvision --index-url https://download.pytorch.org/whl/rocm6.2\n"
        "  Attempting uninstall: torch\n    Found existing installation: torch 2.4.1+rocm6.1\n"
        "Successfully installed torch-2.5.1+rocm6.2 torchvision-0.20.1+rocm6.2\n",
        # a requirements file may name torch itself
        "$ pip install -r requirements.txt\n  Attempting uninstall: torch\n    Found existing installation: torch 2.4.1\n",
        # no uninstall
        "Collecting torch==2.0.0 (from xformers==0.0.19)\nSuccessfully installed torch-2.0.0 xformers-0.0.19\n",
    ],
)
def test_torch_asked_for_upgraded_with_its_set_from_a_requirements_file_or_not_removed_is_no_replacement(text: str) -> None:
    context = ingest(text).facts.symptoms.context.value or []
    assert "torch_replaced_by_package_install" not in context


def test_a_command_written_before_the_fenced_log_of_its_output_decides_the_replacement() -> None:
    # facebookresearch/xformers#1146: the command in prose, pip's output in the fence after it
    text = (
        "pip3 install -U xformers --index-url https://download.pytorch.org/whl/cu121\n```\n"
        "Installing collected packages: torch, xformers\n  Attempting uninstall: torch\n"
        "    Found existing installation: torch 2.4.1\n      Successfully uninstalled torch-2.4.1\n```\n"
    )
    assert "torch_replaced_by_package_install" in (ingest(text).facts.symptoms.context.value or [])
    asked = text.replace("install -U xformers", "install -U torch xformers")
    assert "torch_replaced_by_package_install" not in (ingest(asked).facts.symptoms.context.value or [])


_REMOVES_241 = "  Attempting uninstall: torch\n    Found existing installation: torch 2.4.1\n      Successfully uninstalled torch-2.4.1\n"


@pytest.mark.parametrize(
    "command",
    [
        # rev47c: torch named in quotes, on a continued line, in a later command of a chain; every dependency reinstalled
        "$ pip install \"torch>=2.5\" xformers",
        "$ pip install 'torch[opt-einsum]==2.5.1' xformers",
        "$ pip install --upgrade \\",
        "$ pip install xformers && pip install torch==2.5.1",
        "$ pip install --force-reinstall accelerate\nCollecting torch>=1.10.0 (from accelerate)",
        "$ pip install -U --upgrade-strategy eager accelerate\nCollecting torch>=1.10.0 (from accelerate)",
    ],
)
def test_torch_quoted_continued_chained_or_reinstalled_with_every_dependency_is_no_replacement_by_the_package(command: str) -> None:
    context = ingest(command + "\n" + _REMOVES_241).facts.symptoms.context.value or []
    assert "torch_replaced_by_package_install" not in context


def test_a_quoted_package_that_is_not_torch_still_replaces_it() -> None:
    context = ingest("$ pip install \"xformers==0.0.26.post1\"\n" + _REMOVES_241).facts.symptoms.context.value or []
    assert "torch_replaced_by_package_install" in context


@pytest.mark.parametrize(
    "uninstall",
    [
        # ROCm/legacy-rocm-build#4358: an unrelated install, then the user's own uninstall of torch
        "(.venv) mcon@ikea:~/AMD$ pip uninstall -y torch torchvision",
        # lllyasviel/Fooocus#3674, ROCm/legacy-rocm-build#4749: python -m pip / pip3 forms
        "(fooocus_env) debian@debian:~/Fooocus$ python -m pip uninstall torch torchvision torchaudio xformers",
        "$ pip3 uninstall torch torchvision pytorch-triton-rocm",
        # rev55g: the prompt or the interpreter's path holds a space, or the launcher is py.exe
        "C:\\Users\\Jane Doe\\ComfyUI\\venv\\Scripts\\python.exe -m pip uninstall -y torch torchvision",
        "(venv) PS C:\\Users\\Jane Doe\\ComfyUI> python -m pip uninstall -y torch",
        "C:\\Users\\me\\app>py -m pip uninstall torch==2.4.1 -y",
    ],
)
def test_torch_removed_by_the_users_own_uninstall_after_another_install_is_no_replacement(uninstall: str) -> None:
    before = "$ pip install --upgrade pip\nSuccessfully installed pip-25.0.1\n"
    context = ingest(before + uninstall + "\n" + _REMOVES_241).facts.symptoms.context.value or []
    assert "torch_replaced_by_package_install" not in context
    # the same removal right after the unrelated install, with no uninstall between, still is one
    assert "torch_replaced_by_package_install" in (ingest(before + _REMOVES_241).facts.symptoms.context.value or [])


def test_an_uninstall_of_torchvision_alone_does_not_hide_the_package_that_replaced_torch() -> None:
    # rev55g: a launcher prints pip's output without the install command; the torch removal follows
    # 'Collecting torch==2.4.1 (from xformers==0.0.28)', not the user's uninstall of torchvision
    text = (
        "$ pip uninstall -y torchvision\nFound existing installation: torchvision 0.19.0\nUninstalling torchvision-0.19.0:\n"
        "  Successfully uninstalled torchvision-0.19.0\nInstalling xformers\nCollecting xformers==0.0.28\n"
        "Collecting torch==2.4.1 (from xformers==0.0.28)\n  Downloading torch-2.4.1-cp310-cp310-manylinux1_x86_64.whl (797.1 MB)\n"
        "Installing collected packages: torch, xformers\n" + _REMOVES_241
    )
    assert "torch_replaced_by_package_install" in (ingest(text).facts.symptoms.context.value or [])
