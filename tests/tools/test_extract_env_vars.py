"""tools/extract_env_vars.py: the generated table is what the script extracts from source at a ref."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from rocm_doctor.data import rules_dir
from rocm_doctor.knowledge.env_reads import EnvReads, env_reads

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tools" / "extract_env_vars.py"


def _load_script():
    spec = importlib.util.spec_from_file_location("extract_env_vars", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


extract = _load_script()

FLAGS = """\
release(int, AMD_LOG_LEVEL, 0,                                                \\
        "The default log level")                                              \\
release(bool, HIP_VISIBLE_DEVICES_X, false,                                   \\
        "A flag")                                                             \\
"""
TOPOLOGY = """\
#define TOOLS_VAR "HSA_TOOLS_X"
static void f(int node_id) {
  snprintf(buf, sizeof(buf), "HSA_OVERRIDE_GFX_VERSION_%d", node_id);
  if ((env = getenv(buf)) || (env = getenv("HSA_OVERRIDE_GFX_VERSION"))) {}
  const char* t = getenv(TOOLS_VAR);
  const char* s = secure_getenv("HSA_ENABLE_SDMA");
}
"""
RCCL = """\
NCCL_PARAM(P2pLevel, "P2P_LEVEL_X", -2);
RCCL_PARAM(EnableClique, "ENABLE_CLIQUE", 0);
NCCLCHECK(ncclGetLevel(&level, "NCCL_P2P_DISABLE", "NCCL_P2P_LEVEL"));
"""
MIOPEN = "MIOPEN_DECLARE_ENV_VAR_BOOL(MIOPEN_DEBUG_X)\n"
PYTHON = """\
import os
a = os.environ.get("PYTORCH_HIP_ALLOC_CONF")
b = os.getenv('HIP_VISIBLE_DEVICES')
if "ROCR_VISIBLE_DEVICES" in os.environ:
    c = os.environ["CUDA_VISIBLE_DEVICES"]
