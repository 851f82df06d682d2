"""The error-signature table and its generic matcher."""

from __future__ import annotations

import pytest
from ingest_helpers import block, ingest, signature_contexts

from rocm_doctor.errors import InputError
from rocm_doctor.ingest.blocks import split_blocks
from rocm_doctor.ingest.signatures import build, match_block, signatures


def _ids(text: str) -> list:
    """Error signatures only (context rows say what the report is about, not what failed)."""
    return [p.kind.split(":", 1)[1] for p in match_block(block(text)) if p.kind.startswith("error:")]


def test_every_shipped_signature_has_a_source_and_compiles() -> None:
    table = signatures()
    assert len({s.id for s in table}) == len(table)
    assert all(s.source and s.meaning for s in table)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("RuntimeError: HIP error: invalid device function", "hip_invalid_device_function"),
        ("hipErrorNoBinaryForGpu: Unable to find code object for all current devices!", "hip_no_binary_for_gpu"),
        ("RuntimeError: CUDA error: HIPBLAS_STATUS_ALLOC_FAILED when calling `hipblasCreate(handle)`", "hipblas_alloc_failed"),
        ("RuntimeError: Attempting to use hipBLASLt on a unsupported architecture!", "hipblaslt_unsupported_arch"),
        ("RuntimeError: No HIP GPUs are available", "no_hip_gpus"),
        ("Call returned HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed", "hsa_out_of_resources"),
        ("hipGetDeviceCount: Returned hipErrorNoDevice :", "hip_error_no_device"),
        ('checkHipErrors() HIP API error = 0100 "no ROCm-capable device is detected"', "hip_error_no_device"),
        ("Segmentation fault (core dumped)", "segfault"),
        ("Windows fatal exception: access violation", "access_violation"),
        ("RuntimeError: Internal Triton PTX codegen error: ptxas fatal   : Value 'sm_110' is not defined", "triton_ptxas_cuda_on_rocm"),
        ("UserWarning: Flash attention was not compiled for current AMD GPU architecture. Attempting to run on architecture gfx1030", "aotriton_arch_not_compiled"),
        ("HSA_STATUS_ERROR_INVALID_ISA: The instruction set architecture is invalid.", "hsa_invalid_isa"),
        ("Memory access fault by GPU node-1 (Agent handle: 0x55d0) on address 0x7f. Reason: Page not present", "gpu_memory_access_fault"),
        ("UserWarning: expandable_segments not supported on this platform", "expandable_segments_unsupported"),
        ("RuntimeError: operator torchvision::nms does not exist", "torchvision_ops_not_registered"),
        ("RuntimeError: operator torchvision::roi_align does not exist", "torchvision_ops_not_registered"),
        ("ImportError: /venv/lib/python3.11/site-packages/flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi", "extension_torch_abi_mismatch"),
        ("xformers/_C.so: undefined symbol: _ZNK3c1010TensorImpl4sizeEl", "extension_torch_abi_mismatch"),
        ("transformer_engine_extensions.so: undefined symbol: _ZN2at4_ops5zeros4callEN3c108ArrayRef", "extension_torch_abi_mismatch"),
        ("torchvision 0.19.1 requires torch==2.4.1, but you have torch 2.5.1 which is incompatible.", "companion_pins_other_torch"),
        ("ERROR: torchvision 0.6.1+cu101 has requirement torch==1.5.1, but you'll have torch 0.4.0 which is incompatible.", "companion_pins_other_torch"),
    ],
)
def test_error_lines_map_to_their_signature(line: str, expected: str) -> None:
    assert expected in _ids(line)


def test_a_signature_can_name_the_gpu_and_imply_facts() -> None:
    result = ingest("rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: Illegal seek for GPU arch : gfx1032\n")
    assert "tensile_library_missing_arch" in result.facts.symptoms.signatures.value
    assert result.facts.gpus.agents[0].gfx.value == "gfx1032"
    atomics = ingest("[    7.026427] kfd kfd: amdgpu: skipped device 1002:67df, PCI rejects atomics\n").facts
    assert atomics.driver.pcie_atomics_rejected.value is True
    assert atomics.host.wsl_version.status == "absent"
    assert atomics.gpus.agents[0].device_id.value == "0x67df"
    assert ingest("RuntimeError: Found no NVIDIA driver on your system.\n").facts.torch.flavour.value == "cuda"


