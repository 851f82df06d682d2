"""A setting the reporter says they stopped using, removed or ran without is no setting in force (prec57): the env
reader (ingest/formats/env_settings.py ``_TAKEN_AWAY``) does not read it as set, and the resolution reader reads
"stopped setting X / not setting X ... now it works" as the variable taken away (``variable_removed``, env), not as
the override set (gfx-override). Real wordings: "stopped forcing HSA_OVERRIDE_GFX_VERSION=11.0.0"
(Crosstalk-Solutions/project-nomad#1134), "Removes `HSA_OVERRIDE_GFX_VERSION=9.0.0` from ..." (hyprstream/hyprstream#263),
"Without `HSA_OVERRIDE_GFX_VERSION=11.5.1`, ..." (PrismML-Eng/Bonsai-demo#90), "by not using HIP_VISIBLE_DEVICES=0"
(ggml-org/llama.cpp#8618). Assertions are aggregate over many phrasings."""

from __future__ import annotations

from functools import lru_cache
from typing import Dict, List

from ingest_helpers import ingest

from rocm_doctor.judge.loader import load_rules
from rocm_doctor.pipeline import evaluate

GPU = " My GPU is an RX 7900 XTX (gfx1100), ROCm 6.2."


@lru_cache(maxsize=None)
def _rules() -> tuple:
    return tuple(load_rules([], use_env=False))


def env_vars(text: str) -> Dict[str, str]:
    found = ingest(text).facts.env.vars
    return dict(found.value or {}) if found.is_known else {}


def resolution_rows(text: str) -> List[str]:
    said = ingest(text).facts.symptoms.resolutions
    return [str(v).split(": ", 1)[0] for v in said.value or []] if said.is_known else []


def errors(text: str) -> List[str]:
    return [f.id for f in evaluate(list(_rules()), ingest(text).facts).findings if f.severity == "error"]


TAKEN_AWAY = [
    "I stopped setting HSA_OVERRIDE_GFX_VERSION=10.3.0 and now it works.",
    "I stopped exporting HSA_OVERRIDE_GFX_VERSION=10.3.0, now ollama uses the GPU.",
    "Not setting HSA_OVERRIDE_GFX_VERSION=10.3.0 made it work.",
    "Running without setting HSA_OVERRIDE_GFX_VERSION=10.3.0 works fine.",
    "Without `HSA_OVERRIDE_GFX_VERSION=10.3.0`, the runtime picks the right target.",
    "It only works w/o HSA_OVERRIDE_GFX_VERSION=10.3.0.",
    "After removing HSA_OVERRIDE_GFX_VERSION=10.3.0 from my .bashrc, ollama uses the GPU.",
    "I removed `export HSA_OVERRIDE_GFX_VERSION=10.3.0` from my .bashrc and now ollama works.",
    "After deleting HSA_OVERRIDE_GFX_VERSION=10.3.0 from the service file ollama runs on the GPU.",
    "I commented out HSA_OVERRIDE_GFX_VERSION=10.3.0 in my .bashrc and now it works.",
    "I got rid of HSA_OVERRIDE_GFX_VERSION=10.3.0 and now it works.",
    "Dropped the variable HSA_OVERRIDE_GFX_VERSION=10.3.0 from the compose file, all good now.",
    "Removes `HSA_OVERRIDE_GFX_VERSION=10.3.0` from `start.sh`.",
    "The launcher stopped forcing HSA_OVERRIDE_GFX_VERSION=10.3.0 on this card.",
]


def test_a_setting_said_to_be_taken_away_is_not_read_as_set() -> None:
    read = [text for text in TAKEN_AWAY if "HSA_OVERRIDE_GFX_VERSION" in env_vars(text + GPU)]
    assert read == []


def test_a_setting_taken_away_gives_no_error_about_its_value() -> None:
    # 10.3.0 on a gfx1100 card would be RD214's wrong-family error if it were read as set
    assert [text for text in TAKEN_AWAY if errors(text + GPU)] == []


