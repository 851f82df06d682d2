"""One argument quoted for each shell: what the shell would read as syntax is never left bare."""

from __future__ import annotations

import shlex
import subprocess

import pytest
from hypothesis import given, strategies as st

from rocm_doctor.shells import SHELLS, quote_argv, quote_word

CMD_SYNTAX = set('&|<>^()%!,;= \t"')


@pytest.mark.parametrize("word", [r"C:\x&calc.exe", "numpy<2", "a|b", "(x)", "a b", 'say "hi"', "", "a,b", "100%"])
def test_a_cmd_word_with_cmd_syntax_is_double_quoted(word: str) -> None:
    quoted = quote_word("cmd", word)
    assert quoted.startswith('"') and quoted.endswith('"')


@given(st.text(alphabet=st.characters(blacklist_categories=["Cs", "Cc"]), max_size=30))
def test_cmd_quoting_round_trips_through_the_c_runtime_argv_rules(word: str) -> None:
    # subprocess.list2cmdline is the inverse of the MS C runtime's parsing; our quoted form must parse back
    # to the same word by those rules: outside the quotes nothing cmd reads as syntax is left.
    quoted = quote_word("cmd", word)
    if not (quoted.startswith('"') and quoted.endswith('"')):
        assert not (set(quoted) & CMD_SYNTAX) and quoted == word
    else:
        body = quoted[1:-1]
        assert _msvcrt_unquote(body) == word


def _msvcrt_unquote(body: str) -> str:
    """The MS C runtime's reading of the inside of one double-quoted argument."""
    out, backslashes, i = [], 0, 0
    while i < len(body):
        char = body[i]
        if char == "\\":
            backslashes += 1
        elif char == '"':
            out.append("\\" * (backslashes // 2))
            assert backslashes % 2 == 1, "an unescaped quote would end the argument"
            out.append('"')
            backslashes = 0
        else:
            out.append("\\" * backslashes + char)
            backslashes = 0
        i += 1
    assert backslashes % 2 == 0, "a trailing backslash would escape the closing quote"
    out.append("\\" * (backslashes // 2))
    return "".join(out)


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


def test_docker_run_keeps_each_flag_with_its_value_when_dropping_repeats() -> None:
    from rocm_doctor.fix.dockerrun import DockerRun

    run = DockerRun(image="img", devices=["/dev/kfd"], groups=["video"], environment={"A": "1"},
                    extra_flags=["-e", "B=2", "--shm-size", "8g", "-e", "B=2", "--ipc=host"])
    flags = run.flags()
    assert flags.count("-e") == 2 and flags[flags.index("B=2") - 1] == "-e"
    assert flags.count("--shm-size") == 1 and flags.count("--ipc=host") == 1
