"""Import errors that name a package of another release than the torch or torchvision beside it
and other packages beside them (rules/data/signatures.yaml torch_library_register_fake_missing,
torchvision_private_module_removed and pkg_resources_packaging_removed; RD875, RD876, RD877; envtrm49).

Shapes from real reports: "AttributeError: module 'torch.library' has no attribute 'register_fake'"
(lllyasviel/IC-Light#77, oobabooga/textgen#6373 in a rich traceback, camenduru/flux-jupyter#15,
computational-cell-analytics/micro-sam#953 inside a RuntimeError's text) and "ModuleNotFoundError: No module
named 'torchvision.transforms.functional_tensor'" (XPixelGroup/BasicSR#711, TencentARC/GFPGAN#602,
xinntao/Real-ESRGAN#777 whose paste lost the closing quote), and torch's "cannot import name 'packaging' from
'pkg_resources'" beside setuptools 70 (stanford-futuredata/ColBERT#350, intel/intel-extension-for-pytorch#662).
"""

from __future__ import annotations

import pytest
from ingest_helpers import block

from rocm_doctor.ingest.signatures import match_block


def _ids(text: str) -> list:
    return [p.kind.split(":", 1)[1] for p in match_block(block(text)) if p.kind.startswith("error:")]


@pytest.mark.parametrize(
    "text",
    [
        "AttributeError: module 'torch.library' has no attribute 'register_fake'",
        "module 'torch.library' has no attribute 'register_fake'",
        "RuntimeError: Failed to import command at 'micro_sam.sam_annotator.annotator_3d:Annotator3d': module 'torch.library' has no attribute 'register_fake'",
        "AttributeError: module `torch.library` has no attribute `register_fake`",
    ],
)
def test_a_package_for_torch_2_4_in_an_older_torch_is_read(text: str) -> None:
    assert "torch_library_register_fake_missing" in _ids(text)


@pytest.mark.parametrize(
    "text",
    [
        # torch's own decorator in a traceback line is not the error
        '    @torch.library.register_fake("torchvision::nms")',
        "AttributeError: module 'torch.library' has no attribute 'custom_op'",
        "RuntimeError: operator torchvision::nms does not exist",
    ],
)
def test_other_torch_library_lines_are_not_read_as_register_fake_missing(text: str) -> None:
    assert "torch_library_register_fake_missing" not in _ids(text)


@pytest.mark.parametrize(
    "text",
    [
        "ModuleNotFoundError: No module named 'torchvision.transforms.functional_tensor'",
        "(ModuleNotFoundError: No module named 'torchvision.transforms.functional_tensor)",
        "ModuleNotFoundError: No module named 'torchvision.transforms.functional_pil'",
        "No module named torchvision.transforms.functional_tensor",
    ],
)
def test_a_package_importing_a_removed_torchvision_module_is_read(text: str) -> None:
    assert "torchvision_private_module_removed" in _ids(text)


@pytest.mark.parametrize(
    "text",
    [
        # torchvision 0.15 and 0.16 warn while the import still works
        "UserWarning: The torchvision.transforms.functional_tensor module is deprecated in 0.15 and will be **removed in 0.17**. Please don't rely on it.",
        "ModuleNotFoundError: No module named 'torchvision'",
        "    from torchvision.transforms.functional_tensor import rgb_to_grayscale",
    ],
)
def test_the_deprecation_warning_and_other_lines_are_not_the_removal(text: str) -> None:
    assert "torchvision_private_module_removed" not in _ids(text)


@pytest.mark.parametrize(
    "text",
    [
        # torch's cpp_extension line beside setuptools 70 (stanford-futuredata/ColBERT#350, flashinfer-ai/flashinfer#319)
        "ImportError: cannot import name 'packaging' from 'pkg_resources' (/home/u/venv/lib/python3.10/site-packages/pkg_resources/__init__.py)",
        "ImportError: cannot import name 'packaging' from 'pkg_resources'",
        "[torch]: ImportError: cannot import name 'packaging' from 'pkg_resources'",
    ],
)
def test_torch_importing_packaging_through_pkg_resources_is_read(text: str) -> None:
    assert "pkg_resources_packaging_removed" in _ids(text)