STILL_SET = [
    "I set HSA_OVERRIDE_GFX_VERSION=10.3.0 and torch still segfaults.",
    "I have HSA_OVERRIDE_GFX_VERSION=10.3.0 in my .bashrc.",
    "export HSA_OVERRIDE_GFX_VERSION=10.3.0 doesn't help.",
    "I didn't remove HSA_OVERRIDE_GFX_VERSION=10.3.0, it is still there.",
    "I forgot to remove HSA_OVERRIDE_GFX_VERSION=10.3.0 from my .bashrc.",
    "I removed ROCm 5.7 and set HSA_OVERRIDE_GFX_VERSION=10.3.0.",
    "With HSA_OVERRIDE_GFX_VERSION=10.3.0 it crashes.",
    "I tried HSA_OVERRIDE_GFX_VERSION=10.3.0 without success.",
    "Running with HSA_OVERRIDE_GFX_VERSION=10.3.0 and without any other variable, it segfaults.",
    "Even after I set HSA_OVERRIDE_GFX_VERSION=10.3.0 it crashes.",
    # rev57i: tried both ways, or used beside other words of absence: the setting is the reporter's
    "Without HSA_OVERRIDE_GFX_VERSION=10.3.0 it crashes with invalid device function, with it it works.",
    "Without HSA_OVERRIDE_GFX_VERSION=10.3.0 it works; with it I get a segfault.",
    "It segfaults without HSA_OVERRIDE_GFX_VERSION=10.3.0, so I set it, and now I get a different error.",
    "I tried without HSA_OVERRIDE_GFX_VERSION=10.3.0 and with it. Both crash.",
    "Without HSA_OVERRIDE_GFX_VERSION=10.3.0 it does not work, with HSA_OVERRIDE_GFX_VERSION=10.3.0 it works.",
    "Can't run without HSA_OVERRIDE_GFX_VERSION=10.3.0, with it torch works.",
    "Without setting HSA_OVERRIDE_GFX_VERSION=10.3.0 it segfaults, so I set it and now it works.",
    "It segfaults w/o HSA_OVERRIDE_GFX_VERSION=10.3.0 and works with it.",
    "I run it without sudo but with HSA_OVERRIDE_GFX_VERSION=10.3.0 and it crashes.",
    "I removed ROCm and reinstalled, HSA_OVERRIDE_GFX_VERSION=10.3.0 is set.",
    "I started the container without --privileged, with -e HSA_OVERRIDE_GFX_VERSION=10.3.0.",
    "docker run without --privileged -e HSA_OVERRIDE_GFX_VERSION=10.3.0 rocm/pytorch crashes.",
    "I removed HSA_OVERRIDE_GFX_VERSION=10.3.0 from .bashrc but it is still set via /etc/environment: HSA_OVERRIDE_GFX_VERSION=10.3.0",
]


def test_a_setting_made_is_still_read_beside_removal_words() -> None:
    missed = [text for text in STILL_SET if env_vars(text + GPU).get("HSA_OVERRIDE_GFX_VERSION") != "10.3.0"]
    assert missed == []


STOPPED_AND_WORKS = [
    "I stopped setting HSA_OVERRIDE_GFX_VERSION and now it works.",
    "I stopped exporting HSA_OVERRIDE_GFX_VERSION=10.3.0 and it works now.",
    "Not setting HSA_OVERRIDE_GFX_VERSION made it work.",
    "Not setting HSA_OVERRIDE_GFX_VERSION fixed it.",
    "Stopping using HIP_VISIBLE_DEVICES=1 did the trick.",
    "I removed `export HSA_OVERRIDE_GFX_VERSION=10.3.0` from my .bashrc and now it works.",
    "After removing HSA_OVERRIDE_GFX_VERSION from my .bashrc, it works now.",
]


def test_stopping_a_setting_that_made_it_work_reads_as_the_variable_taken_away() -> None:
    read = [resolution_rows(text) for text in STOPPED_AND_WORKS]
    assert [rows for rows in read if rows != ["variable_removed"]] == []


NOT_A_REMOVAL_FIX = [
    "Now it works, even without HSA_OVERRIDE_GFX_VERSION.",
    "I am not setting HSA_OVERRIDE_GFX_VERSION, and it still crashes.",
    "It does not work without HSA_OVERRIDE_GFX_VERSION=10.3.0.",
    "Should I stop setting HSA_OVERRIDE_GFX_VERSION?",
    # rev57i: the variable needed, or merely not needed after another change
    "Without HSA_OVERRIDE_GFX_VERSION=10.3.0 nothing works, after setting it everything works.",
    "Without setting HSA_OVERRIDE_GFX_VERSION=10.3.0 it segfaults, so I set it and now it works.",
    "Without `export HSA_OVERRIDE_GFX_VERSION=10.3.0` in my .bashrc it fails, with it it works now.",
    "Update: after upgrading torch to 2.5 it works now without HSA_OVERRIDE_GFX_VERSION.",
    "I was not setting HIP_VISIBLE_DEVICES and the iGPU was picked; setting HIP_VISIBLE_DEVICES=0 fixed it.",
]


def test_a_variable_not_set_is_no_removal_fix_without_a_success_of_the_reporters() -> None:
    assert [text for text in NOT_A_REMOVAL_FIX if "variable_removed" in resolution_rows(text)] == []
