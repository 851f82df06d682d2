"""Where an environment setting lands: a shell startup file beside a service, a global override beside a
GPU of another family, a ROCm listing that shows an override in effect (rules/env_scope.yaml)."""

from __future__ import annotations

from functools import lru_cache
from typing import List

import pytest
from ingest_helpers import ingest

from rocm_doctor.ingest.blocks import split_blocks
from rocm_doctor.ingest.formats import env_settings
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.pipeline import evaluate


@lru_cache(maxsize=None)
def _rules() -> tuple:
    return tuple(load_rules([], use_env=False))


def fired(text: str) -> List[str]:
    return [f.id for f in evaluate(list(_rules()), ingest(text).facts).findings]


# ----------------------------------------------------------------- shell startup files


@pytest.mark.parametrize(
    "text",
    [
        "AMD ROCm setup in .bashrc\nexport HSA_OVERRIDE_GFX_VERSION=10.3.0\n",
        "```\n# ~/.profile\nexport HSA_OVERRIDE_GFX_VERSION=10.3.0\n```\n",
        "I added it to my ~/.zshrc:\n\n`export HSA_OVERRIDE_GFX_VERSION=10.3.0`\n",
        "```\n$ echo 'export HSA_OVERRIDE_GFX_VERSION=10.3.0' >> ~/.bashrc\n```\n",
        "I added these lines to my .bashrc a few days ago, but the program\ndoes not seem to\nsee them at all.\n\n`export HSA_OVERRIDE_GFX_VERSION=10.3.0`\n",
    ],
)
def test_an_export_kept_in_a_shell_startup_file_is_a_shell_rc_setting(text: str) -> None:
    settings = ingest(text).facts.env.settings.value
    assert [(s.name, s.value, s.origin) for s in settings if s.origin == "shell-rc"] == [("HSA_OVERRIDE_GFX_VERSION", "10.3.0", "shell-rc")]


def test_an_export_far_from_any_startup_file_stays_an_export() -> None:
    text = "My ~/.bashrc is the default one.\n\nnothing here\nnor here\n\n```\nexport HSA_OVERRIDE_GFX_VERSION=10.3.0\n```\n"
    assert [s.origin for s in ingest(text).facts.env.settings.value] == ["export"]


SERVICE_JOURNAL = "\n```\n$ journalctl -u ollama\nsystemd[1]: Started Ollama Service.\n```\n"


def test_a_startup_file_setting_does_not_reach_a_systemd_service() -> None:
    assert "RD841" in fired("AMD ROCm setup in .bashrc\nexport HSA_OVERRIDE_GFX_VERSION=10.3.0\n" + SERVICE_JOURNAL)


def test_a_startup_file_setting_reaches_a_program_started_from_the_shell() -> None:
    by_hand = "In ~/.bashrc:\nexport HSA_OVERRIDE_GFX_VERSION=10.3.0\n\nThen I run ollama:\n```\n$ ollama serve\n```\n"
    assert "RD841" not in fired(by_hand)
    no_service = "In ~/.bashrc:\nexport HSA_OVERRIDE_GFX_VERSION=10.3.0\n\n```\n$ python train.py\n```\n"
    assert "RD841" not in fired(no_service)
    exported_in_shell = "export HSA_OVERRIDE_GFX_VERSION=10.3.0\n" + SERVICE_JOURNAL
    assert "RD841" not in fired(exported_in_shell)


# ----------------------------------------------------------------- overrides across GPU families


def test_a_gpu_that_needs_an_override_beside_another_family_gets_the_per_node_advice() -> None:
    text = "### GPU\n\nAMD Instinct MI210, AMD Radeon RX 6600\n\n### ROCm Version\n\nROCm 6.4.1\n"
    ids = fired(text)
    assert "RD840" in ids and "RD511" not in ids


def test_two_gpus_named_in_one_prose_line_are_one_machines_pair() -> None:
    text = "I have an AMD Radeon RX 6600 beside an AMD Instinct MI210 in one box on Ubuntu 24.04.\n"
    assert "RD840" in fired(text)


def test_two_gpus_of_one_sentence_wrapped_over_two_lines_are_one_machines_pair() -> None:
    text = "On Ubuntu 24.04 I run one box that holds both an AMD Radeon RX 6600 for the display and\nan AMD Instinct MI210.\n"
    assert "RD840" in fired(text)


def test_gpus_of_two_posts_in_a_thread_are_not_one_machines_pair() -> None:
    # fix54a: C0untFloyd/roop-unleashed#70 - two people's cards, each in a post of its own
    text = (
        "Could someone here advise me how to get my Vega 64 working on Ubuntu 22.04?\n"
        "[...]\n"
        "Hi, I similarly was trying to use an AMD card (RX 6700 XT) but came across the same issue\n"
    )
    assert "RD840" not in fired(text)


