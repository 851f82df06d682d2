"""One argument quoted for each shell: what the shell would read as syntax is never left bare."""

from __future__ import annotations

import shlex
import subprocess

import pytest
from hypothesis import given, strategies as st

from rocm_doctor.shells import SHELLS, quote_argv, quote_word

def _cmd_reads(line: str) -> str:
    """What cmd.exe hands the program, by its documented rules: outside quotes ``^`` escapes the next
    character (and is removed), ``"`` toggles quoting and is kept, ``& | < >`` are operators; inside quotes
    everything is literal. An operator cmd would act on fails the test."""
    out, quoted, i = [], False, 0
    while i < len(line):
        char = line[i]
        if char == '"':
            quoted = not quoted
            out.append(char)
        elif quoted:
            out.append(char)
        elif char == "^":
            i += 1
            if i < len(line):
                out.append(line[i])
        else:
            assert char not in "&|<>", f"cmd would run {line[i:]!r} as a separate command or redirection"
            out.append(char)
        i += 1
    return "".join(out)


def _crt_split(line: str) -> list:
    """The MS C runtime's argv parsing (what python.exe and pip.exe see)."""
    words, current, in_word, quoted, i = [], [], False, False, 0
    while i < len(line):
        char = line[i]
        if char == "\\":
            start = i
            while i < len(line) and line[i] == "\\":
                i += 1
            count = i - start
            if i < len(line) and line[i] == '"':
                current.append("\\" * (count // 2))
                if count % 2:
                    current.append('"')
                    i += 1
            else:
                current.append("\\" * count)
            in_word = True
            continue
        if char == '"':
            quoted, in_word = not quoted, True
        elif char in " \t" and not quoted:
            if in_word:
                words.append("".join(current))
            current, in_word = [], False
        else:
            current.append(char)
            in_word = True
        i += 1
    if in_word:
        words.append("".join(current))
    return words


ISSUE_20_REQUIREMENT = "bar; os_name != 'x\"&calc&\"y'"
"""Passes `rules validate`; quoted with \\" it left &calc& outside cmd's quotes (issue 20)."""


@pytest.mark.parametrize("word", [r"C:\x&calc.exe", "numpy<2", "a|b", "(x)", "a b", 'say "hi"', "", "a,b", "x^y",
                                  ISSUE_20_REQUIREMENT, 'a\\" & calc', "trailing\\", "!x!"])
def test_a_cmd_argument_reaches_the_program_whole_with_no_bare_cmd_operator(word: str) -> None:
    line = quote_argv("cmd", ["pip", "install", word])
    assert _crt_split(_cmd_reads(line)) == ["pip", "install", word]


@given(st.text(alphabet=st.characters(blacklist_categories=["Cs", "Cc"], blacklist_characters="%"), max_size=30))
def test_cmd_quoting_round_trips_through_cmd_and_the_c_runtime(word: str) -> None:
    line = quote_argv("cmd", [r"C:\Program Files\Python\python.exe", "-m", "pip", "install", word])
    assert _crt_split(_cmd_reads(line)) == [r"C:\Program Files\Python\python.exe", "-m", "pip", "install", word]


@pytest.mark.parametrize("word", ["100%", "%PATH%", "a\nb", "a\rb"])
def test_a_cmd_argument_cmd_cannot_carry_is_refused_with_a_note(word: str) -> None:
    from rocm_doctor.errors import InputError

    with pytest.raises(InputError, match="cmd.exe"):
        quote_argv("cmd", ["pip", "install", word])


@pytest.mark.parametrize("word", ["a,b", "@args", "x;y", "$env:X", "100%"])
def test_a_powershell_word_that_powershell_would_parse_is_single_quoted(word: str) -> None:
    assert quote_word("powershell", word).startswith("'")


@given(st.lists(st.text(alphabet=st.characters(blacklist_categories=["Cs", "Cc"]), min_size=1, max_size=20), min_size=1, max_size=4))
def test_posix_commands_split_back_into_the_same_words(argv) -> None:
    assert shlex.split(quote_argv("bash", argv)) == argv


def test_every_shell_has_a_quoting() -> None:
    for shell in SHELLS:
        assert quote_word(shell, "a b") != "a b"


def test_a_docker_run_flag_from_a_fact_is_shown_quoted() -> None:
    from rocm_doctor.model.remedy import Step
    from rocm_doctor.render.remedy import step_lines

    step = Step(kind="docker", where="environment", where_text="", text="t", finding_ids=["RD1"],
                run_flags=["-e", "X=/opt/py; touch /tmp/PWN $(id)"])
    (line,) = [l for l in step_lines(step, "bash", 200, "") if "docker run" in l]
    words = shlex.split(line.removesuffix(" ..."))
    assert words == ["docker", "run", "-e", "X=/opt/py; touch /tmp/PWN $(id)"]
    subprocess.run(["sh", "-n", "-c", line.removesuffix(" ...")], check=True, timeout=10)


FAKE_HOST = "getent() { echo 'render:x:989:'; }; docker() { printf '%s\\n' \"$@\"; }; "
"""A host whose render group is 989, and a docker that prints its arguments one a line."""


def _as_bash_runs_it(line: str) -> list:
    subprocess.run(["bash", "-n", "-c", line], check=True, timeout=10)
    done = subprocess.run(["bash", "-c", FAKE_HOST + line], capture_output=True, text=True, check=True, timeout=10)
    return done.stdout.splitlines()


def test_docker_run_line_leaves_the_render_group_id_substitution_to_the_shell() -> None:
    from rocm_doctor.model.remedy import Step
    from rocm_doctor.render.remedy import step_lines

    step = Step(kind="docker", where="environment", where_text="", text="t", finding_ids=["RD863"],
                run_flags=["--group-add=video", "--group-add=$(getent group render | cut -d: -f3)"])
    (line,) = [l.strip() for l in step_lines(step, "bash", 200, "") if "docker run" in l]
    assert _as_bash_runs_it(line.removesuffix(" ...")) == ["run", "--group-add=video", "--group-add=989"]


def test_a_run_flag_that_only_starts_like_the_group_id_substitution_stays_quoted() -> None:
    from rocm_doctor.model.remedy import Step
    from rocm_doctor.render.remedy import step_lines

    flag = "--group-add=$(getent group render | cut -d: -f3); touch /tmp/PWN"
    step = Step(kind="docker", where="environment", where_text="", text="t", finding_ids=["RD1"], run_flags=[flag])
    (line,) = [l.strip() for l in step_lines(step, "bash", 200, "") if "docker run" in l]
    assert _as_bash_runs_it(line.removesuffix(" ...")) == ["run", flag]


def test_docker_run_line_for_fish_runs_the_substitution_in_bash() -> None:
    from rocm_doctor.shells import docker_run_line

    line = docker_run_line("fish", ["docker", "run", "--group-add=$(getent group render | cut -d: -f3)"])
    assert shlex.split(line)[:2] == ["bash", "-c"]
    assert _as_bash_runs_it(shlex.split(line)[2]) == ["run", "--group-add=989"]


def test_docker_run_command_keeps_a_rule_flags_group_id_substitution() -> None:
    from rocm_doctor.fix.dockerrun import DockerRun

    run = DockerRun(image="img", devices=["/dev/kfd"], groups=["video"],
                    extra_flags=["--group-add=$(getent group render | cut -d: -f3)"])
    assert "--group-add=989" in _as_bash_runs_it(run.command())


def test_docker_run_keeps_each_flag_with_its_value_when_dropping_repeats() -> None:
    from rocm_doctor.fix.dockerrun import DockerRun

    run = DockerRun(image="img", devices=["/dev/kfd"], groups=["video"], environment={"A": "1"},
                    extra_flags=["-e", "B=2", "--shm-size", "8g", "-e", "B=2", "--ipc=host"])
    flags = run.flags()
    assert flags.count("-e") == 2 and flags[flags.index("B=2") - 1] == "-e"
    assert flags.count("--shm-size") == 1 and flags.count("--ipc=host") == 1
