"""What a log collector, a terminal or a web page puts around the lines a program printed is read past, once, before any
reader (:func:`rocm_doctor.ingest.blocks.without_log_prefixes`, :func:`~rocm_doctor.ingest.blocks.without_terminal_and_html_marks`):
``docker compose``'s service name ("comfyui-rocm  | !!! Exception during processing !!! HIP error: invalid device
function", YanWenKun/ComfyUI-Docker#122; "ollama  | time=...", mudler/LocalAI#1592, ollama/ollama#14848), journalctl's
date, host and program ("Jun 19 14:38:07 ai-llm ollama[15932]: ", ollama/ollama#5143; ollama/ollama#3035; "Mär 08 02:15:09
evo comfy-ui[301326]: ", utensils/comfyui-nix#34; ollama/ollama#11757), the time ``docker logs -t`` or Docker Desktop puts
first, ComfyUI's log time ("[2026-03-03 12:51:32.116] ", Comfy-Org/ComfyUI#12762, patientx/ComfyUI-Zluda#387; "[...] [info]  ",
Comfy-Org/ComfyUI#12164; "2026-07-11T14:06:46.577801 - ", Comfy-Org/ComfyUI#14881, patientx/ComfyUI-Zluda#198), a
terminal's colour codes with or without their ESC (ComfyUI colours its log since Comfy-Org/ComfyUI#14036, and Comfy
Desktop showed the codes bare, Comfy-Org/Comfy-Desktop#1024), a ``<br>`` ending a line and HTML's entities.

The metamorphic kinds of tests/ingest/metamorphic.py that add these forms kept, over every corpus (benchmarks/metamorphic.py,
session 50), diagnoses before -> after (facts in brackets): compose prefixes 127 -> 131 of 131 (111 -> 131), journal prefixes
127 -> 131 (111 -> 130), container times 127 -> 131 (111 -> 130), ComfyUI times 127 -> 131 (111 -> 131), vLLM process
prefixes 127 -> 131 (111 -> 131), ANSI codes 82 -> 83 of 83 (68 -> 83) with and without ESC, HTML entities 76 -> 83 (72
-> 83), ``<br>`` line ends 859 -> 884 of 884 (827 -> 884). Each rule refuses what is content: the tests below pin it."""

from __future__ import annotations

import pytest
from ingest_helpers import ingest

from rocm_doctor.ingest.blocks import (
    log_prefixes_taken_off,
    normalise,
    split_blocks,
    without_log_prefixes,
    without_terminal_and_html_marks,
)


def _texts(report: str) -> list:
    """The paste's lines as read."""
    texts = [line.text for block in split_blocks(report) for line in block.lines]
    while texts and not texts[-1]:
        texts.pop()
    return texts


def test_the_programs_the_prefixes_named_are_read_at_the_user_s_own_line_and_no_line_is_added() -> None:
    # "ollama[98459]: " named the app the log came from: what the report is about is read from the name, cited at the
    # line of the paste that holds it (a "Logged by:" line added after the paste cited a line nobody wrote, rev50c)
    journal = "```\nMar 09 21:00:13 box ollama[98459]: time=2024-03-09T21:00:13.897-08:00 level=INFO msg=x\nMar 09 21:00:14 box ollama[98459]: CUDA error: invalid device function\n```\n"
    assert without_log_prefixes(journal).count("\n") == journal.count("\n") and "ollama" not in without_log_prefixes(journal)
    assert log_prefixes_taken_off(journal)[1] == {"ollama": 2}
    assert log_prefixes_taken_off("webui-1  | ok\nollama-1  | ok\nwebui-1  | ok")[1] == {"webui": 1, "ollama": 2}
    context = ingest(journal).facts.symptoms.context
    assert "ollama_named" in context.value and context.source == "paste:block 1 line 2"
    assert [line.number for block in split_blocks(journal) for line in block.lines] == [2, 3]


def test_a_name_a_prefix_held_says_what_the_report_is_about_and_nothing_more() -> None:
    # a service named for a ROCm release is no ROCm version of the machine (it was read as rocm.version 6.2, cited at a
    # line after the paste)
    log = "```\nrocm6.2-1  | HIP error: invalid device function\n```\n"
    facts = ingest(log).facts
    assert facts.rocm.version.value is None
    assert "hip_invalid_device_function" in facts.symptoms.signatures.value


# --- docker compose ---------------------------------------------------------------------------------------------


def test_a_compose_service_prefix_is_taken_off_every_line() -> None:
    log = "comfyui-rocm  | !!! Exception during processing !!! HIP error: invalid device function\ncomfyui-rocm  | Traceback (most recent call last):\n"
    assert _texts(log) == ["!!! Exception during processing !!! HIP error: invalid device function", "Traceback (most recent call last):"]


