"""A list of gfx targets that an 80-column wrap cut over two lines is still a list: its tail names no device."""

from __future__ import annotations

from metamorphic import wrap80

from rocm_doctor.ingest import ingest_text


def gfx_read(text: str) -> set:
    return {str(a.gfx.value) for a in ingest_text(text).facts.gpus.agents if a.gfx.is_known}


def test_the_wrapped_tail_of_a_list_of_targets_names_no_device() -> None:
    # the shape of a follow-up in pytorch/pytorch#132570 (roc-obj-ls output summarised in prose), wrapped
    one_line = "Radeon 5700XT\n\nSame here. I get results for gfx1030, gfx1100, gfx900, gfx906, gfx908, gfx90a, gfx942 but not for gfx1010.\n"
    wrapped = "Radeon 5700XT\n\nSame here. I get results for gfx1030, gfx1100, gfx900, gfx906, gfx908, gfx90a,\ngfx942 but not for gfx1010.\n"
    assert gfx_read(one_line) == gfx_read(wrapped) == {"gfx1010"}


def test_a_wrapped_support_list_in_a_log_line_names_no_device() -> None:
    # TensorFlow's "Ignoring visible gpu device ... The supported AMDGPU versions are ..." (ROCm/tensorflow-upstream#2118)
    wrapped = (
        "Ignoring visible gpu\ndevice (device: 0, name: , pci bus id: 0000:23:00.0) with AMDGPU version :\n"
        "gfx1100. The supported AMDGPU versions are gfx1030, gfx900, gfx906, gfx908,\ngfx90a.\n"
    )
    assert "gfx90a" not in gfx_read(wrapped)


def test_one_or_two_targets_across_a_wrap_are_still_the_machines() -> None:
    assert gfx_read("I have an RX 7900 XTX (gfx1100) and a second card,\na gfx1030 one, and both crash.\n") == {"gfx1100", "gfx1030"}


# rev53gg: a line wrapped again at a narrower width leaves a short tail ("... `gfx1036` is" / "defined in" / "TheRock CMake
# ..."); the break after the tail is judged by the line it was cut from (ROCm/rocm-libraries#2297 wrapped at 80 columns
# read gfx1032 and gfx1036 as devices: the metamorphic wrap kind).
def test_a_sentence_wrapped_again_at_80_columns_reads_as_it_did_before_the_rewrap() -> None:
    once = (
        "Similar to PR #1477 (where it was for `gfx1032`), it appears that `gfx1036` is defined in\n"
        "TheRock CMake as a valid target but it isn't in Tensile.\n"
    )
    again = (
        "Similar to PR #1477 (where it was for `gfx1032`), it appears that `gfx1036` is\n"
        "defined in\n"
        "TheRock CMake as a valid target but it isn't in Tensile.\n"
    )
    assert gfx_read(once) == gfx_read(again) == set()


def test_a_short_line_after_a_short_line_is_not_joined_as_a_wrap_tail() -> None:
    # the line before the short one is short itself: no wrapping tool cut it, so the third line is another thought
    assert gfx_read("rocminfo shows `gfx1036` is\nthere\nTheRock CMake as a valid target but it isn't in Tensile.\n") == {"gfx1036"}


# rev54g: a long row of an indented results table wrapped at 80 columns leaves a one-word tail; the row after the tail is
# judged by the row the tail was cut from, as it was before the wrap (Osmantic/ODS#1779 wrapped at 80 columns read a
# gfx1201 from its last row: the metamorphic wrap kind).
def test_wrapping_a_results_table_row_reads_no_gpu_the_unwrapped_table_does_not() -> None:
    table = (
        "Same image, one setting changed at a time:\n\n"
        "    override set to 10.3.0       -> rocminfo lists one agent  (the old value is accepted)\n"
        "    HSA_OVERRIDE_GFX_VERSION empty -> no agent at all\n"
        "    nothing set                  -> one agent, gfx1031\n"
    )
    assert wrap80(table) != table
    assert gfx_read(wrap80(table)) == gfx_read(table)
