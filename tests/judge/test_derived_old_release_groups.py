"""derived.video_group_as_old_release_asked (rocm_doctor/judge/derived_facts/old_release_groups.py): a user in video,
under a rocminfo of release 2.5 or older, is set up as that release asked."""

from __future__ import annotations

from tests.judge._derived_helpers import K, derived

PATH = "derived.video_group_as_old_release_asked"


def _facts(in_video: object, signatures: object) -> dict:
    return {"permissions": {"in_video_group": in_video}, "symptoms": {"signatures": signatures}}


def test_a_user_in_video_under_the_decimal_4104_status_is_set_up_as_the_old_release_asked() -> None:
    fact = derived(PATH, _facts(K(True), K(["hsa_status_4104"])))
    assert fact.status == "known" and fact.value is True


def test_a_user_not_in_video_under_the_decimal_status_is_not() -> None:
    assert derived(PATH, _facts(K(False), K(["hsa_status_4104"]))).status == "absent"


def test_a_user_in_video_under_a_current_rocminfo_is_not() -> None:
    # rocminfo from roc-2.6.0 on prints the status's name: HSA_STATUS_ERROR_OUT_OF_RESOURCES
    assert derived(PATH, _facts(K(True), K(["hsa_out_of_resources"]))).status == "absent"


def test_groups_not_shown_are_not_evidence_of_the_old_setup() -> None:
    unknown = {"status": "unknown", "reason": "not in the pasted report"}
    assert derived(PATH, _facts(unknown, K(["hsa_status_4104"]))).status == "absent"