def test_a_context_pattern_must_occur_in_the_same_block() -> None:
    alone = "fatal error: 'stdlib.h' file not found\n"
    assert _ids(alone) == []
    with_triton = "C:\\venv\\Lib\\site-packages\\triton\\backends\\amd\\include\\hip/hip_runtime.h(49,10): fatal error:\n" + alone
    assert _ids(with_triton) == ["stdlib_h_not_found_triton_windows"]


def test_install_commands_reveal_the_index_used() -> None:
    extra = "pip3 install --pre torch --extra-index-url https://download.pytorch.org/whl/nightly/rocm5.4.3/"
    assert _ids(extra) == ["pip_extra_index_rocm"]
    assert {"rocm_torch_index_used", "pytorch_org_rocm_index"} <= signature_contexts(extra)
    assert _ids("pip install torch --index-url https://download.pytorch.org/whl/rocm6.2") == []
    assert "rocm_torch_index_used" in signature_contexts("pip install torch --index-url https://download.pytorch.org/whl/rocm6.2")


def test_a_paste_without_errors_has_no_signatures() -> None:
    signatures_fact = ingest("Ubuntu 24.04\n").facts.symptoms.signatures
    assert signatures_fact.status == "known" and signatures_fact.value == []


def test_a_malformed_table_row_names_the_row_and_field() -> None:
    with pytest.raises(InputError, match=r"signatures\[0\] needs field 'source'"):
        build({"signatures": [{"id": "x", "pattern": "y", "meaning": "z"}]})
    with pytest.raises(InputError, match="invalid regex"):
        build({"signatures": [{"id": "x", "pattern": "(", "meaning": "z", "source": "s"}]})
    with pytest.raises(InputError, match="unknown field 'severity'"):
        build({"signatures": [{"id": "x", "pattern": "y", "meaning": "z", "source": "s", "severity": 1}]})


def test_a_fragment_the_table_names_is_spelled_into_every_row_that_uses_it() -> None:
    table = {"fragments": {"card": r"(?:rx\s?\d{4}|gfx\d{4})"},
             "signatures": [{"id": "x", "pattern": r"please add {{card}}", "unless_line": r"{{card}} works", "meaning": "z", "source": "https://example.org/a"}]}
    (signature,) = build(table)
    assert signature.pattern.pattern == r"please add (?:rx\s?\d{4}|gfx\d{4})"
    assert signature.unless is not None and signature.unless.search("the RX 7900 works")
    with pytest.raises(InputError, match="no fragment named 'gpu'"):
        build({**table, "signatures": [{**table["signatures"][0], "pattern": "please add {{gpu}}"}]})
    with pytest.raises(InputError, match="fragments must map"):
        build({**table, "fragments": {"card": 3}})


def test_a_statement_row_is_read_only_in_a_sentence_of_the_current_state() -> None:
    row = {"id": "x", "pattern": r"\bfalls back to CPU\b", "scope": "statement", "unless_line": "--cpu", "meaning": "z", "source": "https://example.org/a"}
    (signature,) = build({"signatures": [row]})
    assert signature.pattern.search("It falls back to CPU. Any ideas?")
    assert not signature.pattern.search("Does it fall back to CPU? It falls back to CPU before the update.")
    assert not signature.pattern.search("python main.py --cpu: it falls back to CPU")
    with pytest.raises(InputError, match="scope must be statement"):
        build({"signatures": [{**row, "scope": "line"}]})


def test_an_error_row_drops_a_line_its_unless_line_matches() -> None:
    row = {"id": "x", "pattern": r"\bfile_(?P<gfx>gfx[0-9a-f]{3,4}) is missing", "gpu": ["gfx"], "unless_line": r"\bif\b|^\s{0,8}>", "meaning": "z", "source": "https://example.org/a"}
    table = tuple(build({"signatures": [row]}))

    def ids(text: str) -> list:
        return [p.kind for p in match_block(block(text), table)]

    assert ids("RX 5700 XT here: file_gfx1010 is missing.") == ["error:x"]
    assert ids("If file_gfx1010 is missing, build it.") == []
    # a quoted reply's line inside the reporter's text: the line as pasted keeps its quote marker
    quoted = split_blocks("My card is gfx1100.\n> file_gfx1010 is missing\nNot my problem.")
    assert [p.kind for b in quoted for p in match_block(b, table)] == []
    assert [p.kind for b in split_blocks("My card is gfx1010.\nfile_gfx1010 is missing\nHelp.") for p in match_block(b, table)] == ["error:x"]
    with pytest.raises(InputError, match="unless_line: invalid regex"):
        build({"signatures": [{**row, "unless_line": "("}]})