def test_a_compose_prefix_with_its_replica_number_is_taken_off_a_line_alone() -> None:
    assert _texts("ollama-1  | Error: llama runner process has terminated: signal: aborted") == [
        "Error: llama runner process has terminated: signal: aborted"
    ]


def test_a_markdown_table_keeps_its_first_column() -> None:
    table = "Item | Value\n---|---\nGPU | RX 7900 XTX\nGPU | RX 6800\n"
    assert without_log_prefixes(table) == table


@pytest.mark.parametrize(
    "table",
    [
        "| Device | Name |\n|---|---|\nGPU_0 | RX 7900 XTX\nGPU_1 | RX 6800\n",
        "ROCm | result\n---|---\nrocm-6 | works\nrocm-5 | fails\n",
    ],
)
def test_a_table_s_numbered_first_cells_are_kept(table: str) -> None:
    # a replica number alone took a table's first column off: which ROCm works was lost
    assert without_log_prefixes(table) == table


def test_a_compose_log_next_to_a_table_is_still_read() -> None:
    text = "GPU | RX 7900 XTX\n---|---\n\n```\nollama-1  | Error: no compatible GPUs were discovered\nollama-1  | done\n```\n"
    assert "\nError: no compatible GPUs were discovered\ndone\n" in without_log_prefixes(text)


def test_a_name_and_a_pipe_on_one_line_is_not_a_compose_prefix() -> None:
    # one line, a name without compose's replica number: a sentence or a table row as likely as a service's log
    assert without_log_prefixes("torch  | 2.5.1+rocm6.2") == "torch  | 2.5.1+rocm6.2"


@pytest.mark.parametrize(
    "kept",
    [
        # a shell's pipe after a bare command, typed twice: the command and its filter are what was run
        "rocminfo | grep gfx\n  Name:                    gfx1100\nrocminfo | grep Marketing\n  Marketing Name:          AMD Radeon RX 7900 XTX",
        "dmesg | grep -i amdgpu\ndmesg | grep -i kfd",
        "env | grep HSA\nenv | grep ROCR",
        # a logger's own level column ("{level: <8} | {message}"): the program's line
        "ERROR    | RuntimeError: HIP error: invalid device function\nERROR    | failed\nINFO     | done",
    ],
)
def test_a_pipe_after_a_command_or_a_level_column_is_not_a_compose_prefix(kept: str) -> None:
    assert without_log_prefixes(kept) == kept


def test_compose_v1_s_longest_name_with_one_space_is_taken_off_by_its_replica_number() -> None:
    assert _texts("web_1 | Traceback (most recent call last):\nweb_1 | RuntimeError: x") == [
        "Traceback (most recent call last):", "RuntimeError: x"]


def test_a_quoted_compose_log_keeps_its_quote_marker() -> None:
    blocks = split_blocks("My log:\n\n> ollama-1  | Error: no compatible GPUs were discovered\n> ollama-1  | done\n")
    quoted = next(block for block in blocks if block.lines[0].raw.startswith(">"))
    assert [line.text for line in quoted.lines][:2] == ["Error: no compatible GPUs were discovered", "done"]
    assert all(line.raw.startswith(">") for line in quoted.lines[:2])


def test_podman_compose_s_bracketed_name_and_vllm_s_process_are_taken_off() -> None:
    log = (
        "[vllm] | (EngineCore pid=344) ERROR 08-27 08:52:59 [core.py:1346] raise e from None\n"
        "[vllm] | (EngineCore pid=344) Traceback (most recent call last):\n"
        "(APIServer pid=1)   File \"<frozen runpy>\", line 198, in _run_module_as_main\n"
        "(VllmWorker rank=1 pid=839) ERROR 10-24 13:48:14 [multiproc_executor.py:514] WorkerProc failed to start.\n"
    )
    assert _texts(log) == ["ERROR 08-27 08:52:59 [core.py:1346] raise e from None", "Traceback (most recent call last):",
                           "  File \"<frozen runpy>\", line 198, in _run_module_as_main",
                           "ERROR 10-24 13:48:14 [multiproc_executor.py:514] WorkerProc failed to start."]


def test_a_parenthesis_without_a_pid_is_not_a_process_prefix() -> None:
    for line in ("(venv) user@box:~$ python main.py", "(APIServer) started", "(pid 123) crashed"):
        assert without_log_prefixes(line) == line


