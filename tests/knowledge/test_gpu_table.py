"""The GPU table and gfx arithmetic (rules/data/gpus.yaml, facts.md C and D)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rocm_doctor.data import load_table
from rocm_doctor.knowledge import gpu_table

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize(
    "version, gfx",
    [(90010, "gfx90a"), (90402, "gfx942"), (100300, "gfx1030"), (100306, "gfx1036"), (110001, "gfx1101"),
     (110501, "gfx1151"), (120001, "gfx1201"), (90012, "gfx90c")],
)
def test_target_version_and_gfx_name_round_trip(version, gfx):
    assert gpu_table.gfx_from_target_version(version) == gfx
    assert gpu_table.target_version_from_gfx(gfx) == version


def test_cpu_node_and_bad_names_have_no_gfx():
    assert gpu_table.gfx_from_target_version(0) is None
    assert gpu_table.gfx_from_target_version(91600) is None
    assert gpu_table.target_version_from_gfx("navi31") is None


def test_override_strings():
    assert gpu_table.override_string("gfx1030") == "10.3.0"
    assert gpu_table.override_string("gfx90a:sramecc+:xnack-") == "9.0.10"
    assert gpu_table.gfx_from_override("11.0.0") == "gfx1100"
    assert gpu_table.gfx_from_override("11.5.1") == "gfx1151"
    assert gpu_table.gfx_from_override("gfx1100") is None
    assert gpu_table.gfx_from_override("11.0") is None


def test_lookup_by_pci_id_accepts_any_spelling():
    model = gpu_table.lookup_pci("0x744C")
    assert model is not None and model.gfx == "gfx1100" and model.family == "rdna3" and not model.integrated
    assert gpu_table.lookup_pci(0x1586).gfx == "gfx1151"
    assert gpu_table.lookup_pci("1586").integrated is True
    assert gpu_table.lookup_pci("ffff") is None and gpu_table.lookup_pci("xyz") is None


def test_torchruntime_db_errors_are_not_copied():
    """facts.md C: Phoenix 164f is gfx1103, Krackan 1114 gfx1152, Mendocino 1506 gfx1036."""
    assert gpu_table.lookup_pci("164f").gfx == "gfx1103"
    assert gpu_table.lookup_pci("1114").gfx == "gfx1152"
    assert gpu_table.lookup_pci("1506").gfx == "gfx1036"
    assert gpu_table.lookup_pci("13c0").verified is False


def test_models_for_gfx_and_family():
    assert {m.device_id for m in gpu_table.models_for_gfx("gfx1201")} == {"0x7550", "0x7551"}
    assert gpu_table.family_of("gfx1151") == "rdna3.5" and gpu_table.family_of("gfx942") == "cdna3"
    assert gpu_table.family_of("gfx9999") is None
    assert gpu_table.vendor_name("0x10DE") == "NVIDIA" and gpu_table.vendor_name("0x1af4") is None


def test_every_table_row_names_its_source_and_a_known_target():
    table = load_table("gpus")
    targets = {row["gfx"] for row in table["targets"]}
    for row in table["targets"] + table["devices"]:
        assert row.get("source"), row
    for row in table["devices"]:
        assert row["gfx"] in targets, row
        assert gpu_table.target_version_from_gfx(row["gfx"]) is not None


@pytest.mark.parametrize(
    "name, gfx",
    [("AMD Radeon RX 6700 XT", "gfx1031"), ("RX580", "gfx803"), ("Radeon RX 470/480/570/570X/580/580X/590", "gfx803"),
     ("Radeon RX Vega 64", "gfx900"), ("7900xtx", "gfx1100")],
)
def test_marketing_names_give_the_table_row_of_their_gfx(name, gfx):
    assert gpu_table.model_for_name(name).gfx == gfx


def test_names_without_a_single_product_give_no_row():
    assert gpu_table.model_for_name("AMD Radeon Graphics") is None
    assert gpu_table.model_for_name("Navi") is None
    assert gpu_table.name_key("AMD Radeon(TM) RX 6700 XT") == "6700xt"


@FUZZ
@given(st.text(max_size=300))
def test_gpu_name_lookup_never_raises(name):
    model = gpu_table.model_for_name(name)
    assert model is None or model.gfx.startswith("gfx")


@pytest.mark.parametrize(
    "device_id, gfx",
    [("15dd", "gfx902"), ("15d8", "gfx902"), ("1636", "gfx90c"), ("1638", "gfx90c"), ("15e7", "gfx90c"), ("164c", "gfx90c")],
)
def test_vega_apus_are_in_the_table(device_id, gfx):
    model = gpu_table.lookup_pci(device_id)
    assert model.gfx == gfx and model.integrated and model.family == "gcn5"


@pytest.mark.parametrize(
    "name, gfx",
    [("Navi 21", "gfx1030"), ("Navi 22 [Radeon RX 6700/6700 XT/6750 XT / 6800M/6850M XT]", "gfx1031"), ("navi23", "gfx1032"),
     ("Navi 24", "gfx1034"), ("Navi 31", "gfx1100"), ("Navi 32", "gfx1101"), ("Navi 33", "gfx1102"), ("Navi 44", "gfx1200"),
     ("Navi 48 [Radeon RX 9070/9070 XT/9070 GRE]", "gfx1201"), ("Cezanne [Radeon Vega Series / Radeon Vega Mobile Series]", "gfx90c"),
     ("Barcelo", "gfx90c"), ("Renoir", "gfx90c"), ("Picasso/Raven 2 [Radeon Vega Series / Radeon Vega Mobile Series]", "gfx902"),
     ("Raven Ridge", "gfx902"), ("Rembrandt [Radeon 680M]", "gfx1035"), ("Strix Halo [Radeon 8060S Graphics]", "gfx1151"),
     ("Strix [Radeon 880M / 890M]", "gfx1150"), ("Krackan", "gfx1152"), ("Phoenix1", "gfx1103")],
)
def test_code_names_resolve_to_their_gfx(name, gfx):
    assert gpu_table.model_for_name(name).gfx == gfx


def test_a_longer_code_name_hides_the_shorter_one_inside_it():
    assert [m.gfx for m in gpu_table.models_for_codename("Strix Halo")] == ["gfx1151"]
    # a slug joins the words with a hyphen or an underscore (kyuz0/amd-strix-halo-toolboxes, in
    # lemonade-sdk/lemonade#838, kyuz0/amd-strix-halo-toolboxes#53, kyuz0/amd-strix-halo-vllm-toolboxes#6)
    assert [m.gfx for m in gpu_table.models_for_codename("kyuz0/amd-strix-halo-toolboxes:rocm-7.2")] == ["gfx1151"]
    assert [m.gfx for m in gpu_table.models_for_codename("strix_halo")] == ["gfx1151"]
    assert gpu_table.codename_regex().search("see amd-strix-halo-toolboxes/docs").group(0).lower() == "strix-halo"
    assert gpu_table.model_for_name("Radeon Vega 10 Graphics") is None  # Raven's marketing name, not Vega 10 (gfx900)


def test_code_names_and_product_names_must_agree():
    assert gpu_table.model_for_name("Navi 21 / RX 6700 XT") is None


LIBDRM_IDS = "https://gitlab.freedesktop.org/mesa/drm/-/blob/libdrm-2.4.131/data/amdgpu.ids"


def test_every_sold_as_name_cites_libdrm_at_a_tag_and_names_a_device_row():
    table = load_table("gpus")
    devices = {row["id"] for row in table["devices"]}
    assert table["names"]
    for row in table["names"]:
        assert row["id"] in devices, row
        assert LIBDRM_IDS in row["source"], row


@pytest.mark.parametrize(
    "name, gfx, integrated",
    [("Radeon 660M", "gfx1035", True), ("AMD Radeon(TM) 660M Graphics", "gfx1035", True), ("RX 6700M", "gfx1031", False),
     ("AMD Radeon RX 7650 GRE", "gfx1102", False), ("Radeon 8040S", "gfx1151", True), ("AMD Custom GPU 0405", "gfx1033", True),
     ("Steam Deck", "gfx1033", True), ("RX 6550M", "gfx1034", False), ("RX 7700", "gfx1101", False),
     ("RX 6650M XT", "gfx1032", False), ("RX 5300M", "gfx1012", False), ("RX 6750 GRE 12GB", "gfx1031", False),
     ("RX 6750 GRE 10GB", "gfx1032", False)],
)
def test_names_libdrm_sells_a_device_as_give_that_device_rows_gfx(name, gfx, integrated):
    model = gpu_table.model_for_name(name)
    assert (model.gfx, model.integrated) == (gfx, integrated)


@pytest.mark.parametrize("name", ["RX 6750 GRE", "AMD Radeon RX 5600M", "Radeon Pro 5600M"])
def test_a_name_sold_on_chips_of_two_targets_gives_no_gfx(name):
    # libdrm: RX 6750 GRE is 73df (Navi 22) as 12GB and 73ff (Navi 23) as 10GB; RX 5600M is 731f (Navi 10), Pro 5600M 7360 (Navi 12)
    assert gpu_table.model_for_name(name) is None


@pytest.mark.parametrize(
    "name, gfx",
    [("GTX 660M", None), ("RTX 3060M", None), ("Radeon 6600M", "gfx1032"), ("RX 7650", None), ("RX 7600", "gfx1102"),
     ("RX 7700 XT", "gfx1101"), ("RX 7700S", "gfx1102"), ("RX 6700", "gfx1031"), ("RX 6650 XT", "gfx1032"), ("Radeon 680M", "gfx1035")],
)
def test_a_sold_as_name_is_matched_whole_never_inside_a_neighbouring_name(name, gfx):
    model = gpu_table.model_for_name(name)
    assert (model.gfx if model else None) == gfx


def test_a_sold_as_name_of_a_device_the_table_lacks_is_refused(monkeypatch):
    table = dict(load_table("gpus"))
    table["names"] = [{"id": "abcd", "names": ["Radeon 999M"], "source": LIBDRM_IDS}]
    monkeypatch.setattr(gpu_table, "load_table", lambda name: table)
    for cached in (gpu_table._models, gpu_table._named, gpu_table._name_index, gpu_table.model_for_name):
        cached.cache_clear()
    try:
        with pytest.raises(Exception, match="not a row of devices"):
            gpu_table._named()
        assert gpu_table.model_for_name("Radeon 999M") is None  # a broken table never breaks reading
    finally:
        monkeypatch.undo()
        for cached in (gpu_table._models, gpu_table._named, gpu_table._name_index, gpu_table.model_for_name):
            cached.cache_clear()
