"""Derived facts about the installed torch (rocm_doctor/judge/derived_facts/torch.py)."""

from __future__ import annotations

from tests.judge._derived_helpers import K, derived

ABSENT = {"status": "absent", "source": "test"}


def torch(version: str, rocm: str = None, flavour: str = "rocm", distributor: str = "pytorch.org", **extra):  # type: ignore[assignment]
    data = {"version": K(version), "flavour": K(flavour), "rocm_version": K(rocm) if rocm else ABSENT,
            "distributor": K(distributor)}
    data.update(extra)
    return {"torch": data}


def test_release_series_and_nightly_come_from_the_version() -> None:
    assert derived("derived.torch_release", torch("2.5.1+rocm6.2", "6.2")).value == "2.5.1"
    assert derived("derived.torch_series", torch("2.10.0+rocm7.0", "7.0")).value == "2.10"
    assert derived("derived.torch_is_nightly", torch("2.6.0.dev20241015+rocm6.2", "6.2")).value is True
    assert derived("derived.torch_is_nightly", torch("2.8.0a0+gitfc14c65", "6.4", distributor="amd")).value is False
    assert derived("derived.torch_release", {"torch": {"version": ABSENT}}).status == "absent"
    assert derived("derived.torch_release", {"torch": {"version": K("not a version")}}).status == "unknown"


def test_pytorch_org_wheel_is_recognised_by_distributor_and_variant() -> None:
    assert derived("derived.torch_is_pytorch_org_rocm", {}).value is True
    assert derived("derived.torch_is_pytorch_org_rocm", torch("2.6.0+rocm6.2.4", "6.2.4")).value is True
    assert derived("derived.torch_is_pytorch_org_rocm", torch("2.12.0+rocm7.14.1", "7.14.1", distributor="amd")).value is False
    unknown_distributor = {"torch": {"version": K("2.12.0+rocm7.14.1"), "distributor": {"status": "unknown"}}}
    assert derived("derived.torch_is_pytorch_org_rocm", unknown_distributor).value is False
    assert derived("derived.torch_is_pytorch_org_rocm", torch("2.5.1+cu124", flavour="cuda", distributor="pypi")).value is False


def test_wheel_rocm_compared_with_the_system() -> None:
    older_system = {"rocm": {"version": K("6.2.0")}}
    assert derived("derived.torch_rocm_series", torch("2.6.0+rocm6.2.4", "6.2.4")).value == "6.2"
    assert derived("derived.system_rocm_series", older_system).value == "6.2"
    assert derived("derived.torch_rocm_matches_system", {}).value is True
    assert derived("derived.torch_rocm_matches_system", older_system).value is False
    assert derived("derived.torch_rocm_newer_than_system", older_system).value is True
    assert derived("derived.torch_rocm_major_differs", older_system).value is True
    assert derived("derived.torch_rocm_major_differs", {"rocm": {"version": K("7.1.1")}}).value is False
    assert derived("derived.torch_rocm_series", torch("2.5.1+cu124", flavour="cuda")).status == "absent"
    assert derived("derived.torch_rocm_matches_system", {"rocm": {"version": {"status": "failed", "reason": "x"}}}).status == "unknown"


def test_python_against_the_release_matrix() -> None:
    py37_cpu = {**torch("2.0.1+cpu", flavour="cpu"), "python": {"version": K("3.7.16")}}
    assert derived("derived.python_has_wheel_for_torch", py37_cpu).value is False
    assert derived("derived.torch_rocm_pythons", py37_cpu).value == ["3.8", "3.9", "3.10", "3.11"]
    assert derived("derived.python_has_wheel_for_torch", {}).value is True
    assert derived("derived.python_in_newest_rocm_torch", {"python": {"version": K("3.9.18")}}).value is False
    assert derived("derived.newest_rocm_torch_for_python", {"python": {"version": K("3.9.18")}}).value == "2.8"
    assert derived("derived.newest_rocm_torch_for_python", {"python": {"version": K("3.6.9")}}).status == "absent"
    assert derived("derived.torch_rocm_pythons", torch("1.10.0+rocm4.2", "4.2")).status == "absent"


def test_torchvision_and_torchaudio_pairing() -> None:
    assert derived("derived.torchvision_expected", {}).value == "0.28"
    assert derived("derived.torchvision_matches_torch", {}).value is True
    assert derived("derived.torchvision_matches_torch", {"torch": {"torchvision_version": K("0.20.1+rocm6.2")}}).value is False
    nightly = torch("2.6.0.dev20240913+rocm6.2", "6.2", torchvision_version=K("0.20.0.dev20240913+rocm6.2"))
    assert derived("derived.torchvision_matches_torch", nightly).status == "unknown"
    assert derived("derived.torchaudio_matches_torch", {}).status == "absent"
    paired = torch("2.5.1+rocm6.2", "6.2", torchaudio_version=K("2.4.1+rocm6.1"))
    assert derived("derived.torchaudio_matches_torch", paired).value is False