# --- journalctl, container and ComfyUI times ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "prefix",
    ["Jun 19 14:38:07 ai-llm ollama[15932]: ", "Mär 08 02:15:09 evo comfy-ui[301326]: ", "ago 02 20:27:15 klaus-Delta ollama[78976]: "],
)
def test_a_journal_prefix_with_the_program_pid_is_taken_off(prefix: str) -> None:
    assert _texts(prefix + "time=2024-06-19T14:38:07.789Z level=INFO source=amd_linux.go msg=\"amdgpu is supported\"") == [
        "time=2024-06-19T14:38:07.789Z level=INFO source=amd_linux.go msg=\"amdgpu is supported\""
    ]


def test_a_kernel_line_from_the_journal_keeps_what_the_kernel_said() -> None:
    log = "Jun 01 12:00:00 box kernel: amdgpu 0000:03:00.0: amdgpu: Fatal error during GPU init\nJun 01 12:00:00 box kernel: amdgpu: probe of 0000:03:00.0 failed with error -22\n"
    assert _texts(log)[0] == "amdgpu 0000:03:00.0: amdgpu: Fatal error during GPU init"


def test_a_date_and_time_a_person_writes_before_a_sentence_is_kept() -> None:
    line = "Jun 19 14:38:07 was when it last worked"
    assert without_log_prefixes(line) == line


def test_the_times_docker_puts_first_are_taken_off() -> None:
    log = "2024-06-19T14:38:07.789123456Z INFO loading\n2024-06-19T14:38:07.789123456Z     File \"x.py\", line 1\n"
    assert _texts(log) == ["INFO loading", "    File \"x.py\", line 1"]
    desktop = "2025-01-17 20:40:33 2025/01/18 01:40:33 routes.go:1187: INFO server config\n2025-01-17 20:40:34 level=INFO msg=x\n"
    assert _texts(desktop)[0] == "2025/01/18 01:40:33 routes.go:1187: INFO server config"


@pytest.mark.parametrize(
    "kept",
    [
        "2024-05-02 10:14:07,512 - root - INFO - Device: cuda:0 AMD Radeon RX 7900 XTX : native\n2024-05-02 10:14:08,512 - root - INFO - x",
        "2024-06-01 12:00:00\n2024-06-02 12:00:00",  # times alone: values a person lists
        "Date: 2024-06-01 12:00:00 upgrade rocm 6.1 -> 6.2",
        "** ComfyUI startup time: 2026-01-29 17:04:56.240",
        "2024-06-01 12:00:00 upgraded rocm-hip-runtime to 6.2",  # one line without docker's fraction: a value someone reports
    ],
)
def test_a_program_s_own_time_and_a_time_someone_reports_are_kept(kept: str) -> None:
    assert without_log_prefixes(kept) == kept


def test_comfyui_s_log_times_are_taken_off_and_a_glued_time_is_cut_out() -> None:
    log = (
        "[2026-03-03 12:51:32.116] model_type FLOW\n"
        "[2026-01-29 17:04:49.071] [info]  Adding extra search path custom_nodes\n"
        "2026-07-11T14:06:46.577801 - [INFO] Prompt executed\n"
        "Installed version of comfyui-frontend-package: 1.23.42025-06-29T14:57:59.550991 - \n"
    )
    assert _texts(log) == ["model_type FLOW", "Adding extra search path custom_nodes", "[INFO] Prompt executed",
                           "Installed version of comfyui-frontend-package: 1.23.4"]


# --- terminal escapes and HTML -------------------------------------------------------------------------------------


def test_colour_codes_are_taken_off_with_or_without_their_escape() -> None:
    assert normalise("\x1b[32mINFO\x1b[0m loaded \x1b[1;31mRuntimeError\x1b[0m: HIP error") == "INFO loaded RuntimeError: HIP error"
    assert normalise("[32mINFO[0m loaded [1;31mRuntimeError[0m: HIP error") == "INFO loaded RuntimeError: HIP error"


@pytest.mark.parametrize("kept", ["took [5m 30s] to load", "see [K] in the table", "pick [1m] or [2m]", "a[0] = 1"])
def test_brackets_a_person_writes_are_kept_in_a_paste_with_no_bare_reset(kept: str) -> None:
    assert without_terminal_and_html_marks(kept) == kept


def test_a_bracketed_word_stays_whole_in_a_paste_whose_colours_lost_their_escape() -> None:
    # "[m" and "[K" took the first letter of "[model_runner.py:1001]", "[multiproc_executor.py:514]", "[Kernel]"
    log = "[32mINFO[0m 10-24 13:48:14 [model_runner.py:1001] Loading model\n[1;31mERROR[0m [multiproc_executor.py:514] [Kernel] [KFD]"
    assert normalise(log) == "INFO 10-24 13:48:14 [model_runner.py:1001] Loading model\nERROR [multiproc_executor.py:514] [Kernel] [KFD]"
    assert normalise("[?25l[2K[0mDownloading 45%") == "Downloading 45%"


