"""Rule files: a bad one gives ONE line naming the file, the line and the field."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from judge_helpers import FIXTURE_RULES
from rocm_doctor.errors import InputError
from rocm_doctor.judge.loader import RuleFileError, load_files, load_rule_file, load_rules

GOOD = """\
rules:
  - id: USR001
    name: shm-small
    severity: warning
    category: platform
    area: container
    when: {fact: host.shm_bytes, lt: 1073741824}
    title: Small /dev/shm
    message: "/dev/shm is {host.shm_bytes} bytes."
    explanation: DataLoader workers share tensors through /dev/shm.
    fixes:
      - kind: docker
        run_flags: ["--shm-size=8g"]
    references:
      - url: https://docs.docker.com/reference/cli/docker/container/run/
"""


def _write(tmp_path: Path, text: str, name: str = "user.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def _error(tmp_path: Path, text: str) -> str:
    path = _write(tmp_path, text)
    with pytest.raises(RuleFileError) as info:
        load_files([path], retired={})
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"{path}:")
    return message[len(str(path)) :]


def test_a_good_file_loads_with_its_source_line(tmp_path: Path) -> None:
    (rule,) = load_rule_file(_write(tmp_path, GOOD))
    assert (rule.id, rule.severity, rule.source_line) == ("USR001", "warning", 2)
    assert rule.fixes[0].run_flags == ["--shm-size=8g"]


def test_rule_file_error_is_an_input_error_with_exit_code_2() -> None:
    assert issubclass(RuleFileError, InputError)
    assert RuleFileError("x").exit_code == 2


def test_bad_fix_kind_names_line_rule_and_field(tmp_path: Path) -> None:
    text = GOOD.replace("kind: docker", "kind: dokcer")
    message = _error(tmp_path, text)
    # What follows the field is pydantic's wording: only the kinds it offers are ours to pin.
    assert message.startswith(":12: rule USR001: field 'fixes[0].kind': "), message
    assert all(kind in message for kind in ("env", "pip", "docker", "code", "manual")), message


def test_a_user_rule_without_action_defaults_by_severity(tmp_path: Path) -> None:
    (warning,) = load_rule_file(_write(tmp_path, GOOD))
    (note,) = load_rule_file(_write(tmp_path, GOOD.replace("severity: warning", "severity: info"), "note.yaml"))
    assert (warning.action, warning.effective_action) == (None, "triage")
    assert note.effective_action == "monitor"
    (stated,) = load_rule_file(_write(tmp_path, GOOD.replace("area: container", "action: isolate\n    area: container"), "s.yaml"))
    assert stated.effective_action == "isolate"


def test_unknown_action_names_line_rule_and_field(tmp_path: Path) -> None:
    message = _error(tmp_path, GOOD.replace("area: container", "action: drain\n    area: container"))
    assert message.startswith(":6: rule USR001: field 'action': "), message
    assert all(action in message for action in ("monitor", "config", "triage", "isolate", "reset")), message


def test_unknown_key_is_an_error_on_its_line(tmp_path: Path) -> None:
    text = GOOD.replace("    area: container\n", "    area: container\n    severty: error\n")
    assert _error(tmp_path, text) == ":7: rule USR001: field 'severty': unknown key"


def test_missing_field_points_at_the_rule(tmp_path: Path) -> None:
    text = GOOD.replace("    explanation: DataLoader workers share tensors through /dev/shm.\n", "")
    assert _error(tmp_path, text) == ":2: rule USR001: field 'explanation': required field is missing"


def test_rule_without_reference_is_rejected(tmp_path: Path) -> None:
    text = GOOD.split("    references:")[0] + "    references: []\n"
    assert ": rule USR001: field 'references':" in _error(tmp_path, text)


def test_unknown_fact_path_in_condition_names_the_condition_field(tmp_path: Path) -> None:
    text = GOOD.replace("host.shm_bytes, lt", "host.shm_size, lt")
    assert _error(tmp_path, text) == (
        ":7: rule USR001: field 'when.fact': unknown fact path: 'host' has no field 'shm_size'"
    )


def test_nested_condition_error_has_the_nested_line(tmp_path: Path) -> None:
    text = GOOD.replace(
        "    when: {fact: host.shm_bytes, lt: 1073741824}\n",
        "    when:\n      all:\n        - {fact: host.container, exists: true}\n        - {fact: host.shm_bytes, lt: 1g}\n",
    )
    assert _error(tmp_path, text) == ":10: rule USR001: field 'when.all[1].lt': lt takes a number"


def test_bad_placeholder_is_an_error(tmp_path: Path) -> None:
    text = GOOD.replace("{host.shm_bytes} bytes", "{host.shm} bytes")
    message = _error(tmp_path, text)
    assert message.startswith(":9: rule USR001: field 'message': placeholder {host.shm}:")


def test_gpu_placeholder_outside_for_each_is_an_error(tmp_path: Path) -> None:
    text = GOOD.replace("{host.shm_bytes} bytes", "{gpu.gfx}")
    assert "only allowed in a 'for_each: gpu' rule" in _error(tmp_path, text)


def test_duplicate_yaml_key_is_an_error(tmp_path: Path) -> None:
    text = GOOD.replace("    area: container\n", "    area: container\n    area: other\n")
    assert _error(tmp_path, text) == ":7: duplicate key 'area'"


def test_invalid_yaml_names_the_line(tmp_path: Path) -> None:
    text = GOOD.replace("    title: Small /dev/shm\n", "    title: [unclosed\n")
    assert _error(tmp_path, text).startswith(":9: not valid YAML")


def test_unknown_top_level_key(tmp_path: Path) -> None:
    assert _error(tmp_path, GOOD + "extras: 1\n") == ":16: unknown top-level key 'extras' (expected 'rules')"


def test_duplicate_ids_across_files_name_both_places(tmp_path: Path) -> None:
    first = _write(tmp_path, GOOD, "a.yaml")
    second = _write(tmp_path, GOOD.replace("shm-small", "shm-small-again"), "b.yaml")
    with pytest.raises(RuleFileError, match=rf"{second}:2: rule USR001: field 'id': duplicate id USR001, first defined at {first}:2"):
        load_files([first, second], retired={})


def test_duplicate_names_are_errors(tmp_path: Path) -> None:
    first = _write(tmp_path, GOOD, "a.yaml")
    second = _write(tmp_path, GOOD.replace("USR001", "USR002"), "b.yaml")
    with pytest.raises(RuleFileError, match="field 'name': duplicate name shm-small"):
        load_files([first, second], retired={})


def test_retired_id_may_not_be_used(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD)
    with pytest.raises(RuleFileError, match="USR001 is retired"):
        load_files([path], retired={"USR001": "rules/retired.yaml:5"})


def test_ids_and_names_have_a_format(tmp_path: Path) -> None:
    assert "ids look like RD101" in _error(tmp_path, GOOD.replace("USR001", "usr-1"))
    assert "names are kebab-case" in _error(tmp_path, GOOD.replace("shm-small", "Shm_Small"))


def test_env_and_flag_paths_add_rule_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env_dir = tmp_path / "env"
    env_dir.mkdir()
    _write(env_dir, GOOD, "one.yaml")
    flag_file = _write(tmp_path, GOOD.replace("USR001", "USR002").replace("shm-small", "shm-tiny"), "two.yml")
    monkeypatch.setenv("ROCM_DOCTOR_RULES", str(env_dir))
    ids = [r.id for r in load_rules([flag_file])]
    assert ids[-2:] == ["USR001", "USR002"]


def test_missing_rules_path_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(RuleFileError, match="no such rule file or directory"):
        load_rules([tmp_path / "nope.yaml"], use_env=False)


def test_the_fixture_rules_load() -> None:
    assert [r.id for r in load_files(FIXTURE_RULES, retired={})] == ["TST001", "TST002", "TST003"]
