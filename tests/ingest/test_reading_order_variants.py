"""Reading that does not depend on how a report is laid out: the same settings and versions whether a
line is wrapped, a transcript fenced, a value written as a placeholder (issue 23 items 2 and 6; each
test reproduces a rewrite of ``benchmarks/metamorphic.py`` that changed a diagnosis)."""

from __future__ import annotations

from ingest_helpers import ingest


def _vars(text: str) -> dict:
    return dict(ingest(text).facts.env.vars.value or {})


# ------------------------------------------------------------- two settings of one name on a line


def test_of_two_assignments_of_one_name_on_a_line_the_later_is_in_force() -> None:
    # The shell assigns from left to right: `export A=1 A=2` leaves A=2, as two export lines do.
    one_line = "```\nexport HSA_OVERRIDE_GFX_VERSION=10.3.0 HSA_OVERRIDE_GFX_VERSION=11.0.0\n```\n"
    two_lines = "```\nexport HSA_OVERRIDE_GFX_VERSION=10.3.0\nexport HSA_OVERRIDE_GFX_VERSION=11.0.0\n```\n"
    assert _vars(one_line) == _vars(two_lines) == {"HSA_OVERRIDE_GFX_VERSION": "11.0.0"}


def test_a_sentence_wrapped_between_two_settings_of_one_name_reads_the_same() -> None:
    sentence = (
        "On Linux, `export HSA_OVERRIDE_GFX_VERSION=11.0.0` is the usual one, e.g. `export HSA_OVERRIDE_GFX_VERSION=10.3.0`"
        " for an RDNA2 card of the same family as a supported one.\n"
    )
    wrapped = sentence.replace(" is the usual one, e.g.", " is the usual one,\ne.g.")
    assert _vars(sentence) == _vars(wrapped) == {"HSA_OVERRIDE_GFX_VERSION": "10.3.0"}


# ------------------------------------------------------------------------------ placeholders


def test_a_placeholder_value_is_not_read_as_a_setting() -> None:
    for value in ("{MAJOR}.{MINOR}.{PATCH}", "X.Y.Z", "x.x.x", "<your gfx>", "<x.y.z>", "<major.minor.step>", "<version>"):
        for text in (f"```\nexport HSA_OVERRIDE_GFX_VERSION={value}\n```\n", f"```\nset HSA_OVERRIDE_GFX_VERSION={value}\n```\n"):
            assert "HSA_OVERRIDE_GFX_VERSION" not in _vars(text), text


def test_a_placeholder_is_never_a_malformed_override() -> None:
    from rocm_doctor.judge.loader import load_rules
    from rocm_doctor.pipeline import evaluate

    rules = load_rules([], use_env=False)
    text = "On Linux, `export HSA_OVERRIDE_GFX_VERSION={MAJOR}.{MINOR}.{PATCH}` tricks ROCm into another ISA.\n\n```\nset HSA_OVERRIDE_GFX_VERSION=X.Y.Z\n```\n"
    assert "RD210" not in [f.id for f in evaluate(rules, ingest(text).facts).findings]


def test_a_real_malformed_value_is_still_read() -> None:
    assert _vars("```\nexport HSA_OVERRIDE_GFX_VERSION=gfx1030\n```\n") == {"HSA_OVERRIDE_GFX_VERSION": "gfx1030"}
    assert _vars("```\nexport HSA_OVERRIDE_GFX_VERSION=11.0\n```\n") == {"HSA_OVERRIDE_GFX_VERSION": "11.0"}


# ---------------------------------------------------------------- a requirement pin at a line start


def test_a_requirement_pin_at_a_line_start_is_not_a_labelled_torch_field() -> None:
    # A wrapped `pip install` sentence: the second pin starts a line. It is a pin, as mid-line, not a
    # "Torch = 2.0.1" template field that would outrank the other pin the sentence names.
    one_line = (
        "I replaced `pip install torch==2.0.1+cu118 --index-url https://download.pytorch.org/whl/cu118` with"
        " `pip install torch==2.0.1+rocm5.4.2 --index-url https://download.pytorch.org/whl/rocm5.4.2` and it works.\n"
    )
    wrapped = one_line.replace(" with `pip install torch==2.0.1+rocm5.4.2 ", " with `pip install\ntorch==2.0.1+rocm5.4.2 ")
    flat, cut = ingest(one_line).facts.torch.version, ingest(wrapped).facts.torch.version
    assert (flat.status, flat.value) == (cut.status, cut.value)


def test_a_labelled_torch_field_is_still_read() -> None:
    for text in ("Torch = 2.4.0+rocm6.1\n", "PyTorch version: 2.4.0+rocm6.1\n"):
        assert ingest(text).facts.torch.version.value == "2.4.0+rocm6.1"


# ------------------------------------------------------- a sentence that says it failed with a setting