def test_a_line_break_tag_ending_a_line_goes_and_one_inside_a_line_stays() -> None:
    assert normalise("GPU: RX 7900 XTX<br>\nOS: Ubuntu 24.04 <br/>") == "GPU: RX 7900 XTX\nOS: Ubuntu 24.04"
    assert normalise("a<br>b") == "a<br>b"


def test_html_entities_are_read_once_as_the_ascii_they_stand_for() -> None:
    assert normalise("RuntimeError: &quot;HIP&quot; &gt; &#39;x&#39; &amp;&amp; &amp;gt;") == "RuntimeError: \"HIP\" > 'x' && &gt;"
    assert normalise("&#200; &#x41; &foo;") == "&#200; A &foo;"  # a number beyond ASCII, an unknown name: as written


def test_an_escaped_tag_stays_text_and_opens_no_section() -> None:
    # a <pre> block on GitHub shows "&lt;summary&gt;" as text: decoded it made a summary that put the next block in the past
    text = "<pre>\n&lt;summary&gt;Before the update&lt;/summary&gt;\n</pre>\n\n```\nRuntimeError: No HIP GPUs are available\n```\n"
    assert "&lt;summary>Before the update&lt;/summary>" in normalise(text)
    assert normalise("&#60;details&#62; &lt;br&gt; a &lt; b") == "&#60;details> &lt;br> a < b"
    assert all(block.scope == "current" for block in split_blocks(text))


def test_a_quote_marker_stays_a_quote_marker() -> None:
    blocks = split_blocks("I saw this:\n\n> ERROR: no HIP GPUs are available\n")
    assert blocks[-1].lines[0].text == "ERROR: no HIP GPUs are available"
    assert blocks[-1].lines[0].raw.startswith(">")


# --- what is content stays ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "ERROR: Could not find a version that satisfies the requirement torch",
        "ERROR: No matching distribution found for torch",
        "export PATH=$PATH:/opt/rocm/bin",
        "the card cost $500 and ROCm 6.2 does not see it",
        "PS: I also tried ROCm 6.2",
        "WARNING  | this line names a level, once",
    ],
)
def test_a_line_whose_head_is_content_reads_as_written(line: str) -> None:
    assert _texts(line) == [line]


def test_a_report_pasted_from_a_compose_log_reads_as_the_plain_log() -> None:
    plain = "```\nrocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: Illegal seek for GPU arch : gfx1035\n```\n"
    for prefix in ("ollama-1  | ", "Jun 19 14:38:07 ai-llm ollama[15932]: ", "2024-06-19T14:38:07.789123456Z ", "[2026-03-03 12:51:32.116] "):
        prefixed = plain.replace("rocBLAS", prefix + "rocBLAS")
        assert ingest(prefixed).facts.symptoms.signatures.value == ingest(plain).facts.symptoms.signatures.value, prefix
        assert [a.gfx.value for a in ingest(prefixed).facts.gpus.agents] == [a.gfx.value for a in ingest(plain).facts.gpus.agents]


def test_a_long_compose_log_is_read_in_linear_time() -> None:
    # each name's lines were counted once per line (names.count): 150,000 lines took 334 s; 40,000 about 25 s. CPU
    # seconds, not wall time: on a shared machine the wall clock counts the other processes too
    import time

    started = time.process_time()
    split_blocks("ollama  | x\n" * 20_000 + "ERROR  | y\n" * 20_000)
    assert time.process_time() - started < 8


@pytest.mark.parametrize(
    "prefix",
    ["ollama-1  | ", "[vllm] | ", "Jun 19 14:38:07 ai-llm ollama[15932]: ", "2024-06-19T14:38:07.789123456Z ",
     "[2026-03-03 12:51:32.116] ", "(EngineCore pid=344) ", "\x1b[32m", "[32m"],
)
def test_every_line_keeps_its_number_in_the_user_s_paste(prefix: str) -> None:
    # findings cite "paste:block B line N": N is the user's line whatever was taken off it
    plain = "title\r\n\r\n```\r\nRuntimeError: HIP error: invalid device function &amp; more<br>\r\n\r\nTraceback (most recent call last):[0m\r\n```\r\nthanks\r\n"
    prefixed = plain.replace("RuntimeError", prefix + "RuntimeError").replace("Traceback", prefix + "Traceback")
    numbers = [(line.number, line.text) for block in split_blocks(prefixed) for line in block.lines]
    assert [n for n, _ in numbers] == [1, 4, 5, 6, 8]
    assert numbers[1][1] == "RuntimeError: HIP error: invalid device function & more"