@pytest.mark.parametrize(
    "text",
    [
        "    from pkg_resources import packaging  # type: ignore[attr-defined]",
        "ModuleNotFoundError: No module named 'pkg_resources'",
        "ImportError: cannot import name 'version' from 'packaging'",
    ],
)
def test_other_pkg_resources_lines_are_not_the_removed_packaging(text: str) -> None:
    assert "pkg_resources_packaging_removed" not in _ids(text)


@pytest.mark.parametrize(
    "text",
    [
        "If you get 'No module named torchvision.transforms.functional_tensor', install torchvision 0.16.2.",
        "I used to get \"module 'torch.library' has no attribute 'register_fake'\", now it works after upgrading torch.",
        "If you see ImportError: cannot import name 'packaging' from 'pkg_resources', pin setuptools<70.",
    ],
)
def test_these_messages_as_advice_or_as_the_past_are_not_read(text: str) -> None:
    assert not {"torchvision_private_module_removed", "torch_library_register_fake_missing", "pkg_resources_packaging_removed"} & set(_ids(text))


def test_pkg_resources_packaging_from_another_package_is_not_said_to_be_torch() -> None:
    # rev49b: the same ImportError from a package other than torch (mmcv's own import of pkg_resources.packaging):
    # RD877 still fires, but neither its title nor its message may say torch is the one that imports it
    from rocm_doctor.ingest import ingest_text
    from rocm_doctor.judge.loader import load_rules
    from rocm_doctor.pipeline import evaluate

    text = (
        '  File "/home/u/venv/lib/python3.10/site-packages/mmcv/utils/version_utils.py", line 5, in <module>\n'
        "    from pkg_resources import packaging\n"
        "ImportError: cannot import name 'packaging' from 'pkg_resources' (/home/u/venv/lib/python3.10/site-packages/pkg_resources/__init__.py)\n"
    )
    findings = [f for f in evaluate(load_rules([], use_env=False), ingest_text(text).facts).findings if f.id == "RD877"]
    assert findings
    assert not findings[0].title.lower().startswith("torch")
    assert "torch and setuptools are of releases" not in findings[0].message


def test_register_fake_from_xformers_beside_a_fitting_torchvision_gets_no_torchvision_command() -> None:
    # rev49b: torch 2.3.1 with its torchvision 0.18.1 and an xformers for torch 2.4.1 raising the error: RD875 fires,
    # but no fix may reinstall torchvision (it already fits); the package is found in the traceback
    from rocm_doctor.ingest import ingest_text
    from rocm_doctor.judge.loader import load_rules
    from rocm_doctor.pipeline import evaluate

    text = (
        '  File "/home/u/venv/lib/python3.10/site-packages/xformers/ops/fmha/flash.py", line 120, in <module>\n'
        "AttributeError: module 'torch.library' has no attribute 'register_fake'\n\n"
        "torch                     2.3.1+rocm6.0\ntorchvision               0.18.1+rocm6.0\nxformers                  0.0.28.post1\n"
    )
    rules = load_rules([], use_env=False)
    assert [f for f in evaluate(rules, ingest_text(text).facts).findings if f.id == "RD875"]
    rule = next(r for r in rules if r.id == "RD875")
    assert all(f.kind == "manual" for f in rule.fixes)


def test_rd876_message_names_the_functional_pil_module_it_also_fires_on() -> None:
    # rev49b: the signature reads functional_pil too; the message quoted only functional_tensor
    from rocm_doctor.judge.loader import load_rules

    rule = next(r for r in load_rules([], use_env=False) if r.id == "RD876")
    assert "functional_pil" in rule.message


@pytest.mark.parametrize(
    "text",
    [
        # rev49b: the error said to have gone away is a fix that worked, not the present failure
        "The error ImportError: cannot import name 'packaging' from 'pkg_resources' went away once I pinned setuptools 69.5.1.",
        "Solved: 'No module named torchvision.transforms.functional_tensor' disappeared after I edited degradations.py.",
    ],
)
def test_these_messages_said_to_have_gone_away_are_not_read(text: str) -> None:
    assert not {"torchvision_private_module_removed", "torch_library_register_fake_missing", "pkg_resources_packaging_removed"} & set(_ids(text))


def test_the_message_that_went_away_only_for_a_while_is_still_read() -> None:
    text = "ImportError: cannot import name 'packaging' from 'pkg_resources' went away but came back after the next pip install"
    assert "pkg_resources_packaging_removed" in _ids(text)
