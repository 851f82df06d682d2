"""What the reporter says fixed the problem (rules/data/resolution_statements.yaml, ingest/formats/resolutions.py,
derived.resolution_category, RD557). Assertions are about rows, categories and rule ids, never about wording;
the sentences are written in the forms the real reports cited in the table use ("EDIT: solved it", "fixed by",
"the culprit was", "turned out", "did the trick", "I had to") and, for scope, in the forms that are no
resolution (negation, failure, question, advice, condition, another person or machine, a template's example).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import List, Optional, Tuple

import pytest
from ingest_helpers import ingest

from rocm_doctor.errors import InputError
from rocm_doctor.facts.model import Facts
from rocm_doctor.judge.cases import load_baseline, overlay
from rocm_doctor.ingest.formats import resolutions
from rocm_doctor.judge.derived import Tables
from rocm_doctor.judge.derived_facts.resolutions import resolution_category
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.model.rules import Rule
from rocm_doctor.pipeline import evaluate


def rows(text: str) -> List[str]:
    said = ingest(text).facts.symptoms.resolutions
    return [str(v).split(": ", 1)[0] for v in said.value or []] if said.is_known else []


def serious(text: str) -> List[Tuple[str, str]]:
    findings = evaluate(load_rules([], use_env=False), ingest(text).facts).findings
    return [(f.id, f.category) for f in findings if f.severity in ("error", "warning")]


def stated_category(text: str) -> Optional[str]:
    return next((category for rule, category in serious(text) if rule == "RD557"), None)


# --- each phrasing order ---------------------------------------------------------------------

@pytest.mark.parametrize(
    "text",
    [
        "EDIT: solved it, setting HSA_OVERRIDE_GFX_VERSION=10.3.0 before launching fixed it.",  # change, then "fixed it"
        "Fixed it by setting HSA_OVERRIDE_GFX_VERSION=10.3.0 in the launcher.",  # "fixed by", then the change
        "export HSA_OVERRIDE_GFX_VERSION=10.3.0 did the trick, thanks!",
        "Update: export HSA_OVERRIDE_GFX_VERSION=10.3.0 made it work on my 6600 XT.",
        "HSA_OVERRIDE_GFX_VERSION=10.3.0 got it working.",
        "Works now: I had to set HSA_OVERRIDE_GFX_VERSION=10.3.0 for the RX 6700 XT.",
        "The fix was HSA_OVERRIDE_GFX_VERSION=10.3.0 for the RX 6700 XT.",
        "Everything works fine after I exported HSA_OVERRIDE_GFX_VERSION=10.3.0.",
        "Problem solved with HSA_OVERRIDE_GFX_VERSION=10.3.0.",
    ],
)
def test_a_resolution_is_read_whichever_order_the_change_and_the_phrase_come_in(text: str) -> None:
    assert rows(text) == ["override_set"]


@pytest.mark.parametrize(
    "text, row",
    [
        ("I have updated to the latest Adrenalin Drivers (26.1.1). AMD Chat is working correctly.", "kernel_or_driver_changed"),
        ("I set HSA_OVERRIDE_GFX_VERSION=10.3.0. Now it works.", "override_set"),
    ],
)
def test_a_success_right_after_the_reporters_own_step_names_that_step(text: str, row: str) -> None:
    assert rows(text) == [row]


@pytest.mark.parametrize(
    "text",
    [
        "I updated my driver from 24.9.1 to 24.10.1 (latest available version), but the issue still persists.",
        "I set HSA_OVERRIDE_GFX_VERSION=10.3.0. Still crashes.",
        "Someone set HSA_OVERRIDE_GFX_VERSION=10.3.0. Now it works.",
    ],
)
def test_a_step_followed_by_a_failure_or_taken_by_someone_else_names_no_fix(text: str) -> None:
    assert rows(text) == []


@pytest.mark.parametrize(
    "text, row",
    [
        ("I did nothing else: setting HSA_OVERRIDE_GFX_VERSION=10.3.0 fixed it.", "override_set"),
        ("Adding my user to the render group fixed it, and I did nothing but reboot.", "render_group"),
    ],
)
def test_did_nothing_else_beside_a_fix_keeps_the_fix(text: str, row: str) -> None:
    assert rows(text) == [row]


def test_a_change_that_worked_on_my_card_is_read() -> None:
    assert rows("export HSA_OVERRIDE_GFX_VERSION=10.3.0 worked on my navi10 card (5700xt)") == ["override_set"]


def test_a_label_alone_on_its_line_makes_the_next_sentence_a_resolution() -> None:
    text = "torch.cuda.is_available() is False on my RX 7900 XTX.\n\n**Solved:**\nmy user was not in the render group.\n"
    assert rows(text) == ["render_group"]


def test_a_label_stands_for_its_own_sentence_only() -> None:
    text = "Solved: I was not in the render group. I also tried HSA_OVERRIDE_GFX_VERSION=11.0.0 on the way.\n"
    assert rows(text) == ["render_group"]


@pytest.mark.parametrize(
    "text",
    [
        "The culprit was HIP_VISIBLE_DEVICES set in my .bashrc to a GPU that does not exist.",
        "Turned out HIP_VISIBLE_DEVICES was exported in my ~/.profile from an old experiment.",
    ],
)
def test_a_cause_statement_is_read_after_the_problem_was_or_turned_out(text: str) -> None:
    assert rows(text) == ["variable_left_in_profile"]


def test_a_row_read_only_after_a_cause_phrase_is_not_read_after_a_fix_phrase() -> None:
    # "adding export HSA_ENABLE_DXG_DETECTION=1 to my .bashrc fixed it": a setting made where it is read, not a leftover one
    assert rows("Adding export HSA_ENABLE_DXG_DETECTION=1 to .bashrc fixed it in WSL.") == ["wsl_runtime"]


def test_a_sentence_wrapped_at_80_columns_is_read_as_one() -> None:
    text = (
        "Suddenly stopped detecting my AMD gpu which has been working fine for the past week,\n"
        "turns out the problem was the automated installer uninstalls the right torch version\n"
        "and puts the CUDA build of torch in its place.\n"
    )
    assert rows(text) == ["non_rocm_torch_replaced"]
    assert rows(text.replace("\n", " ")) == rows(text)


def test_a_line_that_introduces_the_change_on_the_next_line_is_read_with_it() -> None:
    assert rows("So currently, the only workaround I found is setting:\nCUDA_VISIBLE_DEVICES=1\n") == ["igpu_hidden"]


def test_a_negation_in_emphasis_is_still_a_negation() -> None:
    assert rows("FWIW, adding `HSA_OVERRIDE_GFX_VERSION=10.3.0` does *not* fix the issue, it segfaults instead.") == []


# --- each category ---------------------------------------------------------------------------

@pytest.mark.parametrize(
    "text, category",
    [
        ("RX 6700 XT, ComfyUI crashes.\nEDIT: solved it, setting HSA_OVERRIDE_GFX_VERSION=10.3.0 before launching fixed it.", "gfx-override"),
        ("Unsetting HSA_OVERRIDE_GFX_VERSION fixed it on my 7900 XTX.", "env"),
        ("Edit: fixed by adding my user to the render group and rebooting.", "permissions"),
        ("UPDATE: the problem was that pip had installed the CUDA version of torch.", "torch-build"),
        ("Turned out my torch was built for ROCm 5.7 while the system has ROCm 6.1.", "torch-rocm-mismatch"),
        ("Resolved: torchvision was the CUDA build; torch itself was fine.", "packages"),
        ("Update: booting back into the 6.8 kernel fixed it.", "driver"),
        ("Solved by updating the Adrenalin driver to 25.3.1.", "driver"),
        ("Edit: disabling the iGPU in the BIOS solved it.", "device-selection"),
        ("Fixed it by setting HIP_VISIBLE_DEVICES=0 so that only the discrete card is used.", "device-selection"),
        ("Works now: I had to set HSA_ENABLE_DXG_DETECTION=1 in WSL.", "platform"),
        ("TORCH_BLAS_PREFER_HIPBLASLT=0 fixed the crash in the first sampling step.", "blas"),
        ("Solved by rebuilding llama.cpp with AMDGPU_TARGETS=gfx1103.", "gfx-unsupported"),
    ],
)
def test_each_change_gives_its_category_to_the_finding(text: str, category: str) -> None:
    assert stated_category(text) == category


def test_the_reporters_fix_reads_before_a_warning_about_the_symptom() -> None:
    text = "torch.cuda.is_available() is False on my RX 7900 XTX (Ubuntu 24.04).\nEdit: fixed by adding my user to the render group and rebooting.\n"
    assert serious(text)[0] == ("RD557", "permissions")


# --- scope: what is no resolution ------------------------------------------------------------

@pytest.mark.parametrize(
    "text",
    [
        # negation
        "Setting HSA_OVERRIDE_GFX_VERSION=10.3.0 didn't fix it.",
        "HSA_OVERRIDE_GFX_VERSION=10.3.0 did not fix the problem.",
        "The given fix with HSA_OVERRIDE_GFX_VERSION=10.3.0 didnt fixed the problem.",
        "I haven't been able to get it working with HSA_OVERRIDE_GFX_VERSION=10.3.0.",
        # failure
        "I set HSA_OVERRIDE_GFX_VERSION=10.3.0 and it works now for loading, still crashes at sampling.",
        "No luck: HSA_OVERRIDE_GFX_VERSION=10.3.0 fixed nothing.",
        "After adding myself to the render group it works now, but only partially.",
        "Tried HSA_OVERRIDE_GFX_VERSION=10.3.0, same error, it works now only on the CPU.",
        # "did nothing" after a cause phrase (review66b: "It turned out that disabling the iGPU ... did nothing" read as
        # the iGPU's fix)
        "It turned out that disabling the iGPU in the BIOS did nothing.",
        "Turns out adding my user to the render group changed nothing.",
    ],
)
def test_a_negated_or_failed_change_is_no_resolution(text: str) -> None:
    assert rows(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "Does setting HSA_OVERRIDE_GFX_VERSION=10.3.0 fix it?",
        "Would adding my user to the render group fix this?",
        "Anyone got it working with HSA_OVERRIDE_GFX_VERSION=10.3.0?",
    ],
)
def test_a_question_is_no_resolution(text: str) -> None:
    assert rows(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "Try HSA_OVERRIDE_GFX_VERSION=10.3.0, that fixed it for me on another card.",
        "HSA_OVERRIDE_GFX_VERSION=10.3.0 should fix it.",
        "If HSA_OVERRIDE_GFX_VERSION=10.3.0 fixes it, the card is supported through gfx1030.",
        "This can be fixed by adding proper configuration variables such as HSA_OVERRIDE_GFX_VERSION.",
        "You can fix that by setting the environment variable HSA_OVERRIDE_GFX_VERSION=10.3.0.",
        "I think HSA_OVERRIDE_GFX_VERSION=10.3.0 fixed it, not sure yet.",
    ],
)
def test_advice_a_condition_or_a_doubt_is_no_resolution(text: str) -> None:
    assert rows(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "On my other machine HSA_OVERRIDE_GFX_VERSION=10.3.0 fixed it.",
        "My friend's PC works now after he added the user to the render group.",
        "Someone wrote that HSA_OVERRIDE_GFX_VERSION=10.3.0 fixed it for them.",
        "The README says HSA_OVERRIDE_GFX_VERSION=10.3.0 fixes it for RDNA2 cards.",
        "Fixed by PR #16308, which sets HIP_VISIBLE_DEVICES=0 by default.",
        "> setting HSA_OVERRIDE_GFX_VERSION=10.3.0 fixed it\n\nThat did not help here, rocminfo still lists no agent.",
    ],
)
def test_another_persons_or_machines_fix_is_no_resolution(text: str) -> None:
    assert rows(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "Workaround (for example: setting HSA_OVERRIDE_GFX_VERSION=10.3.0 fixed it)",
        "It used to work after HSA_OVERRIDE_GFX_VERSION=10.3.0 fixed it, before the update.",
    ],
)
def test_a_templates_example_or_the_past_is_no_resolution(text: str) -> None:
    assert rows(text) == []


@pytest.mark.parametrize(
    "text, row",
    [
        ("Thanks, now I have it working without disabling the iGPU. I had to use this: $env:HIP_VISIBLE_DEVICES=1", "igpu_hidden"),
        ("It works now with HSA_OVERRIDE_GFX_VERSION=11.0.0 instead of reinstalling torch from the ROCm index.", "override_set"),
    ],
)
def test_a_change_the_sentence_says_was_not_made_is_not_read(text: str, row: str) -> None:
    assert rows(text) == [row]


def test_another_threads_fix_is_no_resolution() -> None:
    text = "I found a similar issue where the issue was solved after disabling the iGPU in the BIOS."
    assert rows(text) == []


def test_a_label_covers_a_numbered_list_on_its_line() -> None:
    text = "Solution: 1. I found my architecture with rocminfo 2. rebuild pytorch with PYTORCH_ROCM_ARCH=gfx1030 and install it"
    assert rows(text) == ["built_for_gfx"]


def test_statements_that_disagree_give_no_category_and_no_finding() -> None:
    text = "Edit: adding my user to the render group fixed it.\nUpdate: HSA_OVERRIDE_GFX_VERSION=10.3.0 also did the trick.\n"
    assert sorted(rows(text)) == ["override_set", "render_group"]
    assert stated_category(text) is None


# --- the derived fact -----------------------------------------------------------------------

def test_the_category_is_known_when_every_statement_agrees_unknown_when_they_disagree() -> None:
    base = load_baseline(Path(__file__).resolve().parent.parent / "rule_cases" / "baseline.json")

    def category(values: List[str]):
        facts = Facts.from_dict(overlay(base, {"symptoms": {"resolutions": {"status": "known", "value": values, "source": "test"}}}))
        return resolution_category(facts, Tables())

    agreed = category(["render_group: Solved: I was not in the render group", "render_group: usermod -aG render $USER fixed it"])
    assert (agreed.status, agreed.value) == ("known", "permissions")
    assert category(["render_group: adding the render group fixed it", "override_set: the override did the trick"]).status == "unknown"
    assert category(["no_such_row: it works now"]).status == "absent"


# --- the table ------------------------------------------------------------------------------

def test_every_change_row_cites_three_reports_and_names_a_known_category() -> None:
    table = resolutions.table()
    assert {row.category for row in table.rows} >= {
        "gfx-override", "env", "permissions", "torch-build", "torch-rocm-mismatch", "packages",
        "driver", "device-selection", "platform", "blas", "gfx-unsupported",
    }


def test_a_row_with_fewer_than_three_sources_is_refused() -> None:
    data = {
        "labels": {"pattern": "^solved:"},
        "phrases": [{"id": "p", "said": "fix", "pattern": "fixed it", "source": ["https://a.example/1", "https://a.example/2", "https://a.example/3"]}],
        "changes": [{"id": "c", "category": "env", "meaning": "m", "pattern": "x", "source": ["https://a.example/1"]}],
    }
    with pytest.raises(InputError):
        resolutions.build(data)


def test_a_row_with_a_category_the_findings_do_not_have_is_refused() -> None:
    three = ["https://a.example/1", "https://a.example/2", "https://a.example/3"]
    data = {
        "labels": {"pattern": "^solved:"},
        "phrases": [{"id": "p", "said": "fix", "pattern": "fixed it", "source": three}],
        "changes": [{"id": "c", "category": "luck", "meaning": "m", "pattern": "x", "source": three}],
    }
    with pytest.raises(InputError):
        resolutions.build(data)


# --- linear in the input --------------------------------------------------------------------

def _cpu_seconds(text: str) -> float:
    started = time.process_time()
    ingest(text)
    return time.process_time() - started


@pytest.mark.parametrize(
    "unit",
    [
        "fixed it by setting HSA_OVERRIDE_GFX_VERSION=10.3.0 and it works now and ",
        "the problem was the culprit was turned out I had to ",
        "Solved:\n",
        "didn't fix it, but did the trick; ",
    ],
)
def test_a_long_hostile_paste_is_read_in_linear_time(unit: str) -> None:
    short, long = unit * 100, unit * 800  # 8 times the length: a quadratic reader takes 64 times as long
    _cpu_seconds(short)  # the tables are loaded once
    t_short = min(_cpu_seconds(short) for _ in range(2))
    t_long = min(_cpu_seconds(long) for _ in range(2))
    assert t_long <= 24 * t_short + 0.05


# --- reading order --------------------------------------------------------------------------

def _order_rule(rule_id: str, severity: str, when: dict, rank: str = "normal") -> "Rule":
    return Rule.model_validate({
        "id": rule_id, "name": f"order-{rule_id.lower()}", "severity": severity, "category": "env", "area": "env",
        "rank": rank, "when": when, "title": rule_id, "message": rule_id, "explanation": "test rule",
        "references": [{"url": "https://example.org/test"}],
    })


def test_the_reporters_statement_of_the_fix_reads_with_the_findings_that_explain_the_error() -> None:
    base = load_baseline(Path(__file__).resolve().parent.parent / "rule_cases" / "baseline.json")
    facts = Facts.from_dict(overlay(base, {"symptoms": {"signatures": {"status": "known", "value": ["segfault"], "source": "test"}}}))
    always = {"fact": "torch.version", "exists": True}
    rules = [
        _order_rule("TST931", "warning", always),  # explains nothing the report shows
        _order_rule("TST932", "warning", always, rank="reported-fix"),
        _order_rule("TST933", "error", {"all": [always, {"fact": "symptoms.signatures", "contains": "segfault"}]}),
    ]
    # the stated fix outranks a warning that explains nothing; severity orders it after an error of its tier
    assert [f.id for f in evaluate(rules, facts).findings] == ["TST933", "TST932", "TST931"]


# --- a fix taken back or only partial (review r35a) -------------------------------------------

@pytest.mark.parametrize(
    "text",
    [
        "EDIT: setting HSA_OVERRIDE_GFX_VERSION=10.3.0 fixed it.\nEDIT 2: nope, it crashes again after a few minutes.\n",
        "Update: adding my user to the render group fixed it. Spoke too soon, the error is back after a reboot.",
        "Setting HSA_OVERRIDE_GFX_VERSION=10.3.0 fixed it at first, but after a reboot the error is back.",
    ],
)
def test_a_fix_taken_back_later_in_the_report_is_no_resolution(text: str) -> None:
    assert rows(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "Setting HSA_OVERRIDE_GFX_VERSION=10.3.0 fixed the crash, now I get a different error.",
        "Setting HSA_OVERRIDE_GFX_VERSION=10.3.0 fixed the first error. Now it segfaults on load.",
        "After updating the kernel it works now, but only on the CPU, the GPU is not used.",
        "I set HIP_VISIBLE_DEVICES=1 and now it runs on the CPU instead of the GPU.",
        "After reinstalling torch it works now, but it uses the CPU.",
        "I removed HSA_OVERRIDE_GFX_VERSION and now it works, it just falls back to CPU.",
    ],
)
def test_a_fix_of_one_error_among_several_is_no_resolution(text: str) -> None:
    assert rows(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "I set HSA_OVERRIDE_GFX_VERSION=10.3.0 and now it works on the GPU instead of using the CPU.",
        "After adding my user to the render group it works now and no longer runs on the CPU.",
        # rev51f: the past of the run on the CPU, told with a fix that worked
        "Setting HSA_OVERRIDE_GFX_VERSION=10.3.0 fixed it; it used to run on the CPU.",
        "Setting HSA_OVERRIDE_GFX_VERSION=10.3.0 fixed it, it stopped using the CPU.",
        "Setting HSA_OVERRIDE_GFX_VERSION=10.3.0 fixed it, it never uses the CPU now.",
    ],
)
def test_a_fix_that_moved_the_run_off_the_cpu_is_a_resolution(text: str) -> None:
    assert rows(text) != []


def test_a_failure_told_before_the_fix_does_not_take_it_back() -> None:
    text = "It crashed again and again with hipErrorNoBinaryForGpu.\nEDIT: setting HSA_OVERRIDE_GFX_VERSION=10.3.0 fixed it.\n"
    assert rows(text) == ["override_set"]


@pytest.mark.parametrize(
    "text",
    [
        "A user on reddit said that adding the user to the render group fixed it.",
        "The maintainer replied that HSA_OVERRIDE_GFX_VERSION=10.3.0 fixed it on his 6700 XT.",
        "One of the devs over on discord mentioned HSA_OVERRIDE_GFX_VERSION=10.3.0 did the trick.",
    ],
)
def test_a_fix_another_person_told_of_is_no_resolution(text: str) -> None:
    assert rows(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "This got fixed upstream in ROCm 6.3, so after the update the kernel module loads and it works now.",
        "The bug was in PyTorch and is fixed in 2.5; I also updated the kernel, it works now.",
        "Closing: the fix landed in ollama v0.5.8, I updated the driver too and it works now.",
        "Update: the problem is fixed in llama.cpp b4500, I updated the kernel anyway.",
    ],
)
def test_a_fix_made_upstream_names_no_change_of_the_reporters_as_the_cause(text: str) -> None:
    assert rows(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "I did a clean reinstall of Ubuntu, updated the kernel, and now it works.",
        "After reinstalling the whole OS and updating the AMD drivers it works now.",
    ],
)
def test_a_fix_that_redid_everything_names_no_one_change(text: str) -> None:
    assert rows(text) == []


def test_the_reported_fix_finding_gives_the_fix_as_the_reporters_account_not_a_checked_cause() -> None:
    text = "EDIT: solved it, setting HSA_OVERRIDE_GFX_VERSION=10.3.0 before launching fixed it."
    findings = evaluate(load_rules([], use_env=False), ingest(text).facts).findings
    stated = next(f for f in findings if f.id == "RD557")
    assert "HSA_OVERRIDE_GFX_VERSION=10.3.0" in stated.message
    assert "not checked" in stated.message and "the cause is" not in stated.message


@pytest.mark.parametrize(
    "text",
    [
        "Works now with HSA_OVERRIDE_GFX_VERSION=10.3.0 in the docker compose file instead of my shell.",
        "Turns out I needed to add the variable to the ollama systemd service, not my shell: Environment=\"HSA_OVERRIDE_GFX_VERSION=10.3.0\".",
        "Putting HSA_OVERRIDE_GFX_VERSION=10.3.0 in the systemd unit instead of my .bashrc fixed it.",
    ],
)
def test_the_override_moved_from_the_shell_into_the_service_is_an_env_fix(text: str) -> None:
    # ollama/ollama#6152, #8679: the override was in the user's shell; the service never read it (env_var_misuse)
    assert rows(text) == ["variable_in_service"]
    assert stated_category(text) == "env"


@pytest.mark.parametrize(
    "text",
    [
        "I added Environment=\"HSA_OVERRIDE_GFX_VERSION=10.3.0\" to the ollama service file and now it works.",
        "The fix was HSA_OVERRIDE_GFX_VERSION=10.3.0 in the service file.",
    ],
)
def test_the_override_set_in_a_service_file_without_saying_it_moved_leaves_the_category_open(text: str) -> None:
    # the override needed (gfx-override) or the override not reaching the service (env): the sentence does not say
    assert stated_category(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "Switching the Jupyter kernel to my rocm venv fixed it.",
        "Update: I changed the notebook kernel to the conda env with the ROCm torch and now it works.",
    ],
)
def test_a_notebooks_kernel_is_not_the_os_kernel(text: str) -> None:
    assert "kernel_or_driver_changed" not in rows(text)


def test_the_os_kernel_changed_is_still_a_driver_fix() -> None:
    assert rows("Updating the kernel to 6.8 fixed it.") == ["kernel_or_driver_changed"]


def test_a_label_that_notes_an_edit_of_the_post_is_no_resolution() -> None:
    assert rows("Fixed: typo in my previous comment, I meant HSA_OVERRIDE_GFX_VERSION=10.3.0.") == []


def test_a_resolution_after_an_edit_note_is_still_read() -> None:
    assert rows("Fixed: typo above. Adding my user to the render group fixed it.") == ["render_group"]


def test_a_first_state_told_before_the_fix_does_not_make_it_partial() -> None:
    assert rows("Initially rocminfo showed no GPU, but adding my user to the render group fixed it.") == ["render_group"]


def test_a_reinstall_from_a_rocm_index_alone_names_no_category() -> None:
    # the index ends a CUDA or CPU build, an older ROCm build without the GPU's targets, or a broken install alike
    for text in (
        "Fixed: I reinstalled torch with --index-url https://download.pytorch.org/whl/rocm6.2 and now the GPU is found.",
        "Reinstalling pytorch from the ROCm index fixed it.",
    ):
        assert rows(text) == []
    # said with the build it replaced, it is the torch build
    assert rows("The problem was that pip had installed the CUDA build of torch; reinstalling from the ROCm index fixed it.") == [
        "non_rocm_torch_replaced"
    ]


# --- wordings added in res37, each with an out-of-scope twin --------------------------------------
# Phrases: "managed to / was able to get it working" (dream-factory#14, InvokeAI#2339, obs-backgroundremoval#440),
# "works as expected / flawlessly" with any subject (legacy-rocm-build#3701, arch4edu#121, amdgpu#66).
# Changes: the override removed (voicebox#469, 1bit-MONSTER#251, sdnext#1805), docker's --group-add
# (ROCm-docker#93, #39, #116), a CUDA or CPU torch named so (tail-tagger#17, easydiffusion#115, legacy-rocm-build#2354),
# the latest or recommended driver (legacy-rocm-build#5829, Waifu2x-Extension-GUI#394, jan#6532), the IGP
# turned off (legacy-rocm-build#5448, #675, rocm_smi_lib#207).

@pytest.mark.parametrize(
    "text, row",
    [
        ("I finally managed to get it working by adding my user to the render group.", "render_group"),
        ("I was able to get ollama running after exporting HSA_OVERRIDE_GFX_VERSION=10.3.0.", "override_set"),
        ("After I disabled the integrated graphics in the BIOS the discrete GPU works flawlessly.", "igpu_hidden"),
        ("Everything works as expected since I installed the latest Adrenalin drivers.", "kernel_or_driver_changed"),
        ("Removing the HSA override fixed it, the 7900 XTX is supported natively.", "variable_removed"),
        ("Dropping the automatic override did the trick.", "variable_removed"),
        ("Running the container with --group-add render fixed it.", "render_group"),
        ("Turns out pip had installed torch 2.3.0+cu121 in the venv.", "non_rocm_torch_replaced"),
        ("Turns out I had the CPU torch installed from PyPI.", "non_rocm_torch_replaced"),
        ("A driver update fixed it.", "kernel_or_driver_changed"),
        ("Going back to the previous driver solved it.", "kernel_or_driver_changed"),
        ("Turning off the iGPU in BIOS fixed it.", "igpu_hidden"),
        ("Disabling the IGP in the BIOS solved it.", "igpu_hidden"),
    ],
)
def test_the_wordings_many_reports_use_for_a_fix_are_read(text: str, row: str) -> None:
    assert rows(text) == [row]


@pytest.mark.parametrize(
    "text",
    [
        "I was not able to get it working even with HSA_OVERRIDE_GFX_VERSION=10.3.0.",  # negation
        "I was unable to get it working even with HSA_OVERRIDE_GFX_VERSION=10.3.0.",  # negation
        "If you manage to get it working with HSA_OVERRIDE_GFX_VERSION=10.3.0, let me know.",  # condition
        "Does the GPU work as expected after disabling the iGPU?",  # question
        "Someone said that disabling the iGPU in BIOS made it work flawlessly for them.",  # another person's
        "Before the update it worked as expected with the latest drivers.",  # the past
        "> Removing the HSA override fixed it for me.\n\nThat did not help here.",  # a quoted reply
        "Try removing the HSA override, that should fix it.",  # advice
        "I already run the container with --group-add video and it still fails.",  # failure
        "I installed the latest drivers, but it still crashes.",  # failure
        "You should disable your IGP in the BIOS.",  # advice
        "Maybe a driver update fixed it for him.",  # doubt, another person's
    ],
)
def test_the_same_wordings_out_of_scope_are_no_resolution(text: str) -> None:
    assert rows(text) == []


def test_removing_the_override_is_an_env_fix_and_setting_it_a_gfx_override_fix() -> None:
    assert stated_category("Removing the HSA override fixed it on my RX 7900 XTX.") == "env"
    assert stated_category("Setting the HSA override to 10.3.0 fixed it on my RX 6700 XT.") == "gfx-override"


@pytest.mark.parametrize(
    "text",
    [
        "I'm hoping to be able to get it working with HSA_OVERRIDE_GFX_VERSION=10.3.0.",  # a hope: "be able to"
        "Nobody was able to get it working with HSA_OVERRIDE_GFX_VERSION=10.3.0 so far.",  # negation by the subject
        "rocminfo works as expected with the latest drivers, but torch.cuda.is_available() returns False.",  # another program
        "The GPU runs flawlessly in games with the latest Adrenalin drivers.",  # another program
        "HSA_OVERRIDE_GFX_VERSION=10.3.0 worked flawlessly with ROCm 5.7.",  # another release's state, no fix
        "It works fine with the CPU torch, but with the ROCm torch it segfaults.",  # the CPU torch in use, not replaced
        "Turns out CPU torch works fine and ROCm torch segfaults.",  # the CPU torch working, not replaced
        "I'm on the latest drivers and everything works as expected in Windows.",  # a state, not a change
        "It ran flawlessly until the driver update.",  # it stopped then
        "Disabling your iGPU in the BIOS fixes it.",  # advice to others
    ],
)
def test_a_success_of_another_program_state_or_person_is_no_resolution(text: str) -> None:
    assert rows(text) == []


# --- a run whose output is broken is no fix (Comfy-Org/ComfyUI#6444, ROCm/TheRock#5579, oobabooga/textgen#2840) ---

@pytest.mark.parametrize(
    "text",
    [
        "I got it to run with HSA_OVERRIDE_GFX_VERSION=10.3.0 but the output is garbage.",
        "Adding myself to the render group fixed it, however all my outputs are black images.",
        "Setting HSA_OVERRIDE_GFX_VERSION=10.3.0 made it work, but the model outputs completely corrupted tokens.",
        "Setting HSA_OVERRIDE_GFX_VERSION=10.3.0 got it working, but I only get gibberish as output.",
    ],
)
def test_a_fix_whose_output_is_then_said_broken_is_no_resolution(text: str) -> None:
    assert rows(text) == []


def test_a_fix_with_a_but_about_something_other_than_broken_output_stays_a_resolution() -> None:
    assert rows("Setting HSA_OVERRIDE_GFX_VERSION=10.3.0 fixed it, but the first run is slow.") == ["override_set"]


def test_a_fix_made_in_another_container_is_no_resolution_here() -> None:
    assert rows("Adding myself to the render group fixed it in the other container.") == []
    assert rows("Adding myself to the render group fixed it in the container.") == ["render_group"]


# --- prec53a: a release it works on, told in a report that names no failure, is the machine's state, not a fix ---
# RD566 reads "works on kernel X" only beside a failure on another release (signature kernel_release_ab_told: ROCm/
# legacy-rocm-build#1007, ROCm/amdgpu#53, likelovewant/ollama-for-amd#78); the same guard here: a present "works" with
# no word of a change names what the machine runs, and is a resolution only where its block names a failure.

@pytest.mark.parametrize(
    "text",
    [
        "Running ROCm 6.2 on Ubuntu 24.04 with an RX 7900 XTX.\nIt works fine on kernel 6.11.\n",
        "RX 6800 XT, Fedora 40. Everything works perfectly on the 6.10 kernel.\n",
        "Sharing my setup: RX 7600, ROCm 6.1.3. It runs fine with kernel 6.8.0-45-generic.\n",
        "ROCm 6.2 on Arch with an RX 6700 XT.\nIt works great with Adrenalin 24.3.1 on the Windows side too.\n",
    ],
)
def test_a_release_it_works_on_in_a_report_naming_no_failure_is_no_resolution(text: str) -> None:
    assert rows(text) == []
    assert stated_category(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "rocminfo hangs on kernel 6.12 with my RX 7900 XTX.\nIt works fine on kernel 6.11.\n",
        "ollama crashes with a segfault on 6.13.\nIt works fine on kernel 6.8.\n",
        "torch fails with HSA_STATUS_ERROR on kernel 6.12. It runs fine with kernel 6.8.0-45-generic.\n",
    ],
)
def test_a_release_it_works_on_beside_a_failure_is_still_a_resolution(text: str) -> None:
    assert rows(text) == ["kernel_or_driver_changed"]


def test_a_change_to_the_release_it_works_on_is_a_resolution_without_a_failure_named() -> None:
    # the change itself is told ("switched", "now"): the guard is for a bare state only
    assert rows("I switched to kernel 6.11 and it works fine now.") == ["kernel_or_driver_changed"]
    assert rows("Kernel 6.17.8 fixes this issue.") == ["kernel_or_driver_changed"]


# --- learn56g: AMD's DKMS module removed or left out, and a failure said to have stopped ---------------

@pytest.mark.parametrize(
    "text",
    [
        "Ubuntu crashes after installing ROCm.\nRemoving `amdgpu-dkms` version `6.4.2.1` stopped the OS from crashing.",
        "Ubuntu crashes after installing ROCm.\nLooks like removing amdgpu-dkms was sufficient to prevent the crashes.",
        "TL;DR\n  this breaks: \"amdgpu-install -y\"\n  this works: \"amdgpu-install -y --usecase=rocm --no-dkms\"",
        "The DKMS build fails on this kernel.\r\nThe setup works with the `--no-dkms` option.",
        "> The desktop froze with the DKMS driver.\n> I reinstalled ROCm without DKMS, and my computer hasn't crashed yet.",
    ],
)
def test_the_dkms_module_left_out_is_read_as_a_driver_resolution(text: str) -> None:
    assert rows(text) == ["dkms_driver_left_out"]
    assert stated_category(text) == "driver"


@pytest.mark.parametrize(
    "text",
    [
        "The desktop froze. Try removing amdgpu-dkms, it should stop the crashes.",  # advice
        "The desktop froze. Would removing amdgpu-dkms stop the crashes?",  # a question
        "amdgpu-install -y --usecase=wsl,rocm --no-dkms worked, but torch finds no GPU.",  # WSL's install line
        "Removing amdgpu-dkms did not stop the crashes.",  # a negation
        "For him, removing amdgpu-dkms stopped the crashes; mine still freezes.",  # another person
    ],
)
def test_the_dkms_module_left_out_is_not_read_outside_the_reporters_own_fix(text: str) -> None:
    assert "dkms_driver_left_out" not in rows(text)


# --- rev56g: --no-dkms inside a container or WSL is the way there, no change of driver; "without dkms errors" ------

@pytest.mark.parametrize(
    "text",
    [
        "In the Dockerfile we run amdgpu-install -y --usecase=rocm --no-dkms (containers use the host driver), and that "
        "works. The problem is hipErrorNoBinaryForGpu in PyTorch.",
        "Installed in WSL2 with amdgpu-install -y --usecase=rocm --no-dkms and that works, but torch sees no GPU.",
        "It crashed before. It works without dkms errors now after I upgraded the kernel to 6.11.",
    ],
)
def test_no_dkms_in_a_container_or_wsl_or_no_dkms_errors_is_not_the_driver_left_out(text: str) -> None:
    assert "dkms_driver_left_out" not in rows(text)


def test_a_change_row_with_a_bad_unless_clause_is_refused() -> None:
    data = {
        "labels": {"pattern": "solved"},
        "phrases": [{"id": "p", "said": "fix", "pattern": r"\bfixed\b", "source": ["https://a/1", "https://b/2", "https://c/3"]}],
        "changes": [
            {"id": "c", "category": "driver", "meaning": "m", "pattern": r"\bx\b", "unless_clause": "(",
             "source": ["https://a/1", "https://b/2", "https://c/3"]},
        ],
    }
    with pytest.raises(InputError, match="unless_clause"):
        resolutions.build(data)


# --- mend57: a release note's or changelog's lines are no fix the reporter made ---------------------------

_ROCM_630 = "https://github.com/ROCm/ROCm/blob/0d3eb1d7746ae5dbb61104341b6fb6934ed5cf1e/RELEASE.md"  # tag rocm-6.3.0
_ROCM_600 = "https://github.com/ROCm/ROCm/blob/182827150587dccbe3fe242b378aa14ad0370449/CHANGELOG.md"  # tag rocm-6.0.0
_FAILING = "rocminfo fails with HSA_STATUS_ERROR_OUT_OF_RESOURCES on my RX 7900 XTX.\n\n"


@pytest.mark.parametrize(
    "notes",
    [
        # _ROCM_630 lines 958-962 (RCCL), alone and under their heading
        "* Fixed an issue where, on systems running Linux kernel 6.8.0 such as Ubuntu 24.04, Direct Memory\n"
        "  Access (DMA) transfers between the GPU and NIC were disabled, impacting multi-node RCCL\n"
        "  performance. See [issue #3772](https://github.com/ROCm/ROCm/issues/3772) on GitHub.\n",
        "#### Resolved issues\n\n"
        "* Fixed an issue where, on systems running Linux kernel 6.8.0 such as Ubuntu 24.04, Direct Memory\n"
        "  Access (DMA) transfers between the GPU and NIC were disabled, impacting multi-node RCCL\n"
        "  performance. See [issue #3772](https://github.com/ROCm/ROCm/issues/3772) on GitHub.\n",
        # _ROCM_630 lines 1227-1231 (rocPRIM)
        "#### Resolved issues\n\n"
        "* Resolved an issue in `rtest.py` where it crashed if the `build` folder was created without `release` or `debug` subdirectories.\n"
        "* Resolved an issue with `rtest.py` on Windows where passing an absolute path to `--install_dir` caused a `FileNotFound` error.\n",
        # _ROCM_600 lines 5524-5532 (defect fixes)
        "### Defect fixes\n\nThe following defects are fixed in this release.\n\n#### Driver fails to load after installation\n\n"
        "The issue with the driver failing to load after ROCm installation is now fixed.\n\n"
        "The driver installs successfully, and the server reboots with working rocminfo and clinfo.\n",
        # the wording of a changelog's entry, in a changelog's forms
        "Changelog:\n- fixed amdgpu-install --no-dkms so it works\n",
        "6.2.1: fixed amdgpu-install --no-dkms so it works\n",
        "## What's Changed\n* fixed amdgpu-install --no-dkms so it works\n",
    ],
)
def test_a_release_notes_or_changelogs_lines_are_no_resolution(notes: str) -> None:
    assert rows(_FAILING + notes) == []


@pytest.mark.parametrize(
    "text, row",
    [
        ("Fixed it by reinstalling with amdgpu-install --usecase=rocm --no-dkms.", "dkms_driver_left_out"),
        ("Fixed the issue by adding my user to the render group.", "render_group"),
        ("I fixed an issue where my user was not in the render group by adding it with usermod.", "render_group"),
        # the reporter's own fix after a changelog's section has ended at the next heading
        (
            "## What's Changed\n* fixed amdgpu-install --no-dkms so it works\n\n## My setup\n"
            "I reinstalled with amdgpu-install --usecase=rocm --no-dkms and it works now.",
            "dkms_driver_left_out",
        ),
    ],
)
def test_the_reporters_own_fix_in_a_changelogs_words_is_still_read(text: str, row: str) -> None:
    assert rows(_FAILING + text + "\n") == [row]


# rev57c: a sentence that names release notes or a changelog, a label of the reporter's own, a dated edit and a
# first-person "Fixed a problem where ..." open no changelog section and are no release note's line: the reporter's fix
# after them is read; and a pasted changelog that no heading closes ends at the reporter's own line.
_RENDER_FIX = "Fixed it by adding my user to the render group.\n"


@pytest.mark.parametrize(
    "text",
    [
        "I checked the release notes for 6.2.\n" + _RENDER_FIX,
        "I read the changelog of ROCm 6.2.1 and\nnothing mentions it.\n\n" + _RENDER_FIX,
        "The release notes say 6.2 supports my card.\n" + _RENDER_FIX,
        "### Bug fix that worked for me:\n" + _RENDER_FIX,
        "Bugfix:\n" + _RENDER_FIX,
        "## Update\n" + _RENDER_FIX,
        "### Solution\n" + _RENDER_FIX,
        "Resolved: fixed it by adding my user to the render group.\n",
        "10.05: fixed it by adding my user to the render group.\n",
        "Fixed a problem where rocminfo failed by adding my user to the render group.\n",
        "## Changelog\n* 6.2.1: fixed a crash\n\nAnyway, on my machine: " + _RENDER_FIX,
    ],
)
def test_a_line_that_only_names_notes_hides_no_reporters_fix(text: str) -> None:
    assert rows(_FAILING + text) == ["render_group"]


@pytest.mark.parametrize(
    "heading",
    ["ROCm 6.2.1 release notes\n", "### Bug Fixes\n", "**Resolved issues**\n", "## Changelog (2024-10-01)\n", "### What's new in v0.5.8\n", "## [0.5.8] Changelog\n"],
)
def test_a_notes_heading_with_a_product_or_release_still_opens_a_section(heading: str) -> None:
    assert rows(_FAILING + heading + "* fixed amdgpu-install --no-dkms so it works\n") == []


# prose66: "<change> seems to fix the problem" is the reporter's own observation of the result (laifs-container-recipes#30
# "Removing NCCL_NET_GDR_LEVEL=PHB seems to fix the problem", dream-textures#809 "Changing the extra-index-url to
# .../whl/rocm6.1/ seems to fix the problem", stable-diffusion-webui-amdgpu#599 "... seems to fix that issue, but ...
# still prompts"); a negation (ollama#7715 "rolling back does not seem to fix it"), a failure, a question, a condition
# or another person's account stays out.
@pytest.mark.parametrize(
    "text, row",
    [
        ("Setting HSA_OVERRIDE_GFX_VERSION=10.3.0 seems to fix the problem.", "override_set"),
        ("Disabling the iGPU in the BIOS seemed to solve it.", "igpu_hidden"),
        ("Going back to the previous driver appears to have fixed it.", "kernel_or_driver_changed"),
    ],
)
def test_a_change_that_seems_to_fix_the_problem_is_the_reporters_fix(text: str, row: str) -> None:
    assert rows(text) == [row]


@pytest.mark.parametrize(
    "text",
    [
        "Rolling back to the previous driver does not seem to fix it.",  # negation
        "Setting HSA_OVERRIDE_GFX_VERSION=10.3.0 seems to fix that issue, but it still crashes at sampling.",  # failure
        "Does disabling the iGPU seem to fix it?",  # question
        "If disabling the iGPU seems to fix the problem, I will close this.",  # condition
        "For him, disabling the iGPU seems to fix the problem.",  # another person's
    ],
)
def test_seems_to_fix_out_of_scope_is_no_resolution(text: str) -> None:
    assert rows(text) == []


# prose66: "workaround is/was" opening the sentence or after my/our/a/current (mozilla-ai/llamafile#271 "Workaround is
# to install HIP SDK v5.5", ROCm/pytorch#411 "My workaround is to pip install torchvision==0.2.0", ROCm/bitsandbytes#37
# "A workaround is to install lion-pytorch first, then re-install PyTorch for ROCm", getsolus/packages#7986 "Currently
# my workaround is booting with 6.17"); "The workaround is ..." is a document's known-issue wording and stays out.
@pytest.mark.parametrize(
    "text, row",
    [
        ("Workaround is to set HSA_OVERRIDE_GFX_VERSION=10.3.0 before launching.", "override_set"),
        ("Currently my workaround is booting the 6.17 kernel.", "kernel_or_driver_changed"),
        ("Our workaround was to add the user to the render group.", "render_group"),
        ("EDIT: workaround is to set HSA_OVERRIDE_GFX_VERSION=10.3.0 before launching.", "override_set"),
        ("- Workaround is to disable the iGPU in the BIOS.", "igpu_hidden"),
    ],
)
def test_a_workaround_the_reporter_uses_is_read_with_or_without_a_determiner(text: str, row: str) -> None:
    assert rows(text) == [row]


@pytest.mark.parametrize(
    "text",
    [
        "Is there any workaround? I set HSA_OVERRIDE_GFX_VERSION=10.3.0 already.",  # question
        "The workaround is to set HSA_OVERRIDE_GFX_VERSION=10.3.0.",  # a document's wording
        "A workaround would be to disable the iGPU in the BIOS.",  # advice
        "Workaround is to disable the iGPU, but it still crashes.",  # failure
        "Update: workaround is to disable the iGPU, but it still crashes.",  # failure after an update label
    ],
)
def test_a_workaround_asked_for_advised_or_failing_is_no_resolution(text: str) -> None:
    assert rows(text) == []


# prose66: the integrated GPU named as the cause after a cause phrase (unslothai/unsloth#7307 "the cause was the
# integrated GPU being visible to HIP", hughperkins/tf-coriander#40 "turns out it was because i pointed tensorflow to
# the wrong GPU (the integrated Iris GPU)", tsl0922/pytorch-gfx803#5 "Reason was my APU"): a device-selection cause.
@pytest.mark.parametrize(
    "text",
    [
        "It turned out the problem was the iGPU.",
        "The cause was the integrated GPU being visible to HIP.",
        "Turns out it was because I pointed tensorflow to the wrong GPU (the integrated Iris GPU).",
    ],
)
def test_the_integrated_gpu_named_as_the_cause_is_a_device_selection_cause(text: str) -> None:
    assert rows(text) == ["igpu_cause"]
    assert stated_category(text) == "device-selection"


@pytest.mark.parametrize(
    "text",
    [
        "Turns out ROCm does not support the integrated GPU.",  # unsupported: no choice of device
        "I think the problem was the iGPU.",  # doubt
        "Was the problem the iGPU?",  # question
        "Someone said that the problem was the iGPU.",  # another person's
        "The iGPU fixed it.",  # the row is read after a cause phrase only
    ],
)
def test_the_integrated_gpu_named_out_of_scope_or_unsupported_is_no_cause(text: str) -> None:
    assert rows(text) == []


def test_a_rocm_release_before_kernel_driver_is_no_kernel_release() -> None:
    # unslothai/unsloth#7208: "incompatible with the host's ROCm 7.2.4 kernel driver (amdkfd)" names ROCm's release
    text = "Root cause: the bundled runtime is incompatible with the host's ROCm 7.2.4 kernel driver (amdkfd)."
    assert "kernel_or_driver_changed" not in rows(text)
    # a kernel release before the same words is still one
    assert rows("Root cause: the 6.8 kernel driver on this machine.") == ["kernel_or_driver_changed"]


# prose66: no ROCm for native Windows named as the cause (pytorch/pytorch#23933 "RoCm DOESN'T support windows",
# vladmandic/sdnext#3556 "there is no pure rocm on windows", Comfy-Org/ComfyUI#1655 "PyTorch ROCm is Linux only",
# zai-org/ChatGLM3#1115 "only on Linux", Nerogar/OneTrainer#1381 "AMD does not publish ROCm 6.x wheels for Windows"
# under "## Root Cause"): a platform cause, read after a cause phrase or under a "Root cause" label only.
@pytest.mark.parametrize(
    "text",
    [
        "Turns out ROCm doesn't support Windows.",
        "The problem was that there is no pure rocm on windows.",
        "Turns out PyTorch ROCm is Linux only.",
        "## Root Cause\n\nAMD does not publish ROCm 6.x wheels for Windows. Only TheRock nightlies have them.",
    ],
)
def test_no_rocm_for_windows_named_as_the_cause_is_a_platform_cause(text: str) -> None:
    assert rows(text) == ["rocm_not_on_windows"]
    assert stated_category(text) == "platform"


@pytest.mark.parametrize(
    "text",
    [
        "ROCm doesn't support Windows, does it?",  # question
        "I think ROCm doesn't support Windows.",  # doubt
        "Turns out hipBLAS getrsBatched is not supported on Windows.",  # one library call, not ROCm
        "ROCm does not support Windows, so I use WSL2 and it works now.",  # a fix phrase: the row is a cause only
        "Someone said that ROCm is Linux only.",  # another person's
    ],
)
def test_no_rocm_for_windows_out_of_scope_or_about_one_library_is_no_cause(text: str) -> None:
    assert "rocm_not_on_windows" not in rows(text)


# prose66: a second libamd_smi named as the cause (pytorch/pytorch#186516 "Root cause: a duplicate `libamd_smi`
# ODR/symbol clash", ROCm/rocm-systems#7643 "the symbol conflict" after pip install amdsmi beside TheRock's torch,
# ROCm/TheRock#7890 and vllm-project/vllm#28680, an amdsmi package of another ROCm release): a packages cause.
@pytest.mark.parametrize(
    "text",
    [
        "**Root cause: a duplicate `libamd_smi` ODR/symbol clash.** The ROCm torch wheel bundles its own copy.",
        "Turns out the amdsmi package conflicts with the libamd_smi in the torch wheel.",
        "The problem was a second copy of libamd_smi from pip.",
    ],
)
def test_a_second_amd_smi_library_named_as_the_cause_is_a_packages_cause(text: str) -> None:
    assert rows(text) == ["amdsmi_duplicate"]
    assert stated_category(text) == "packages"


@pytest.mark.parametrize(
    "text",
    [
        "I think the amdsmi package conflicts with torch.",  # doubt
        "Is the amdsmi package conflicting with torch?",  # question
        "Uninstalling amdsmi fixed it.",  # a fix phrase: the row is a cause only, and names no conflict
    ],
)
def test_a_second_amd_smi_library_doubted_or_asked_about_is_no_cause(text: str) -> None:
    assert "amdsmi_duplicate" not in rows(text)


# review66b: the integrated GPU is the cause only in the cause's own construct (being visible or picked, a program
# using or pointed to it, or right after the cause phrase's verb), not any iGPU in a sentence with a cause phrase.
@pytest.mark.parametrize(
    "text",
    [
        "Turns out the iGPU is not the problem.",  # denied
        "Turns out the iGPU was never the issue.",  # denied
        "Turns out the iGPU has nothing to do with it.",  # denied
        "The problem was the driver, not the iGPU.",  # another cause
        "It turned out the problem was the power supply, the iGPU and the dGPU both work.",  # another cause
        "It turned out my laptop has an iGPU and a dGPU.",  # a description
        "Turns out amd-smi shows two GPUs, the second one is the iGPU.",  # a description
        "Turns out the problem was not using the iGPU but the dGPU.",  # denied use
    ],
)
def test_an_integrated_gpu_merely_named_beside_a_cause_phrase_is_no_cause(text: str) -> None:
    assert "igpu_cause" not in rows(text)


@pytest.mark.parametrize(
    "text",
    [
        "Turns out pytorch was using the iGPU instead of my 7900 XTX.",
        "The issue was caused by the iGPU being listed first.",
        "Turns out the problem is the iGPU.",
    ],
)
def test_the_integrated_gpu_used_or_listed_first_as_the_cause_is_read(text: str) -> None:
    assert rows(text) == ["igpu_cause"]


# review66b: ROCm itself is the subject of "not on Windows" (torch has Windows builds), and not one Windows release.
@pytest.mark.parametrize(
    "text",
    [
        "Turns out PyTorch doesn't support Windows for this feature, so I moved to Linux.",
        "The problem was that torch.compile is not supported on Windows.",
        "Turns out the pip torch is only for Linux x86_64, I'm on aarch64.",
        "The issue was that AMD does not provide builds for Windows of MIOpen.",
        "Turns out ROCm doesn't support Windows 10, only Windows 11.",
        "The cause was that the ROCm runtime is not supported on Windows Server.",
    ],
)
def test_torch_alone_or_one_windows_release_named_is_no_rocm_on_windows_cause(text: str) -> None:
    assert "rocm_not_on_windows" not in rows(text)


def test_rocm_wheels_for_windows_not_published_without_a_release_is_still_read() -> None:
    assert rows("The problem was that AMD does not publish ROCm wheels for Windows.") == ["rocm_not_on_windows"]


# review66b: a second libamd_smi is the library or the pip package, not the amd-smi tool, and not a conflict denied.
@pytest.mark.parametrize(
    "text",
    [
        "The cause was two amdsmi calls racing in my script.",
        "Turns out the second amd-smi process was holding the device.",
        "The issue was that amd-smi and rocm-smi conflict over the lock file.",
        "Turns out amd-smi static shows the conflict with the display driver.",
        "Turns out there is no amdsmi conflict; it was the kernel.",
        "Turns out the amdsmi package does not conflict with torch; it was the kernel.",
    ],
)
def test_the_amd_smi_tool_or_a_denied_conflict_is_no_duplicate_library_cause(text: str) -> None:
    assert "amdsmi_duplicate" not in rows(text)


def test_pips_amdsmi_clashing_with_the_wheels_library_is_a_duplicate_library_cause() -> None:
    assert rows("The problem was that pip's amdsmi clashes with the torch wheel's libamd_smi.") == ["amdsmi_duplicate"]


# review66b: after "workaround is/was" comes the step (a to-infinitive or a gerund); a workaround posted, mentioned,
# needed or denied is no fix of the reporter's.
@pytest.mark.parametrize(
    "text",
    [
        "A workaround was posted by someone: downgrade the kernel to 6.8.",
        "A workaround is mentioned in #1234: set HSA_OVERRIDE_GFX_VERSION=10.3.0.",
        "Workaround is needed: downgrading the kernel to 6.8 breaks my wifi.",
        "Workaround is not setting HSA_OVERRIDE_GFX_VERSION.",
        "Workaround is nothing: downgrading the kernel to 6.8 breaks my wifi.",
    ],
)
def test_a_workaround_posted_mentioned_needed_or_denied_is_no_resolution(text: str) -> None:
    assert rows(text) == []


def test_a_workaround_told_as_a_gerund_is_read() -> None:
    assert rows("Workaround was setting HSA_OVERRIDE_GFX_VERSION=10.3.0 for now.") == ["override_set"]
