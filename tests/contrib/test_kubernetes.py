"""contrib/kubernetes: the manifests pass kubernetes-validate, the node-problem-detector config passes
the checks NPD applies when it loads one, and its rules speak NPD's plugin protocol."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List

import kubernetes_validate
import pytest
import yaml
from dockerfile_parse import DockerfileParser

from fleet_gen import healthy_facts_file, zeros_facts_file

KUBE = Path(__file__).resolve().parents[2] / "contrib" / "kubernetes"
MANIFESTS = ("rbac.yaml", "daemonset.yaml", "remediation-mappings.yaml")
KUBERNETES_VERSIONS = ("1.28.0", kubernetes_validate.utils.latest_version())
GO_DURATION = re.compile(r"^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$")
"""What Go's time.ParseDuration accepts (NPD parses intervals and timeouts with it)."""


def documents(name: str) -> List[Dict[str, Any]]:
    return [d for d in yaml.safe_load_all((KUBE / name).read_text(encoding="utf-8")) if d]


def daemonset() -> Dict[str, Any]:
    (found,) = [d for d in documents("daemonset.yaml") if d["kind"] == "DaemonSet"]
    return found


def npd_config() -> Dict[str, Any]:
    return json.loads((KUBE / "custom-plugin-monitor.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
@pytest.mark.parametrize("name", MANIFESTS)
def test_manifests_pass_kubernetes_validate_strictly(name: str, version: str) -> None:
    docs = documents(name)
    assert docs
    for doc in docs:
        kubernetes_validate.validate(doc, version, strict=True)  # raises ValidationError with the path


def tolerates(tolerations: List[Dict[str, str]], key: str, value: str, effect: str) -> bool:
    """Kubernetes' matching rule for one taint (core/v1 Toleration)."""
    for t in tolerations:
        if t.get("effect") not in (None, "", effect):
            continue
        if t.get("operator") == "Exists" and t.get("key") in (None, "", key):
            return True
        if t.get("operator", "Equal") == "Equal" and t.get("key") == key and t.get("value", "") == value:
            return True
    return False


def test_the_daemonset_keeps_running_on_nodes_amd_gpu_operator_tainted() -> None:
    tolerations = daemonset()["spec"]["template"]["spec"]["tolerations"]
    assert tolerates(tolerations, "amd-gpu-unhealthy", "", "NoSchedule")
    assert tolerates(tolerations, "AMD_GPU_Unhealthy", "AMDGPURocmDoctorIsolate", "NoSchedule")
    assert not tolerates(tolerations, "some-other-taint", "", "NoSchedule")


def test_the_npd_config_passes_the_checks_npd_applies_at_startup() -> None:
    """pkg/custompluginmonitor/types/config.go: Validate() and ApplyConfiguration()."""
    config = npd_config()
    assert config["plugin"] == "custom" and config["source"]
    plugin = config["pluginConfig"]
    assert GO_DURATION.match(plugin["invoke_interval"]) and GO_DURATION.match(plugin["timeout"])
    assert plugin["max_output_length"] == 80
    seconds = lambda text: float(text[:-1])  # noqa: E731 - every duration here is in seconds
    defaults = {c["type"] for c in config["conditions"]}
    for rule in config["rules"]:
        assert rule["type"] in ("permanent", "temporary")
        assert GO_DURATION.match(rule["timeout"]) and seconds(rule["timeout"]) <= seconds(plugin["timeout"])
        if rule["type"] == "permanent":
            assert rule["condition"] in defaults, f"permanent rule without a default condition: {rule}"
        assert rule["path"] == "/usr/local/bin/rocm-doctor" and rule["args"][:2] == ["health", "--npd"]
        budget = rule["args"][rule["args"].index("--budget") + 1]
        assert seconds(budget) < seconds(rule["timeout"]), "rocm-doctor must end before NPD kills it"


def test_conditions_are_the_ones_the_remediation_mappings_name() -> None:
    conditions = {c["type"] for c in npd_config()["conditions"]}
    (mappings,) = documents("remediation-mappings.yaml")
    named = {entry["nodeCondition"] for entry in yaml.safe_load(mappings["data"]["workflow"])}
    assert named == {"AMDGPURocmDoctorReset", "AMDGPURocmDoctorIsolate"} and named <= conditions
    assert all(c.startswith("AMDGPU") for c in conditions)


@pytest.mark.parametrize(
    ("action", "facts", "code", "prefix"),
    [("isolate", "zeros", 1, "RD600 isolate: "), ("reset", "zeros", 0, "no reset finding; "),
     ("isolate", "healthy", 0, "no isolate finding; ok: ")],
)
def test_each_rule_speaks_npds_plugin_protocol(tmp_path: Path, action: str, facts: str, code: int, prefix: str) -> None:
    """Exit 0 OK, 1 problem (pkg/custompluginmonitor/types/types.go), one line within max_output_length."""
    (rule,) = [r for r in npd_config()["rules"] if r["args"][2] == action]
    path = {"zeros": zeros_facts_file, "healthy": healthy_facts_file}[facts](tmp_path)
    args = [a for a in rule["args"] if a != "--no-torch"] + ["--facts", str(path)]
    done = subprocess.run([sys.executable, "-m", "rocm_doctor", *args], capture_output=True, text=True, timeout=60)
    assert done.returncode == code, done.stdout + done.stderr
    assert done.stdout.startswith(prefix) and done.stdout.count("\n") == 1 and len(done.stdout.strip()) <= 80


def test_kustomization_generates_the_config_map_the_daemonset_mounts() -> None:
    kustomization = yaml.safe_load((KUBE / "kustomization.yaml").read_text(encoding="utf-8"))
    assert all((KUBE / name).is_file() for name in kustomization["resources"])
    (generator,) = kustomization["configMapGenerator"]
    assert generator["files"] == ["custom-plugin-monitor.json"]
    volumes = {v["name"]: v for v in daemonset()["spec"]["template"]["spec"]["volumes"]}
    assert volumes["config"]["configMap"]["name"] == generator["name"]
    npd = daemonset()["spec"]["template"]["spec"]["containers"][0]
    assert "--config.custom-plugin-monitor=/config/custom-plugin-monitor.json" in npd["command"]


def test_the_image_has_node_problem_detector_and_rocm_doctor_where_the_manifests_expect_them() -> None:
    parser = DockerfileParser(path=str(KUBE / "Dockerfile"))
    instructions = [(i["instruction"], i["value"]) for i in parser.structure]
    assert ("COPY", "--from=npd /node-problem-detector /usr/local/bin/node-problem-detector") in instructions
    assert any(k == "RUN" and "/usr/local/bin/rocm-doctor" in v for k, v in instructions)
    assert daemonset()["spec"]["template"]["spec"]["containers"][0]["command"][0] == "/usr/local/bin/node-problem-detector"