ERROR = "rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: No such file or directory for GPU arch : gfx1032"
SENTENCE = 'Also doesn\'t work when running `$env:HSA_OVERRIDE_GFX_VERSION="10.3.0"; ollama serve` directly in Powershell.'


def test_a_setting_in_a_sentence_saying_it_failed_is_in_force_after_an_unfenced_error() -> None:
    fenced = f"The log:\n\n```\n{ERROR}\n```\n\n{SENTENCE}\n"
    unfenced = f"The log:\n\n{ERROR}\n\n{SENTENCE}\n"
    assert _vars(fenced) == _vars(unfenced) == {"HSA_OVERRIDE_GFX_VERSION": "10.3.0"}


def test_a_setting_in_a_sentence_saying_it_worked_after_the_error_is_still_not_in_force() -> None:
    fixed = f"```\n{ERROR}\n$env:HSA_OVERRIDE_GFX_VERSION=\"10.3.0\"\n```\n"
    assert _vars(fixed) == {}
    works = f"{ERROR}\n\nIt runs fine after I did `$env:HSA_OVERRIDE_GFX_VERSION=\"10.3.0\"; ollama serve` in Powershell.\n"
    assert _vars(works) == {}


def test_an_unprompted_export_set_apart_from_the_log_by_a_blank_line_reads_the_same_with_and_without_fences() -> None:
    # Stripping the fences merged the log and the reporter's own `export` line into one block, and the setting
    # was then judged "set after the error"; a blank line sets it apart either way.
    fenced = f"```\n{ERROR}\n```\n\nexport HSA_OVERRIDE_GFX_VERSION=10.3.0\n"
    unfenced = f"{ERROR}\n\nexport HSA_OVERRIDE_GFX_VERSION=10.3.0\n"
    assert _vars(fenced) == _vars(unfenced) == {"HSA_OVERRIDE_GFX_VERSION": "10.3.0"}


def test_a_prompted_export_after_the_error_is_a_transcript_command_run_after_it_blank_line_or_not() -> None:
    for gap in ("", "\n"):
        transcript = f"```\n$ python x.py\n{ERROR}\n{gap}$ export HSA_OVERRIDE_GFX_VERSION=10.3.0\n$ python x.py\n```\n"
        assert _vars(transcript) == {}, gap


def test_a_setting_in_a_sentence_saying_it_worked_after_a_fenced_error_is_not_in_force_either() -> None:
    works = f"```\n{ERROR}\n```\n\nIt runs fine after I did `$env:HSA_OVERRIDE_GFX_VERSION=\"10.3.0\"; ollama serve` in Powershell.\n"
    assert _vars(works) == {}
    # ... while one said to work before the error was printed stays in force for it
    before = f"With `export HSA_OVERRIDE_GFX_VERSION=10.3.0` it works fine for SD 1.5, but SDXL gives:\n\n```\n{ERROR}\n```\n"
    assert _vars(before) == {"HSA_OVERRIDE_GFX_VERSION": "10.3.0"}


# --------------------------------------------------------------------- an attempt that failed


def test_a_rocm_upgrade_tried_and_failed_keeps_the_release_it_would_leave() -> None:
    for text in ("I tried upgrading from ROCm 6.1 to 6.2 but it failed.\n", "I tried to upgrade from ROCm 6.1 to ROCm 6.2, the install failed with errors.\n"):
        facts = ingest(text).facts
        assert facts.rocm.version.value == "6.1", text
        assert not facts.symptoms.earlier.value, text


def test_a_rocm_upgrade_tried_without_a_failure_of_it_is_made() -> None:
    for text in ("I tried updating from ROCm 6.1 to 6.2 and now my models are slow.\n", "I tried updating from ROCm 6.1 to 6.2 to fix the HIP error.\n"):
        facts = ingest(text).facts
        assert facts.rocm.version.value == "6.2", text
        assert facts.symptoms.earlier.value == ["rocm.version=6.1"], text


def test_a_torch_pin_whose_install_was_tried_and_failed_is_not_the_installed_torch() -> None:
    text = (
        "When I tried installing `torch==2.9.0a0+rocm7.0.0rc20250815`, I got the following error:\n"
        "`ERROR: No matching distribution found for intel-openmp==2025.1.1`\n"
    )
    assert ingest(text).facts.torch.version.status == "unknown"
    assert ingest("I tried installing torch==2.5.1+rocm6.2 and it works now.\n").facts.torch.version.value == "2.5.1+rocm6.2"


