"""The runtime's generic device name ("AMD Radeon Graphics", Windows' "AMD Radeon(TM) Graphics") in a listing a HIP
process printed (torch.cuda.get_device_name, ggml, hipInfo): the iGPU only beside a card the same listing names
specifically (rocm_doctor/ingest/assemble.py, _generic_name_beside_named_card)."""

from __future__ import annotations

from ingest_helpers import ingest

from rocm_doctor.judge.derived import DerivedValues

TORCH = (
    ">>> torch.cuda.get_device_name(0)\n"
    "'{first}'\n"
    ">>> torch.cuda.get_device_name(1)\n"
    "'{second}'\n"
)
HIPINFO = (
    "device#                           0\n"
    "Name:                             {first}\n"
    "device#                           1\n"
    "Name:                             {second}\n"
)


def _integrated(text: str) -> list:
    return [a.integrated.value if a.integrated.is_known else None for a in ingest(text).facts.gpus.agents]


def test_a_generic_name_beside_a_named_card_in_a_torch_listing_is_the_igpu_and_device_0() -> None:
    for generic in ("AMD Radeon(TM) Graphics", "AMD Radeon Graphics", "AMD Radeon (TM) Graphics"):
        text = TORCH.format(first=generic, second="AMD Radeon RX 7900 XTX")
        assert _integrated(text) == [True, False]
        facts = ingest(text).facts
        assert DerivedValues(facts).machine("derived.hip_listing_igpu_first").value is True


def test_a_generic_name_beside_a_named_card_in_hipinfo_is_the_igpu_in_either_position() -> None:
    assert _integrated(HIPINFO.format(first="AMD Radeon RX 7800 XT", second="AMD Radeon(TM) Graphics")) == [False, True]
    facts = ingest(HIPINFO.format(first="AMD Radeon RX 7800 XT", second="AMD Radeon(TM) Graphics")).facts
    assert DerivedValues(facts).machine("derived.hip_listing_igpu_first").value is False


def test_a_generic_name_alone_or_beside_another_generic_name_stays_undecided() -> None:
    # no amdgpu.ids: every device of the process is "AMD Radeon Graphics" (pytorch/pytorch#144203, ROCm/TheRock#4693)
    assert _integrated(TORCH.format(first="AMD Radeon Graphics", second="AMD Radeon Graphics")) == [None, None]
    alone = ">>> torch.cuda.get_device_name(0)\n'AMD Radeon Graphics'\n"
    assert _integrated(alone) == [None]


def test_a_generic_name_with_its_gfx_is_decided_by_the_gpu_table_not_by_the_name() -> None:
    ggml = (
        "ggml_cuda_init: found 2 ROCm devices:\n"
        "  Device 0: AMD Radeon RX 7900 XTX, gfx1100 (0x1100), VMM: no, Wave Size: 32\n"
        "  Device 1: AMD Radeon Graphics, gfx906:sramecc+:xnack- (0x906), VMM: no, Wave Size: 64\n"
    )
    # a Radeon VII / MI50 named generically beside a 7900 XTX is a discrete card: its gfx says so
    assert _integrated(ggml) == [False, False]


def test_a_generic_name_in_prose_or_a_gpu_field_is_not_read_as_an_igpu_by_this_rule() -> None:
    text = "### GPU\n\nAMD Radeon Graphics\n\nI also have an AMD Radeon RX 7900 XTX.\n"
    facts = ingest(text).facts
    assert DerivedValues(facts).machine("derived.hip_listing_igpu_first").status == "absent"


# ollama's log saying it left the iGPU out (rules/data/signatures.yaml, app_excluded_igpu)

OLLAMA_EXCLUDED = (
    'time=2024-03-04T20:33:33.692-05:00 level=INFO source=gpu.go:199 msg="ROCm integrated GPU detected - ROCR_VISIBLE_DEVICES=0"',
    'time=2025-07-28T09:27:23.647+03:00 level=INFO source=amd_linux.go:296 msg="unsupported Radeon iGPU detected skipping" id=1 total="512.0 MiB"',
    'time=2026-06-12T10:00:00.000Z level=INFO source=runner.go:405 msg="dropping integrated GPU; to enable, set OLLAMA_IGPU_ENABLE=1" id=0 library=ROCm',
)