name = "NOT_READ_HERE"
"""
CMAKE = "if(DEFINED ENV{HIP_PATH})\n  set(X $ENV{HIP_PLATFORM})\nendif()\n"


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, timeout=60)


@pytest.fixture()
def fixture_sources(tmp_path: Path):
    repo = tmp_path / "rocm"
    (repo / "rocclr" / "utils").mkdir(parents=True)
    (repo / "libhsakmt").mkdir()
    (repo / "rccl").mkdir()
    (repo / "miopen").mkdir()
    (repo / "rocclr" / "utils" / "flags.hpp").write_text(FLAGS)
    (repo / "libhsakmt" / "topology.c").write_text(TOPOLOGY)
    (repo / "rccl" / "param.cc").write_text(RCCL)
    (repo / "miopen" / "env.cpp").write_text(MIOPEN)
    (repo / "CMakeLists.txt").write_text(CMAKE)
    (repo / "README.md").write_text('getenv("HSA_IN_A_README")\n')
    _git(repo, "init", "-q")
    _git(repo, "-c", "user.email=t@example.com", "-c", "user.name=t", "add", ".")
    _git(repo, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "-m", "fixture")
    _git(repo, "tag", "v1.0")
    # a file added after the tag is not read at the tag
    (repo / "libhsakmt" / "later.c").write_text('getenv("HSA_AFTER_THE_TAG");\n')
    _git(repo, "-c", "user.email=t@example.com", "-c", "user.name=t", "add", ".")
    _git(repo, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "-m", "later")
    wheel = tmp_path / "torch"
    (wheel / "cuda").mkdir(parents=True)
    (wheel / "cuda" / "__init__.py").write_text(PYTHON)
    config = {
        "judged_stems": ["HSA_", "HIP_"],
        "sources": [
            {"component": "fixture", "repo": "x/rocm", "git": "{mirror}/rocm/.git", "refs": {"v1.0": "1.0.0"},
             "paths": ["rocclr", "libhsakmt", "rccl", "miopen", "CMakeLists.txt", "README.md"]},
            {"component": "PyTorch", "repo": "pytorch/pytorch", "series": "torch", "dir": "{torch}", "refs": {"v2.13.0": "2.13.0"},
             "complete": False, "paths": ["cuda"], "map": {"": "torch/"}},
            {"component": "fixture", "repo": "x/rocm", "ref": "0123456789abcdef0123456789abcdef01234567", "after": "1.0.0",
             "file": "flags.hpp", "names": ["HSA_FROM_A_LATER_COMMIT"]},
        ],
    }
    sources = tmp_path / "sources.yaml"
    sources.write_text(yaml.safe_dump(config))
    return tmp_path, sources


EXPECTED = {
    "AMD_LOG_LEVEL": ("fixture", "rocclr/utils/flags.hpp"),
    "HIP_VISIBLE_DEVICES_X": ("fixture", "rocclr/utils/flags.hpp"),
    "HSA_OVERRIDE_GFX_VERSION": ("fixture", "libhsakmt/topology.c"),
    "HSA_OVERRIDE_GFX_VERSION_<N>": ("fixture", "libhsakmt/topology.c"),
    "HSA_TOOLS_X": ("fixture", "libhsakmt/topology.c"),
    "HSA_ENABLE_SDMA": ("fixture", "libhsakmt/topology.c"),
    "NCCL_P2P_LEVEL_X": ("fixture", "rccl/param.cc"),
    "RCCL_ENABLE_CLIQUE": ("fixture", "rccl/param.cc"),
    "NCCL_P2P_DISABLE": ("fixture", "rccl/param.cc"),
    "NCCL_P2P_LEVEL": ("fixture", "rccl/param.cc"),
    "MIOPEN_DEBUG_X": ("fixture", "miopen/env.cpp"),
    "HIP_PATH": ("fixture", "CMakeLists.txt"),
    "HIP_PLATFORM": ("fixture", "CMakeLists.txt"),
    "PYTORCH_HIP_ALLOC_CONF": ("PyTorch", "torch/cuda/__init__.py"),
    "HIP_VISIBLE_DEVICES": ("PyTorch", "torch/cuda/__init__.py"),
    "ROCR_VISIBLE_DEVICES": ("PyTorch", "torch/cuda/__init__.py"),
    "CUDA_VISIBLE_DEVICES": ("PyTorch", "torch/cuda/__init__.py"),
}


EXPECTED["HSA_FROM_A_LATER_COMMIT"] = ("fixture", "flags.hpp")


def _run(root: Path, sources: Path) -> dict:
    out = root / "env_reads.yaml"
    code = extract.main(["--sources", str(sources), "--mirror", str(root), "--torch", str(root / "torch"),
                         "--out", str(out), "--checked", "2026-11-22"])
    assert code == 0
    return yaml.safe_load(out.read_text())


def test_the_script_extracts_every_reading_form_at_the_tag(fixture_sources):
    table = _run(*fixture_sources)
    found = {name: next((c, r["file"]) for c, r in comps.items()) for name, comps in table["variables"].items()}
    assert found == EXPECTED
    assert table["variables"]["HSA_ENABLE_SDMA"]["fixture"]["url"] == "https://github.com/x/rocm/blob/v1.0/libhsakmt/topology.c"
    assert table["checked"] == "2026-11-22" and table["judged_stems"] == ["HSA_", "HIP_"]


def test_the_script_records_every_scan_and_whether_it_read_every_file(fixture_sources):
    scans = {s["id"]: s for s in _run(*fixture_sources)["scans"]}
    assert scans["fixture@v1.0"]["complete"] is True and scans["fixture@v1.0"]["release"] == "1.0.0"
    assert scans["fixture@v1.0"]["files"] == 5  # README.md is no source file
    assert scans["PyTorch@v2.13.0"]["complete"] is False and scans["PyTorch@v2.13.0"]["series"] == "torch"
    assert scans["fixture@0123456789ab"] == {**scans["fixture@0123456789ab"], "complete": False, "release": None, "after": "1.0.0",
                                           "paths": ["flags.hpp"]}


def test_the_generated_fixture_table_judges_only_where_the_scans_cover_the_release(fixture_sources):
    reads = EnvReads.from_data(_run(*fixture_sources))
    assert reads.is_read("HSA_OVERRIDE_GFX_VERSION_3") and not reads.is_read("HSA_FOO")
    assert reads.at_release("HSA_FOO", "1.0").read_by_nothing
    assert reads.at_release("HSA_FOO", "1.1").status == "unknown"  # no scan of 1.1
    later = reads.at_release("HSA_FROM_A_LATER_COMMIT", "1.0")
    assert later.status == "not_read" and [s.id for s in later.elsewhere] == ["fixture@0123456789ab"]
    # HIP_VISIBLE_DEVICES is read by PyTorch too, whose scan is not complete: HIP_ is never judged here
    assert reads.at_release("HIP_FOO", "1.0").status == "unknown"
    assert reads.at_release("PYTORCH_X", "1.0").status == "unknown"


def test_a_missing_source_is_a_one_line_error(tmp_path, capsys):
    sources = tmp_path / "s.yaml"
    sources.write_text(yaml.safe_dump({"sources": [{"component": "p", "repo": "o/r", "git": str(tmp_path / "nope"),
                                                     "refs": {"v1": "1.0"}, "paths": ["a"]}]}))
    assert extract.main(["--sources", str(sources), "--out", str(tmp_path / "o.yaml")]) == 1
    assert "extract_env_vars:" in capsys.readouterr().err


def test_the_shipped_table_is_generated_and_cites_a_url_at_a_tag_or_commit_for_every_read():
    text = (rules_dir() / "data" / "env_reads.yaml").read_text()
    assert text.startswith("# GENERATED by tools/extract_env_vars.py")
    table = env_reads()
    assert table.checked and "HSA_OVERRIDE_" in table.judged_stems
    for name, comps in table.variables.items():
        for component, read in comps.items():
            refs = {table.scans[i].ref for i in read.scans}
            assert read.url.startswith("https://github.com/") and any(f"/blob/{ref}/" in read.url for ref in refs), name


@pytest.mark.parametrize("name", ["HSA_OVERRIDE_GFX_VERSION", "HSA_OVERRIDE_GFX_VERSION_2", "PYTORCH_HIP_ALLOC_CONF",
                                  "AMD_SERIALIZE_KERNEL", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "HSA_ENABLE_SDMA"])
def test_the_shipped_table_knows_the_variables_the_runtime_reads(name):
    assert env_reads().is_read(name)


@pytest.mark.parametrize("name", ["HIP_DISABLE_IPC", "HSA_FOO", "ROCM_ALLOW_HIDDEN_KERNEL_FLAGS"])
def test_the_shipped_table_finds_no_reader_of_myths(name):
    assert not env_reads().is_read(name)


def test_the_script_runs_as_a_command(tmp_path):
    result = subprocess.run([sys.executable, str(SCRIPT), "--help"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and "--mirror" in result.stdout


def test_a_scan_missing_a_listed_path_is_not_complete(fixture_sources):
    root, sources = fixture_sources
    config = yaml.safe_load(sources.read_text())
    config["sources"][0]["paths"] = ["rocclr", "moved-away"]
    sources.write_text(yaml.safe_dump(config))
    scans = {s["id"]: s for s in _run(root, sources)["scans"]}
    assert scans["fixture@v1.0"]["complete"] is False and scans["fixture@v1.0"]["absent_paths"] == ["moved-away"]


def test_names_read_through_a_constant_or_a_list_of_old_names_are_found():
    text = (
        'static constexpr const auto hipblaslt_allow_tf32 = "HIPBLASLT_ALLOW_TF32";\n'
        "bool f() { return c10::utils::check_env(hipblaslt_allow_tf32) == true; }\n"
        'static std::vector<std::string> TORCH_NCCL_BLOCKING_WAIT = {\n    "TORCH_NCCL_BLOCKING_WAIT",\n    "NCCL_BLOCKING_WAIT"};\n'
        'static constexpr const auto unused = "NOT_READ_ANYWHERE";\n'
    )
    assert extract.reads_in_text("Context.cpp", text) == {"HIPBLASLT_ALLOW_TF32", "TORCH_NCCL_BLOCKING_WAIT", "NCCL_BLOCKING_WAIT"}