def test_no_override_reach_warning_on_native_windows() -> None:
    text = "### OS\n\nWindows 11\n\n### GPU\n\nAMD Instinct MI210, AMD Radeon RX 6600\n"
    assert "RD840" not in fired(text)


def test_a_single_gpu_that_needs_an_override_keeps_the_plain_advice() -> None:
    ids = fired("### GPU\n\nAMD Radeon RX 6600\n\n### Operating System\n\nUbuntu 24.04\n")
    assert "RD511" in ids and "RD840" not in ids


def test_no_hsa_override_advice_on_native_windows() -> None:
    assert "RD511" not in fired("### OS\n\nWindows 11\n\n### GPU\n\nAMD Radeon RX 6600\n")


ROCMINFO = (
    "```\n$ rocminfo\nROCk module is loaded\n*******\nAgent 2\n*******\n"
    "  Name:                    {gfx}\n  Marketing Name:          {name}\n"
    "  Vendor Name:             AMD\n  Device Type:             GPU\n```\n"
)


def test_rocminfo_showing_a_gpu_under_another_familys_target_shows_an_override_in_effect() -> None:
    assert "RD842" in fired(ROCMINFO.format(gfx="gfx1030", name="AMD Instinct MI210"))


@pytest.mark.parametrize(
    "gfx, name",
    [("gfx1030", "AMD Radeon RX 6600"), ("gfx90a", "AMD Instinct MI210"), ("gfx1100", "AMD Radeon RX 7900 XTX")],
)
def test_rocminfo_agreeing_with_the_gpu_or_its_own_family_shows_no_stray_override(gfx: str, name: str) -> None:
    assert "RD842" not in fired(ROCMINFO.format(gfx=gfx, name=name))


CLINFO = (
    "```\n$ /usr/bin/rocm-clinfo | grep -P 'Board|gfx'\n"
    "  Board name:\t\t\t\t\t AMD Radeon AI PRO R9700\n  Name:\t\t\t\t\t\t gfx1201\n"
    "  Board name:\t\t\t\t\t Radeon 8060S Graphics\n  Name:\t\t\t\t\t\t {gfx}\n```\n"
)


def test_clinfo_pairs_each_board_name_with_the_gfx_device_name_after_it() -> None:
    agents = ingest(CLINFO.format(gfx="gfx1151")).facts.gpus.agents
    assert [(a.name.value, a.gfx.value) for a in agents] == [("AMD Radeon AI PRO R9700", "gfx1201"), ("Radeon 8060S Graphics", "gfx1151")]


def test_a_gpu_listed_under_an_overridden_target_is_still_integrated_when_its_model_is() -> None:
    agents = ingest(CLINFO.format(gfx="gfx1201")).facts.gpus.agents
    assert [a.integrated.value for a in agents] == [False, True]


def test_clinfo_showing_an_igpu_under_the_dgpus_target_shows_an_override_in_effect() -> None:
    assert "RD842" in fired(CLINFO.format(gfx="gfx1201"))
    assert "RD842" not in fired(CLINFO.format(gfx="gfx1151"))


def test_clinfo_gfx_names_are_not_read_as_rocminfo_agents_when_both_share_a_block() -> None:
    text = "$ rocminfo\nROCk module is loaded\n[... cut ...]\n\n" + CLINFO.format(gfx="gfx1201").replace("```\n", "")
    agents = ingest(text).facts.gpus.agents
    assert [a.name.value for a in agents] == ["AMD Radeon AI PRO R9700", "Radeon 8060S Graphics"]


# ----------------------------------------------------------------- launchers that manage visibility


def test_rays_refusal_of_the_visibility_variables_is_an_env_error() -> None:
    text = "```\n>>> import ray\nRuntimeError: Please use HIP_VISIBLE_DEVICES instead of ROCR_VISIBLE_DEVICES\n```\n"
    assert "RD843" in fired(text)
    assertion = "AssertionError: Inconsistant values found. Please use either HIP_VISIBLE_DEVICES or CUDA_VISIBLE_DEVICES.\n"
    assert "RD843" in fired(assertion)


def test_rocr_visible_devices_where_ray_runs_is_a_warning_unless_ray_is_older() -> None:
    text = "```\n$ export ROCR_VISIBLE_DEVICES=0\n$ python\n>>> import ray\n```\n"
    assert "RD844" in fired(text)
    assert "RD844" not in fired("```\n$ export HIP_VISIBLE_DEVICES=0\n$ python\n>>> import ray\n```\n")
    assert "RD844" not in fired("```\n$ export ROCR_VISIBLE_DEVICES=0\n$ python train.py\n```\n")