def test_numpy_major_and_numpy2_support() -> None:
    assert derived("derived.numpy_major", {}).value == 2
    assert derived("derived.numpy_major", {"packages": {"installed": K({"torch": "2.13.0"})}}).status == "absent"
    assert derived("derived.torch_supports_numpy2", torch("2.2.2+rocm5.7", "5.7")).value is False
    assert derived("derived.torch_supports_numpy2", {}).value is True


def test_xformers_release_pins_the_torch_release_its_wheels_were_built_for() -> None:
    def with_xformers(xformers: str, version: str = "2.5.1+rocm6.2"):
        return {**torch(version, "6.2"), "packages": {"installed": K({"torch": version, "xformers": xformers})}}

    assert derived("derived.xformers_expected_torch", with_xformers("0.0.28.post3")).value == "2.5.1"
    assert derived("derived.xformers_matches_torch", with_xformers("0.0.28.post3")).value is True
    assert derived("derived.xformers_matches_torch", with_xformers("0.0.28.post1", "2.3.0+rocm5.7")).value is False
    # stable-ABI releases load into torch 2.10 and later
    assert derived("derived.xformers_expected_torch", with_xformers("0.0.35", "2.11.0+rocm7.2")).value == "2.10.0 or later"
    assert derived("derived.xformers_matches_torch", with_xformers("0.0.35", "2.11.0+rocm7.2")).value is True
    assert derived("derived.xformers_matches_torch", with_xformers("0.0.34", "2.9.0+rocm6.4")).value is False
    # a source build, an index build (its pin may differ from the PyPI release's), a release the CHANGELOG does not
    # pin, a nightly torch, no xformers: not judged
    assert derived("derived.xformers_matches_torch", with_xformers("0.0.26+cu118", "2.2.2+cu118")).status == "unknown"
    assert derived("derived.xformers_matches_torch", with_xformers("0.0.30+6440945.d20250113")).status == "unknown"
    assert derived("derived.xformers_matches_torch", with_xformers("0.0.29")).status == "unknown"
    assert derived("derived.xformers_matches_torch", with_xformers("0.0.28.post3", "2.6.0.dev20241101+rocm6.2")).status == "unknown"
    assert derived("derived.xformers_matches_torch", {"packages": {"installed": K({"torch": "2.5.1"})}}).status == "absent"


def test_xformers_0_0_26_post1_is_the_pypi_release_for_torch_2_3_0_and_0_0_26_is_not_pinned() -> None:
    # rev49b: the CHANGELOG's [0.0.26] entry is PyPI's 0.0.26.post1 (torch 2.3.0); the v0.0.26 tag built against 2.2.2
    def with_xformers(xformers: str, version: str = "2.3.0+rocm6.0"):
        return {**torch(version, "6.0"), "packages": {"installed": K({"torch": version, "xformers": xformers})}}

    assert derived("derived.xformers_expected_torch", with_xformers("0.0.26.post1")).value == "2.3.0"
    assert derived("derived.xformers_matches_torch", with_xformers("0.0.26.post1")).value is True
    assert derived("derived.xformers_matches_torch", with_xformers("0.0.26.post1", "2.2.2+rocm5.7")).value is False
    assert derived("derived.xformers_matches_torch", with_xformers("0.0.26", "2.2.2+rocm5.7")).status == "unknown"
    # 0.0.28.post1's pin comes from its tag's workflow (the CHANGELOG names none)
    assert derived("derived.xformers_expected_torch", with_xformers("0.0.28.post1")).value == "2.4.1"


def test_rd878_message_does_not_say_the_operators_never_load_in_another_release() -> None:
    # rev49b: across a patch release xformers' operators sometimes load (facebookresearch/xformers#1096)
    from rocm_doctor.judge.loader import load_rules

    rule = next(r for r in load_rules([], use_env=False) if r.id == "RD878")
    assert "do not load into another release" not in rule.message
    assert "within the same minor release" in rule.message


def test_companions_of_another_gpu_build_compares_backends_not_versions() -> None:
    # learn52b: pytorch/audio#1750 - torchaudio +rocm4.1 beside torch +cu111
    cuda = torch("1.10.0.dev20210901+cu111", flavour="cuda",
                 torchvision_version=K("0.11.0.dev20210901+cu111"), torchvision_flavour=K("cuda"),
                 torchaudio_version=K("0.10.0.dev20210901+rocm4.1"), torchaudio_flavour=K("rocm"))
    assert derived("derived.companions_of_another_gpu_build", cuda).value == "torchaudio 0.10.0.dev20210901+rocm4.1 (rocm)"
    # the flavour comes from the local tag when the fact is not read
    tag_only = torch("2.5.1+rocm6.2", "6.2", torchaudio_version=K("2.5.1+cu121"), torchaudio_flavour={"status": "unknown", "source": "test"})
    assert derived("derived.companions_of_another_gpu_build", tag_only).value == "torchaudio 2.5.1+cu121 (cuda)"
    # a CPU companion, the same build, and a CUDA torchvision beside a ROCm torch (RD141) are not named
    cpu_audio = torch("2.5.1+rocm6.2", "6.2", torchaudio_version=K("2.5.1+cpu"), torchaudio_flavour=K("cpu"))
    assert derived("derived.companions_of_another_gpu_build", cpu_audio).status == "absent"
    rd141 = torch("2.5.1+rocm6.2", "6.2", torchvision_version=K("0.20.1+cu121"), torchvision_flavour=K("cuda"))
    assert derived("derived.companions_of_another_gpu_build", rd141).status == "absent"
    assert derived("derived.companions_of_another_gpu_build", {}).status == "absent"
    unknown_torch = {"torch": {"flavour": {"status": "unknown", "source": "test"}}}
    assert derived("derived.companions_of_another_gpu_build", unknown_torch).status == "unknown"