def test_an_error_the_tried_install_left_now_is_no_failure_of_the_install() -> None:
    # "... and now I get errors": the install was made, and the program it left fails.
    for text in (
        "I tried installing torch 2.5.1+rocm6.2 and now I get errors when running ComfyUI.\n",
        "I tried installing torch 2.5.1+rocm6.2 and now I get an error when running ComfyUI.\n",
        "I tried installing torch 2.5.1+rocm6.2 and it now fails to start.\n",
    ):
        assert ingest(text).facts.torch.version.value == "2.5.1+rocm6.2", text
    for text in ("I tried updating from ROCm 6.1 to 6.2 and now it fails with a HIP error.\n",):
        facts = ingest(text).facts
        assert facts.rocm.version.value == "6.2", text
    assert ingest("I tried installing torch 2.5.1+rocm6.2 but it failed, now I am stuck.\n").facts.torch.version.status == "unknown"


# ------------------------------------------------------------- a template's example is no answer


def test_a_template_example_between_label_and_colon_leaves_the_answer_read() -> None:
    # PyTorch's bug-report template: " - PyTorch Version (e.g., 1.0):" answered after the colon.
    facts = ingest(" - PyTorch Version (e.g., 1.0): 1.6.0\n - OS (e.g., Linux): Ubuntu 18.04.5\n - Python version: 3.8\n").facts
    assert facts.torch.version.value == "1.6.0"


def test_a_template_example_left_as_the_value_is_no_answer() -> None:
    for text in (
        " - PyTorch Version (e.g., 1.0):\n - OS (e.g., Linux):\n",
        "- PyTorch version: [e.g. 2.1.0]\n- Python version: [e.g. 3.12.0]\n",
        "* PyTorch version : (e.g. 2.0.1, 1.13, >=1.8, <1.10)\n* Python version :  (e.g. 3.8, 3.11\n",
    ):
        facts = ingest(text).facts
        assert facts.torch.version.status == "unknown", text
        assert facts.python.version.status == "unknown", text


def test_window_as_the_answer_to_an_operating_system_field_is_windows() -> None:
    # "### Operating System / window" (ROCm/TheRock#4102): the singular spelling, as "window 11" already is.
    for text in ("### Operating System\n\nwindow\n", "OS: window\n", "### Operating System\n\nwindow 23h2\n"):
        assert ingest(text).facts.host.os.value == "windows", text
    assert ingest("### Operating System\n\nUbuntu 22.04\n").facts.host.os.value == "linux"


def test_a_windows_feature_update_named_without_the_release_is_windows() -> None:
    # "window 23h2 opera,edge,etc" (vladmandic/sdnext#3556); "windows 11 23h2" was read already.
    for text in ("window 23h2 opera,edge,etc\n", "I am on Windows 24H2 with a 7900 XTX\n"):
        assert ingest(text).facts.host.os.value == "windows", text
    assert ingest("the window closes after 23 seconds\n").facts.host.os.status == "unknown"


# ------------------------------------------------------- fenced or not, the same facts


def test_os_release_lines_in_a_fence_are_no_environment_settings() -> None:
    os_release = 'NAME="Ubuntu"\nVERSION="25.10 (Questing Quokka)"\nID=ubuntu\n'
    fenced, plain = ingest(f"```\n{os_release}```\n").facts.env.vars, ingest(os_release).facts.env.vars
    assert (fenced.status, fenced.value) == (plain.status, plain.value)
    assert "NAME" not in (fenced.value or {})
    assert _vars("```\nHSA_OVERRIDE_GFX_VERSION=10.3.0\n```\n") == {"HSA_OVERRIDE_GFX_VERSION": "10.3.0"}


def test_a_quoted_message_before_the_log_line_naming_the_device_leaves_the_gpu_read() -> None:
    log = "[    7.026427] kfd kfd: amdgpu: skipped device 1002:67df, PCI rejects atomics"
    sentence = "rocminfo does not find the GPU. And with dmesg I get `PCI rejects atomics`."
    fenced = ingest(f"{sentence}\n\n```\n{log}\n```\n").facts.symptoms.error_gfx
    plain = ingest(f"{sentence}\n\n{log}\n").facts.symptoms.error_gfx
    assert fenced.value == plain.value == ["gfx803"]


def test_a_name_or_release_read_across_a_wrapped_line_break_holds_a_space() -> None:
    # Wrapped at 80 columns, "Ubuntu 22.04.1" and "6700 xt" were read with the line break inside the
    # value ("Ubuntu\n22.04.1"), unlike the same report unwrapped.
    distro = "I run the webui on this machine with a fresh venv and the rocm5.2 wheels on Ubuntu\n22.04.1 and kernel 5.15\n"
    assert ingest(distro).facts.host.distro_name.value == ingest(distro.replace("Ubuntu\n", "Ubuntu ")).facts.host.distro_name.value
    gpu = "It fails with the same error on my card, which is an AMD Radeon RX 6700\nxt with 12 GB of memory\n"
    names = [a.name.value for a in ingest(gpu).facts.gpus.agents]
    assert names and all("\n" not in str(name) for name in names)
