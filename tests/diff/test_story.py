"""A paste holding a before and an after state (two rocm-doctor reports, one after the other) gets the
same "what changed" section as ``diff``: in ``check --from`` and as ``diff --from``'s default."""

from __future__ import annotations

import json
from pathlib import Path

from rocm_doctor.diff.story import before_and_after, states_in_paste

from report_pairs import load_pairs  # type: ignore[import-not-found]

PAIR = next(p for p in load_pairs() if p["id"] == "therock-7861-torch-rocm7.14.1-gfx1201")


def _story(run_cli, tmp_path: Path) -> Path:
    texts = []
    for side in ("before", "after"):
        facts = tmp_path / f"{side}.json"
        facts.write_text(PAIR[f"{side}_facts"].to_json(), encoding="utf-8")
        shown = run_cli("report", "--facts", str(facts))
        assert shown.exit_code == 0, shown.stderr
        texts.append(shown.stdout)
    path = tmp_path / "thread.md"
    path.write_text("It worked with this:\n\n" + texts[0] + "\nAfter updating torch it fails:\n\n" + texts[1], encoding="utf-8")
    return path


def test_check_from_a_paste_with_two_states_shows_what_changed_with_the_regression(run_cli, tmp_path: Path) -> None:
    shown = run_cli("check", "--from", str(_story(run_cli, tmp_path)))
    out = shown.stdout
    assert "What changed from the paste's first state to its last state:" in out
    assert "your update of torch from 2.12.0+rocm7.14.0 to 2.12.0+rocm7.14.1 matches the known regression" in out
    assert "1. [Python stack] torch: 2.12.0+rocm7.14.0 -> 2.12.0+rocm7.14.1  <- known regression" in out


def test_diff_from_a_paste_with_two_states_compares_its_first_with_its_last(run_cli, tmp_path: Path) -> None:
    shown = run_cli("diff", "--from", str(_story(run_cli, tmp_path)), "--json")
    assert shown.exit_code == 1, shown.stderr
    document = json.loads(shown.stdout)
    assert document["before"]["label"] == "the paste's first state"
    assert [c["what"] for c in document["changes"]] == ["torch", "torchvision"]


def test_a_paste_with_one_state_tells_no_story(run_cli, tmp_path: Path) -> None:
    facts = tmp_path / "after.json"
    facts.write_text(PAIR["after_facts"].to_json(), encoding="utf-8")
    one = run_cli("report", "--facts", str(facts)).stdout
    assert before_and_after(states_in_paste(one)) is None
    path = tmp_path / "one.md"
    path.write_text(one, encoding="utf-8")
    assert "What changed" not in run_cli("check", "--from", str(path)).stdout


def test_states_that_say_when_they_were_gathered_are_ordered_by_that_time() -> None:
    early = PAIR["before_facts"].model_copy(update={"meta": PAIR["before_facts"].meta.model_copy(update={"gathered_at": "2026-09-01T10:00:00+00:00"})})
    late = PAIR["after_facts"].model_copy(update={"meta": PAIR["after_facts"].meta.model_copy(update={"gathered_at": "2026-09-07T10:00:00+00:00"})})
    assert before_and_after([late, early]) == (early, late)
    assert before_and_after([PAIR["after_facts"], PAIR["before_facts"]]) == (PAIR["after_facts"], PAIR["before_facts"])