def test_ollama_saying_it_left_the_igpu_out_is_read_in_each_eras_words() -> None:
    for line in OLLAMA_EXCLUDED:
        context = ingest(line + "\n").facts.symptoms.context
        assert "app_excluded_igpu" in (context.value or []), line


def test_advice_or_a_question_about_the_igpu_is_not_ollama_excluding_it() -> None:
    for text in ("Ollama should skip the iGPU here.\n", "Does ollama drop the integrated GPU by default?\n"):
        context = ingest(text).facts.symptoms.context
        assert "app_excluded_igpu" not in (context.value or [])


def test_no_igpu_beside_dgpu_warning_when_ollama_left_the_igpu_out() -> None:
    from rocm_doctor.judge.loader import load_rules
    from rocm_doctor.pipeline import evaluate

    text = OLLAMA_EXCLUDED[0] + "\nMy CPU is a Ryzen 9 5900HX and the GPU an RX 6800M. Models run on the CPU.\n"
    shown = {f.id for f in evaluate(load_rules([], use_env=False), ingest(text).facts).findings}
    assert not shown & {"RD515", "RD541", "RD840"}


def test_ollamas_exclusion_line_quoted_as_advice_a_question_or_anothers_is_not_this_machines() -> None:
    for text in (
        'If ollama prints msg="dropping integrated GPU; to enable, set OLLAMA_IGPU_ENABLE=1" you should set it.\n',
        'Does ollama print msg="dropping integrated GPU" here?\n',
        'My friend\'s log shows msg="unsupported Radeon iGPU detected skipping" id=1\n',
        "I run ollama.\n\n> " + OLLAMA_EXCLUDED[1] + "\n\nThanks, but I don't see that line in my log.\n",
    ):
        context = ingest(text).facts.symptoms.context
        assert "app_excluded_igpu" not in (context.value or []), text


def test_ollamas_exclusion_line_is_read_fenced_and_with_crlf() -> None:
    for text in ("```\n" + OLLAMA_EXCLUDED[1] + "\n```\n", OLLAMA_EXCLUDED[2] + "\r\n"):
        assert "app_excluded_igpu" in (ingest(text).facts.symptoms.context.value or []), text


def test_the_igpu_warnings_stay_when_a_pytorch_of_the_same_report_sees_the_igpu() -> None:
    from rocm_doctor.judge.loader import load_rules
    from rocm_doctor.pipeline import evaluate

    text = (
        "My CPU is a Ryzen 9 5900HX and the GPU an RX 6800M. ollama works and logs:\n"
        + OLLAMA_EXCLUDED[1]
        + "\nbut PyTorch 2.3.0+rocm6.0 crashes:\n"
        "Memory access fault by GPU node-2 (Agent handle: 0x55d5c8c0) on address 0x7f. Reason: Page not present or supervisor privilege.\n"
    )
    shown = {f.id for f in evaluate(load_rules([], use_env=False), ingest(text).facts).findings}
    assert shown & {"RD515", "RD541"}


# review rev47f: the generic name is also what an older amdgpu.ids gives a discrete card it lacks (an RX 9070 beside
# an RX 7900 XTX, an Instinct, a Radeon Pro); the report's CPU and its words decide against the iGPU reading


def test_a_generic_name_is_no_igpu_when_the_reports_cpu_carries_none() -> None:
    for cpu in ("CPU: Intel Core i9-13900K\n", "CPU: AMD Ryzen 9 5950X 16-Core Processor\n", "CPU: AMD Ryzen Threadripper PRO 7975WX\n"):
        text = cpu + TORCH.format(first="AMD Radeon Graphics", second="AMD Radeon RX 7900 XTX")
        assert _integrated(text) == [None, False], cpu
        assert DerivedValues(ingest(text).facts).machine("derived.hip_listing_igpu_first").value is not True


def test_a_generic_name_is_no_igpu_when_the_report_names_a_card_the_listing_does_not() -> None:
    prose = "I have an RX 9070 XT and an RX 7900 XTX in one workstation.\n"
    text = prose + TORCH.format(first="AMD Radeon Graphics", second="AMD Radeon RX 7900 XTX")
    assert _integrated(text) == [None, False]
    prose = "My box has two cards, a Radeon PRO W7900 and an Instinct MI210.\n"
    assert _integrated(prose + HIPINFO.format(first="AMD Radeon PRO W7900", second="AMD Radeon Graphics")) == [False, None]