def test_every_signature_a_rule_names_is_in_the_table() -> None:
    from rocm_doctor.judge.loader import load_rules

    known_ids = {s.id for s in signatures()}
    named = set()

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if node.get("fact") == "symptoms.signatures" and "contains" in node:
                named.add(node["contains"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for rule in load_rules([], use_env=False):
        walk(rule.when)
        named.update(rule.explains)
    assert named and named <= known_ids, sorted(named - known_ids)


@pytest.mark.parametrize(
    ("line", "expected", "fires"),
    [
        ('it gives me an error I never got before: "No NVIDIA driver found on your system."', "nvidia_driver_named_by_user", True),
        ("ComfyUI shows a message telling me I don't have Nvidia drivers installed.", "nvidia_driver_named_by_user", True),
        ('the backend fails with a "no Nvidia GPU" error', "nvidia_driver_named_by_user", True),
        ("I don't have an nvidia gpu, I have an RX 6600 with ROCm 6.2", "nvidia_driver_named_by_user", False),
        ("No NVIDIA GPU here, only AMD.", "nvidia_driver_named_by_user", False),
        # pkg60: the error retold as a missing driver or one the program cannot find (runew0lf/RuinedFooocus#121,
        # lllyasviel/Fooocus#3737), and look-alikes
        ('I can\'t fix the "runtime error" cause of missing nvidia driver.', "nvidia_driver_named_by_user", True),
        ("It runs into error while loading saying that it cant find NVIDIA driver.", "nvidia_driver_named_by_user", True),
        # rev60: "GPU" in these words is no report's, and an installer's or a monitor's line goes on with ROCm
        ("the error says it can’t find an nvidia gpu", "nvidia_driver_named_by_user", False),
        ("The installer warns that it can't find an NVIDIA GPU and then installs the ROCm build of torch automatically", "nvidia_driver_named_by_user", False),
        ("The error says I'm missing the NVIDIA GPU Computing Toolkit (CUDA_PATH not set)", "nvidia_driver_named_by_user", False),
        ("Warning: unable to find nvidia drivers, skipping nvidia-smi metrics.", "nvidia_driver_named_by_user", False),
        ("The message about a missing nvidia driver is expected on AMD; ComfyUI then uses ROCm and works.", "nvidia_driver_named_by_user", False),
        ("The log says it could not find the nvidia driver, so it falls back to ROCm on my RX 7900 XTX.", "nvidia_driver_named_by_user", False),
        ("error: it says it cannot find the NVIDIA driver and stops", "nvidia_driver_named_by_user", True),
        ("My laptop is missing nvidia drivers because it has a Radeon", "nvidia_driver_named_by_user", False),
        ("I can't find the nvidia driver download page for my RTX 3060", "nvidia_driver_named_by_user", False),
        ("webui fails looking for an NVIDIA GPU when I have an AMD GPU", "nvidia_driver_named_by_user", False),
        ("both the square example and vector_copy example work with sudo.", "works_only_as_root", True),
        ("rocminfo fails as a normal user, but working as root it lists the GPU", "works_only_as_root", True),
        ("I am running as root inside the rocm/pytorch container and is_available() is False", "works_only_as_root", False),
        ("pip install works fine with sudo", "works_only_as_root", False),
        ("running pip install -r requirements.txt will install CUDA versions of torch, torchvision, and torchaudio", "cuda_torch_install_retold", True),
        ("even with --amd it will always download the Nvidia components of pytorch.", "cuda_torch_install_retold", True),
        ("the update pulled cuda torch again and ComfyUI stopped working", "cuda_torch_install_retold", True),
        ("I installed the ROCm version of torch, not the CUDA version.", "cuda_torch_install_retold", False),
        ("pip install torch --index-url https://download.pytorch.org/whl/rocm6.2", "cuda_torch_install_retold", False),
        ("CUDA versions of torch do not work on AMD, so I installed ROCm 6.2", "cuda_torch_install_retold", False),
        ("it installed the torch version for cuda which doesn't work for my GPU", "cuda_torch_install_retold", True),
        ("installing it causes uninstallation of PyTorch for ROCm and install PyTorch for CUDA (e.g., 2.3.1+cu121)", "cuda_torch_install_retold", True),
        ("- PyTorch is replaced by CUDA version (e.g., 2.3.1+cu121)", "cuda_torch_install_retold", True),
        ("I installed torch for ROCm 6.2, and it works", "cuda_torch_install_retold", False),
        ("the CUDA build was replaced by the ROCm build and now it works", "cuda_torch_install_retold", False),
    ],
)
def test_retold_messages_are_told_apart_from_statements_about_the_machine(line: str, expected: str, fires: bool) -> None:
    assert (expected in _ids(line)) is fires


@pytest.mark.parametrize(
    ("line", "probed"),
    [
        ('python -c "import torch; print(torch.__version__, torch.version.hip)"', True),
        ("HIP: None", True),
        ("  HIP version: None", True),
        ("HIP runtime version: N/A", False),
        ("CUDA used to build PyTorch: 12.4", False),
    ],
)
def test_printing_torch_version_hip_marks_a_rocm_check(line: str, probed: bool) -> None:
    assert ("hip_build_probed" in signature_contexts(line)) is probed


def test_a_printed_hip_check_gives_the_amd_context_a_cuda_torch_is_judged_in() -> None:
    from rocm_doctor.judge.derived_facts.pasted import amd_context

    facts = ingest("torch: 2.14.0+cu130\nHIP: None\nCUDA available: False\n").facts
    assert facts.torch.flavour.value == "cuda"
    assert amd_context(facts, {}).value is True


@pytest.mark.parametrize(
    "line",
    [
        "torch.cuda.is_available() returns False",
        "torch.cuda.is_available() 返回 False。",
        "torch.cuda.is_available() возвращает False",
    ],
)
def test_gpu_unavailable_is_read_whatever_the_language_of_the_verb(line: str) -> None:
    assert "cuda_unavailable_reported" in signature_contexts(line)


def test_a_loose_torch_requirement_conflict_is_not_a_pinned_companion() -> None:
    line = "open-clip-torch 2.24.0 requires torch>=1.9.0, but you have torch 1.8.1 which is incompatible."
    assert "companion_pins_other_torch" not in _ids(line)


@pytest.mark.parametrize(
    ("line", "mismatch"),
    [
        ("sudo ln -s libhipblas.so.2 libhipblas.so.1", True),
        ("sudo ln -s libhipsparse.so libhipsparse.so.0", True),
        ("ln -sf /opt/rocm/lib/libamdhip64.so.7 /opt/rocm/lib/libamdhip64.so.6", True),
        ("ln -s librocm_smi64.so.7.4.0 librocm_smi64.so.1", True),
        ("$ sudo ln -s /opt/rocm/lib/libhipblas.so.2 /usr/lib/libhipblas.so.2", False),
        ("ln -s libamdhip64.so.6.2.60200 libamdhip64.so.6", False),
        ("ln -s /opt/rocm/lib/libhipblas.so.2 /usr/lib/", False),
        ("ln -s libhipblas.so.2 libhipblas.so", False),
    ],
)
def test_only_a_link_between_two_soname_versions_is_a_mismatch_worked_around(line: str, mismatch: bool) -> None:
    assert ("soname_symlink_workaround" in signature_contexts(line)) is mismatch


def test_tensile_library_said_missing_is_read_only_where_the_reporter_says_their_rocblas_lacks_it() -> None:
    (row,) = [s for s in signatures() if s.id == "tensile_library_said_missing"]

    def said(text: str) -> bool:
        return any(p.kind == "error:tensile_library_said_missing" for b in split_blocks(text) for p in match_block(b, (row,)))

    assert said("RX 5700 XT. TensileLibrary_lazy_gfx1010.dat is missing from the rocblas folder.")
    assert said("But there is no kernel and Tensilelibrary support for rocblas gfx1032 on windows.")
    assert said("Could someone please share a prebuilt TensileLibrary_gfx1103.dat for the 780M?")
    # hipBLASLt's file of the same name, advice, the past, a fix, an offer, a quoted reply, other words after "there is no"
    assert not said("TensileLibrary_gfx1201.dat is missing from /opt/rocm/lib/hipblaslt/library.")
    assert not said("If TensileLibrary_lazy_gfx1032.dat is missing, build it with Tensile.")
    assert not said("Previously, TensileLibrary_lazy_gfx1010.dat is missing in 0.5.x; 0.6 fixed that.")
    assert not said("Missing TensileLibrary_lazy_gfx1032.dat was the problem; I copied it in and now it works.")
    assert not said("I can share the TensileLibrary_lazy_gfx1103.dat I built.")
    assert not said("My card is gfx1100.\n> TensileLibrary_lazy_gfx1010.dat is missing\nNot my case.")
    assert not said("There is no problem with TensileLibrary_lazy_gfx1100.dat here.")
    assert not said("There is no need to rebuild TensileLibrary for gfx1100.")