def test_a_python_traceback_header_is_read_as_a_failure_shown() -> None:
    from ingest_helpers import signature_contexts

    assert "python_traceback_shown" in signature_contexts("Traceback (most recent call last):\n  File \"<stdin>\", line 1\n")
    assert "python_traceback_shown" not in signature_contexts("I saw a traceback earlier today.\n")


def test_ray_beside_both_visible_devices_variables_speaks_only_when_ray_fails() -> None:
    # ray#53757 accepts ROCR_VISIBLE_DEVICES beside HIP_VISIBLE_DEVICES; ray#53737 (before it) failed at import
    from ingest_helpers import problems_shown

    env = "```\n$ export ROCR_VISIBLE_DEVICES=0,1\n$ export HIP_VISIBLE_DEVICES=0,1\n"
    works = env + ">>> import ray\n>>> ray.init()\n```\nWorks fine, just asking about performance.\n"
    fails = env + ">>> import ray\nTraceback (most recent call last):\n  File \"<stdin>\", line 1, in <module>\n```\n"
    assert "RD844" not in problems_shown(works)
    assert "RD844" in problems_shown(fails)


@pytest.mark.parametrize(
    "sentence, failed",
    [
        ("I no longer get the same error with `export HSA_OVERRIDE_GFX_VERSION=10.3.0` set.\n", False),
        ("It works even with `export HSA_OVERRIDE_GFX_VERSION=10.3.0` in my bashrc.\n", False),
        ("Still the same error with `export HSA_OVERRIDE_GFX_VERSION=10.3.0`.\n", True),
        ("export HSA_OVERRIDE_GFX_VERSION=10.3.0 doesn't help\n", True),
    ],
)
def test_a_sentence_whose_failure_words_say_the_failure_went_does_not_put_the_setting_in_force(sentence: str, failed: bool) -> None:
    # The second reader: "I no longer get the same error with ..." matched "same error" and read as a failure with it.
    block = split_blocks(sentence)[0]
    found = [s.failed_with for piece in env_settings.parse(block) for s in (piece.settings or []) if s.name == "HSA_OVERRIDE_GFX_VERSION"]
    assert found == [failed]


# ----------------------------------------------------------------- Makefiles and justfiles (access48)


@pytest.mark.parametrize(
    "line, value",
    [
        ("export HSA_OVERRIDE_GFX_VERSION := 10.3.0", "10.3.0"),
        ("export HSA_OVERRIDE_GFX_VERSION ?= 11.0.0", "11.0.0"),
        ("HSA_OVERRIDE_GFX_VERSION := 9.0.0", "9.0.0"),
        ('export HSA_OVERRIDE_GFX_VERSION := "11.0.0"', "11.0.0"),
        ("override HIP_VISIBLE_DEVICES ::= 0", "0"),
    ],
)
def test_a_makefile_or_justfile_assignment_of_a_stack_variable_is_a_setting(line: str, value: str) -> None:
    settings = ingest(f"Makefile:\n```\n{line}\n```\n").facts.env.settings.value
    assert [(s.name.startswith(("HSA_", "HIP_")), s.value) for s in settings] == [(True, value)]


def test_a_makefile_assignment_of_another_programs_variable_or_an_append_is_not_read() -> None:
    facts = ingest("```\nCFLAGS := -O2\nPATH ?= /usr/bin\nHSA_OVERRIDE_GFX_VERSION += 10.3.0\n```\n").facts
    assert not facts.env.settings.is_known or not facts.env.settings.value


def test_a_shell_export_is_still_an_export() -> None:
    settings = ingest("```\nexport HSA_OVERRIDE_GFX_VERSION=10.3.0\n```\n").facts.env.settings.value
    assert [(s.value, s.origin) for s in settings] == [("10.3.0", "export")]


def test_a_makefile_assignment_inside_a_conditional_is_not_a_setting() -> None:
    # rev48f: the value holds only where the condition does, which the paste does not show
    text = "Makefile:\n```\nifeq ($(GPU),rdna2)\nexport HSA_OVERRIDE_GFX_VERSION := 10.3.0\nelse\nexport HSA_OVERRIDE_GFX_VERSION := 11.0.0\nendif\nexport HIP_VISIBLE_DEVICES ?= 0\n```\n"
    settings = ingest(text).facts.env.settings.value or []
    assert [(s.name, s.value) for s in settings] == [("HIP_VISIBLE_DEVICES", "0")]


def test_a_commented_out_makefile_assignment_is_not_a_setting() -> None:
    # rev48f: "# export NAME := value" reads like a root prompt, but no shell runs "export NAME := ..."
    text = "Makefile:\n```\n# export HSA_OVERRIDE_GFX_VERSION := 10.3.0\nexport HIP_VISIBLE_DEVICES := 0\n```\n"
    settings = ingest(text).facts.env.settings.value or []
    assert [(s.name, s.value) for s in settings] == [("HIP_VISIBLE_DEVICES", "0")]