def test_a_generic_name_beside_a_card_the_report_also_names_is_still_the_igpu() -> None:
    for prose in ("My GPU is an RX 7900 XTX.\n", "CPU: AMD Ryzen 5 9600X\n"):
        text = prose + TORCH.format(first="AMD Radeon(TM) Graphics", second="AMD Radeon RX 7900 XTX")
        assert _integrated(text) == [True, False], prose


def test_a_generic_amd_name_beside_an_nvidia_card_only_is_not_read_by_this_rule() -> None:
    text = TORCH.format(first="NVIDIA GeForce RTX 3090", second="AMD Radeon Graphics")
    agents = ingest(text).facts.gpus.agents
    # before rev47f the NVIDIA card (an appended mention, integrated false) counted as the "named card"
    generic = [a for a in agents if a.name.value == "AMD Radeon Graphics"]
    assert len(generic) == 1 and not generic[0].integrated.is_known


# the same three wordings without slog's msg=: ollama v0.1.22's log.Printf line ("gpu.go:NNN: ..."), or the message
# alone on its line as a reporter copied it (ollama/ollama#2277 from journalctl, SirUli/homeassistant-ollama-addon#319)

def test_ollamas_exclusion_line_is_read_without_slogs_msg_prefix() -> None:
    for text in (
        "Radeon GPU detected\nROCm integrated GPU detected - ROCR_VISIBLE_DEVICES=1\n",
        "2024/01/30 10:00:00 gpu.go:177: ROCm integrated GPU detected - ROCR_VISIBLE_DEVICES=0\n",
        "```text\ndiscovering available GPUs...\ndropping integrated GPU; to enable, set OLLAMA_IGPU_ENABLE=1\nid=0 library=Vulkan\n```\n",
    ):
        assert "app_excluded_igpu" in (ingest(text).facts.symptoms.context.value or []), text


def test_a_sentence_that_starts_with_the_words_is_not_ollamas_exclusion_line() -> None:
    for text in (
        "Dropping integrated GPU support would be a mistake.\n",
        "Dropping integrated GPU; to enable it again I had to reinstall.\n> unrelated\n",
        "unsupported Radeon iGPU detected skipping is what you should expect here.\n",
    ):
        assert "app_excluded_igpu" not in (ingest(text).facts.symptoms.context.value or []), text


# review rev48d: without msg= the message must end its line or go on as a log line does (its value, key=value pairs,
# a mark); words after it are prose about the message, not this machine's log
def test_ollamas_exclusion_message_followed_by_prose_is_not_read() -> None:
    for text in (
        "Changelog v0.30.0:\ndropping integrated GPU; to enable, set OLLAMA_IGPU_ENABLE=1 is now logged at INFO level\n",
        "Dropping integrated GPU; to enable, set OLLAMA_IGPU_ENABLE=1 in the service file and restart.\n",
        "unsupported Radeon iGPU detected skipping no longer appears after I set HSA_OVERRIDE_GFX_VERSION=11.0.2, fixed.\n",
        "dropping integrated GPU; to enable, set OLLAMA_IGPU_ENABLE=1 appears in the docs but not in my log.\n",
        "ROCm integrated GPU detected - ROCR_VISIBLE_DEVICES=0 is not printed on my machine\n",
    ):
        assert "app_excluded_igpu" not in (ingest(text).facts.symptoms.context.value or []), text


def test_ollamas_exclusion_message_followed_by_its_fields_is_read() -> None:
    for text in (
        "dropping integrated GPU; to enable, set OLLAMA_IGPU_ENABLE=1 id=0 library=Vulkan description=\"AMD Radeon 780M\"\n",
        "unsupported Radeon iGPU detected skipping id=1 total=\"512.0 MiB\"\n",
        "dropping integrated GPU; to enable, set OLLAMA_IGPU_ENABLE=1\r\nid=0 library=Vulkan\r\n",
        "ROCm integrated GPU detected - ROCR_VISIBLE_DEVICES=0,1\n",
    ):
        assert "app_excluded_igpu" in (ingest(text).facts.symptoms.context.value or []), text