def test_companions_of_another_gpu_build_leaves_both_companions_beside_a_rocm_torch_to_their_flavour_rules() -> None:
    # fix53: a CUDA torchaudio beside a ROCm torch fired RD830 (error) and RD142 (warning); torchvision was left out
    rd142 = torch("2.5.1+rocm6.2", "6.2", torchaudio_version=K("2.5.1+cu121"), torchaudio_flavour=K("cuda"))
    assert derived("derived.companions_of_another_gpu_build", rd142).status == "absent"
    xpu_vision = torch("2.5.1+rocm6.2", "6.2", torchvision_version=K("0.20.1+xpu"), torchvision_flavour=K("xpu"))
    assert derived("derived.companions_of_another_gpu_build", xpu_vision).status == "absent"
    # what RD141/RD142 cannot see (the flavour fact not read) stays RD830's, for either companion
    unread = {"status": "unknown", "source": "test"}
    vision_tag_only = torch("2.5.1+rocm6.2", "6.2", torchvision_version=K("0.20.1+cu121"), torchvision_flavour=unread)
    assert derived("derived.companions_of_another_gpu_build", vision_tag_only).value == "torchvision 0.20.1+cu121 (cuda)"


def test_companion_names_of_another_gpu_build_lists_the_packages_at_fault_with_the_first_ones_source() -> None:
    def pair(vision: str, audio: str):
        return torch("2.5.1+cpu", flavour="cpu",
                     torchvision_version={"status": "known", "value": vision, "source": "vision line"},
                     torchvision_flavour=K(vision.split("+")[1].rstrip(".0123456789").replace("cu", "cuda")),
                     torchaudio_version={"status": "known", "value": audio, "source": "audio line"},
                     torchaudio_flavour=K(audio.split("+")[1].rstrip(".0123456789").replace("cu", "cuda")))

    vision_only = derived("derived.companion_names_of_another_gpu_build", pair("0.20.1+rocm6.2", "2.5.1+cpu"))
    assert (vision_only.value, vision_only.source) == (["torchvision"], "vision line")
    assert derived("derived.companions_of_another_gpu_build", pair("0.20.1+rocm6.2", "2.5.1+cpu")).source == "vision line"
    audio_only = derived("derived.companion_names_of_another_gpu_build", pair("0.20.1+cpu", "2.5.1+rocm6.2"))
    assert (audio_only.value, audio_only.source) == (["torchaudio"], "audio line")
    both = derived("derived.companion_names_of_another_gpu_build", pair("0.20.1+rocm6.2", "2.5.1+cu121"))
    assert both.value == ["torchvision", "torchaudio"]
    assert derived("derived.companion_names_of_another_gpu_build", pair("0.20.1+cpu", "2.5.1+cpu")).status == "absent"


def test_torch_build_in_place_not_shown_when_no_build_is_read_or_only_a_rocm_build_asked_for() -> None:
    # fix53: RD575 and RD696 held this clause each; the ROCm build an image's tag or an --index-url named is the one
    # asked for, which a later install step may have replaced (meizhong986/WhisperJAV#120)
    def read(flavour, evidence):
        return {"torch": {"flavour": flavour, "flavour_evidence": evidence}}

    unread = {"status": "unknown", "source": "test"}
    for status in ("unknown", "absent", "failed"):
        assert derived("derived.torch_build_in_place_not_shown", read({"status": status, "source": "test"}, ABSENT)).value is True
    assert derived("derived.torch_build_in_place_not_shown", read(K("rocm"), K("intended"))).value is True
    for evidence in (K("shown"), K("stated"), ABSENT):
        assert derived("derived.torch_build_in_place_not_shown", read(K("rocm"), evidence)).value is False
    # a CPU or CUDA build asked for is judged as such (RD101, RD100/RD528), not as one not shown
    assert derived("derived.torch_build_in_place_not_shown", read(K("cpu"), K("intended"))).value is False
    assert derived("derived.torch_build_in_place_not_shown", read(K("cuda"), unread)).value is False
    assert derived("derived.torch_build_in_place_not_shown", read(K("rocm"), unread)).status == "unknown"
