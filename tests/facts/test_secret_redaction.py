"""No secret leaves the machine in a report: credentials planted in every field of every recorded
machine and in every real paste of the corpora are counted in the report, and none survives.

The forms are those secret scanners recognise (``tests/secret_forms.py``); detect-secrets, a
maintained scanner, checks the redacted reports independently.
"""

from __future__ import annotations

import random
import shutil
import time
from pathlib import Path
from typing import Any, List

import pytest
import yaml

from rocm_doctor.cli.inputs import FactsSource, load_facts
from rocm_doctor.cli.report_cmd import facts_redactor
from rocm_doctor.pipeline import evaluate
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.redact import HomePathRedactor, Redactor, ReportRedactor
from rocm_doctor.redact_secrets import SHAPES, SecretRedactor, is_secret_name
from rocm_doctor.report.markdown import build_report
from secret_forms import FORMS, pastes, plant_machine, plant_paste, scanner_findings, survivors

TESTS = Path(__file__).resolve().parents[1]
MACHINES = sorted(p for p in (TESTS / "machines").iterdir() if (p / "machine.yaml").is_file())
PASTE_CORPORA = [TESTS / "corpus", TESTS / "corpus" / "holdout", TESTS.parents[1] / "shared" / "corpus"]


# -- the secret redactor on its own -------------------------------------------------------------------


@pytest.mark.parametrize("name", [name for name, _ in FORMS])
def test_every_form_a_scanner_knows_is_removed_wherever_it_stands(name: str) -> None:
    form = dict(FORMS)[name]
    rng = random.Random(name)
    redactor = SecretRedactor()
    for wrap in ("{}", "x {} y", '"{}"', "'{}',", "({})", "[{}]", "a={}", "{}\n", "|{}|"):
        text, secret = form(rng)
        assert survivors(redactor.text(wrap.format(text)), [secret]) == [], wrap


def test_a_value_under_a_secret_name_is_removed_whatever_it_looks_like() -> None:
    data = {"HF_TOKEN": "x", "AWS_SECRET_ACCESS_KEY": "plain", "DB_PASSWORD": "hunter2", "OPENAI_API_KEY": "k",
            "GOOGLE_APPLICATION_CREDENTIALS": "/p", "private_key": "k2", "api-key": "k3",
            "TOKENIZERS_PARALLELISM": "false", "HSA_OVERRIDE_GFX_VERSION": "11.0.0", "KEYBOARD": "us"}
    redacted = SecretRedactor().data(data)
    assert {k for k, v in redacted.items() if v == "<secret>"} == {
        "HF_TOKEN", "AWS_SECRET_ACCESS_KEY", "DB_PASSWORD", "OPENAI_API_KEY", "GOOGLE_APPLICATION_CREDENTIALS",
        "private_key", "api-key"}
    setting = SecretRedactor().data([{"name": "HF_TOKEN", "value": "plain", "origin": "export"}])
    assert setting == [{"name": "HF_TOKEN", "value": "<secret>", "origin": "export"}]


def test_a_package_named_like_a_secret_and_a_file_under_such_a_folder_are_kept() -> None:
    # Found by recording this machine: detect-secrets' METADATA (a path "named" like a secret) was removed
    # whole and learned from, and then every "detect-secrets" went with it.
    data = {"detect-secrets": "1.5.0", "/venv/site-packages/detect_secrets-1.5.0.dist-info/METADATA":
            "Name: detect-secrets\nVersion: 1.5.0\nHome-page: https://github.com/Yelp/detect-secrets/archive/v1.5.0"}
    redactor = SecretRedactor()
    redactor.learn(data)
    assert redactor.data(data) == data
    assert redactor.text("detect-secrets==1.5.0") == "detect-secrets==1.5.0"


def test_names_that_only_look_like_secrets_are_kept() -> None:
    for name in ("TOKENIZERS_PARALLELISM", "KEYBOARD", "HSA_OVERRIDE_GFX_VERSION", "PYTORCH_HIP_ALLOC_CONF", "PWD",
                 "tokenizers", "keyring", "secretstorage", "MONKEY_BUSINESS"):
        assert not is_secret_name(name), name


def test_versions_hashes_paths_and_settings_are_not_secrets() -> None:
    text = ("torch 2.5.1+rocm6.2 git c6f347b81f584b6c0d44af7a209983284dbb52d2, gfx1100, bus 0000:03:00.0, "
            "PYTORCH_HIP_ALLOC_CONF=garbage_collection_threshold:0.8,max_split_size_mb:128 "
            "TOKENIZERS_PARALLELISM=false HIP_VISIBLE_DEVICES=0,1 ROCM_PATH=/opt/rocm-6.2.0 "
            "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 "
            "pip install torch --index-url https://download.pytorch.org/whl/rocm6.2 scikit-learn task-runner")
    assert SecretRedactor().text(text) == text


def test_a_piece_of_a_secret_found_anywhere_in_the_document_is_removed_wherever_it_stands() -> None:
    # Found by the fuzz channel: a derived fact kept the part of a key after a '/', a reason cut a token short.
    token, key = "hf_" + "Ab3" * 12, "K7mQ2xZ9" * 5 + "/Tq81nW4rE5yU6iO=="
    redactor = ReportRedactor.create(Redactor.from_names([], [], []))
    redactor.learn({"env": {"HF_TOKEN": token}, "python": f"/opt/AccountKey={key}/bin/python"})
    assert redactor.text(f"ROCM_PATH is {token[:20]}…") == "ROCM_PATH is <secret>…"
    assert redactor.text("env name Tq81nW4rE5yU6iO==;x") == "env name <secret>;x"
    assert redactor.text("paths /home/<user>/venv and gfx1100 stay") == "paths /home/<user>/venv and gfx1100 stay"


def test_a_token_cut_short_is_removed_and_names_with_a_tokens_prefix_are_kept() -> None:
    # Found by the fuzz channel: a reason quoting 80 characters of hipconfig's output cut a GitLab token to 14.
    cut = "unrecognised output: '6.2.41133 [glpat-J79kiVhXdwvXD'"
    assert SecretRedactor().text(cut) == "unrecognised output: '6.2.41133 [<secret>'"
    assert SecretRedactor().text("hf_AbCdEfGh1… and eyJhbGciOiJIUzI1") == "<secret>… and <secret>"
    assert SecretRedactor().text("output: ')AKIAWVF15YOKR0BR'") == "output: ')<secret>'"
    names = "No module named 'hf_transfer'; hf_hub_download; sk-learn-intelex; npm_config_cache; ghs_; ASIAPACIFIC"
    assert SecretRedactor().text(names) == names


def test_a_token_after_an_escaped_character_or_an_underscore_is_removed() -> None:
    token = "ghp_" + "Zx9" * 12
    for text in (r'"line\n' + token + '"', "'6.2 \\r\\n" + token + "'", "_" + token, "rocm-" + token,
                 "'6.2 \\x1b" + token + "'", "6.2 \\u001b" + token):
        assert token[4:] not in SecretRedactor().text(text), text


_ADVERSARIAL = ["a", "A", "0", "_", "-", ".", "/", ":", "=", "@", " ", "hf_", "sk-", "eyJ", "eyJa.", "xoxb-", "ghp_", "AKIA",
                "://", "://a:", "~/", "/home/a", "/home/a/", "a=", "TOKEN=", "--token ", "Authorization:", "-----BEGIN PRIVATE KEY-----",
                "AccountKey=", "1Q~", "abc1Q~", "ya29.", "a\\", "/root/", '-----BEGIN PRIVATE KEY-----"',
                "\\nhf_", "_eyJ", "eyJ" + "a" * 390 + "."]


LINEAR_CHARS = 25_000
"""Long enough that a quadratic pattern costs seconds (detect-secrets' npm pattern: 7 s on 20 KB; even a mild one,
``[A-Za-z0-9_]*[0-9]`` on a run of letters, took 5.8 s of CPU here), short enough that the 39 shapes cost about 3 s of
CPU in all (the worst linear one 0.2 s). It was 100 KB (12 s of CPU for the same verdicts); checked on 2026-11-29 by
adding that mild pattern to the redactor's SHAPES: the letter runs fail at this size."""
LINEAR_CPU_SECONDS = 2.0
"""CPU seconds, not wall time: on a shared machine the wall clock counts the other processes too."""


@pytest.mark.parametrize("piece", _ADVERSARIAL)
def test_redaction_is_linear_on_long_runs_of_any_shape(piece: str) -> None:
    # Every stage of a report runs.
    redactor = ReportRedactor.create(Redactor.from_names(["alice"], ["quokka-node-77"], ["/home/alice"]))
    text = (piece * (LINEAR_CHARS // len(piece) + 1))[:LINEAR_CHARS]
    started = time.process_time()
    redactor.text(text)
    assert time.process_time() - started < LINEAR_CPU_SECONDS


def test_no_secret_pattern_repeats_a_group() -> None:
    # Linear by construction: every quantifier repeats one character class, never a group (a group may be optional).
    import re

    try:
        from re import _parser as parser  # Python 3.11+
    except ImportError:  # pragma: no cover - Python 3.10
        import sre_parse as parser  # type: ignore[no-redef]

    def repeats_a_group(items: Any) -> bool:
        for op, value in items:
            if op in (parser.MAX_REPEAT, parser.MIN_REPEAT):
                body = value[2]
                if value[1] > 1 and any(inner_op not in (parser.LITERAL, parser.IN, parser.ANY, parser.NOT_LITERAL) for inner_op, _ in body):
                    return True
            elif op == parser.SUBPATTERN and repeats_a_group(value[-1]):
                return True
            elif op == parser.BRANCH and any(repeats_a_group(branch) for branch in value[1]):
                return True
        return False

    import rocm_doctor.redact as redact
    import rocm_doctor.redact_secrets as secrets

    patterns = [pattern for _, pattern in SHAPES] + [
        value for module in (secrets, redact) for value in vars(module).values() if isinstance(value, re.Pattern)
        and value.pattern.startswith(("(?<=://)", "(?<![A-Za-z0-9-])(", "(?<![A-Za-z0-9_])", "-----", "(?P<home>"))]
    assert len(patterns) > len(SHAPES) + 4
    assert [p.pattern for p in patterns if repeats_a_group(parser.parse(p.pattern))] == []


# -- the reproducers -------------------------------------------------------------------------

HF = "hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
AWS = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"


def test_exported_tokens_in_a_paste_are_not_in_the_report(run_cli, tmp_path: Path) -> None:
    paste = tmp_path / "p.txt"
    paste.write_text(f"export HF_TOKEN={HF}\nexport AWS_SECRET_ACCESS_KEY={AWS}\n", encoding="utf-8")
    assert run_cli("report", "--from", str(paste), "-o", str(tmp_path / "r.md")).exit_code in (0, 1)
    text = (tmp_path / "r.md").read_text(encoding="utf-8")
    assert (text.count(HF), text.count(AWS)) == (0, 0)
    assert "HF_TOKEN" in text  # the name stays: a maintainer sees that it was set


def test_a_token_before_a_command_in_a_paste_is_not_in_the_report(run_cli, tmp_path: Path) -> None:
    paste = tmp_path / "p.txt"
    paste.write_text(f"$ HF_TOKEN={HF} python train.py\nRuntimeError: HIP error: invalid device function\n", encoding="utf-8")
    result = run_cli("report", "--from", str(paste))
    assert result.exit_code in (0, 1) and HF not in result.stdout and "hip_invalid_device_function" in result.stdout


def test_a_random_credential_under_a_name_no_scanner_knows_is_not_in_the_report(run_cli, tmp_path: Path) -> None:
    # The last session's leftover: a service's key echoed from its variable, and a key exported under an
    # unmarked name, stayed whole in the environment table and the facts JSON.
    echoed, exported = "ak_live_5Jx9Qm2LpR7vT3nW8yZ4bK6cF1hD0gS", "Zr4Tq8LmW2xN7vB5kP9sD3fG6hJ1cY0a"
    paste = tmp_path / "p.txt"
    paste.write_text(f"$ echo $COMFY_ORG_AK\n{echoed}\n$ export MYAPP_CONN={exported}\n$ export MY_SERVICE_AUTH=9f8e7d6c5b4a39281706f5e4d3c2b1a0\n"
                     "RuntimeError: HIP error: invalid device function\n", encoding="utf-8")
    assert run_cli("report", "--from", str(paste), "-o", str(tmp_path / "r.md")).exit_code in (0, 1)
    text = (tmp_path / "r.md").read_text(encoding="utf-8")
    assert (text.count(echoed), text.count(exported), text.count("9f8e7d6c5b4a39281706f5e4d3c2b1a0")) == (0, 0, 0)
    assert "MYAPP_CONN" in text and "MY_SERVICE_AUTH" in text


def test_names_hashes_symbols_and_kernel_names_that_mix_letters_and_digits_are_kept() -> None:
    text = ("DeepSeek-R1-Distill-Qwen-14B-Q4_K_M Qwen2.5-Coder-32B-Instruct-GGUF MyCompanyProductionCluster01 "
            "undefined symbol: _ZN3c104cuda9SetDeviceEi conv_asm_7x7c3h224w224k64u2v2p3q3f1 "
            "/nix/store/n9vi0wbn80mf0wxmw7hrvrxzabmnf581-python3.13-torch-2.11.0 v2.5.0-rc3-g1a2b3c4d5e6f7a8b9c0d "
            "GPU-7f3e2a1b-1c2d-3e4f-5a6b-7c8d9e0f1a2b torch-2.13.0+rocm7.0-cp312-cp312-manylinux_2_28_x86_64.whl "
            "TheRock_Nightly_gfx1151_Build2025 OAUTH_CLIENT_ID=x AUTHOR=someone")
    assert SecretRedactor().text(text) == text
    assert is_secret_name("MY_SERVICE_AUTH") and is_secret_name("AUTH_HEADER")
    assert not is_secret_name("AUTHOR") and not is_secret_name("OAUTH_CLIENT_ID")


def _copy_machine(tmp_path: Path, name: str = "ubuntu2204-6700xt") -> Path:
    folder = tmp_path / name
    shutil.copytree(TESTS / "machines" / name, folder)
    return folder


def _edit_yaml(path: Path, edit) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    edit(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")


def test_tokens_inside_the_values_of_kept_variables_are_not_in_the_report(run_cli, tmp_path: Path) -> None:
    folder = _copy_machine(tmp_path)
    tokens = {"PYTORCH_HIP_ALLOC_CONF": "garbage_collection_threshold:0.8,ghp_" + "Q7" * 18,
              "HIP_VISIBLE_DEVICES": "0,glpat-" + "x9Y" * 7, "ROCM_PATH": "/opt/rocm-" + HF}
    _edit_yaml(folder / "machine.yaml", lambda data: data["env"].update(tokens))
    unredacted = run_cli("report", "--machine", str(folder), "--no-redact").stdout
    assert all(value in unredacted for value in tokens.values())
    result = run_cli("report", "--machine", str(folder))
    assert result.exit_code in (0, 1)
    assert survivors(result.stdout, ["Q7" * 18, "x9Y" * 7, HF[3:]]) == []
    assert "garbage_collection_threshold:0.8" in result.stdout  # the setting itself is kept


def test_a_host_name_after_a_hyphen_or_a_dot_is_not_in_the_report(run_cli, tmp_path: Path) -> None:
    folder = _copy_machine(tmp_path)
    (folder / "files/etc/hostname").write_text("quokka-node-77\n", encoding="utf-8")
    _edit_yaml(folder / "machine.yaml", lambda data: data["env"].update(
        {"HIP_PATH": "/scratch/cache-quokka-node-77/hip", "MIOPEN_USER_DB_PATH": "/scratch/db.quokka-node-77_x"}))
    assert "quokka-node-77" in run_cli("report", "--machine", str(folder), "--no-redact").stdout
    result = run_cli("report", "--machine", str(folder))
    assert result.exit_code in (0, 1) and "quokka" not in result.stdout
    assert "/scratch/cache-<host>/hip" in result.stdout


def test_project_folder_names_under_home_are_not_in_the_report(run_cli, tmp_path: Path) -> None:
    folder = _copy_machine(tmp_path)
    for name in ("machine.yaml", "commands.yaml"):
        path = folder / name
        path.write_text(path.read_text(encoding="utf-8").replace("/home/user/sd/", "/home/user/acme-secret-proj/"),
                        encoding="utf-8")
    (folder / "files/home/user/sd").rename(folder / "files/home/user/acme-secret-proj")
    unredacted = run_cli("report", "--machine", str(folder), "--no-redact").stdout
    assert unredacted.count("acme-secret-proj") > 5
    result = run_cli("report", "--machine", str(folder))
    assert result.exit_code in (0, 1) and "acme-secret-proj" not in result.stdout
    assert "/home/<user>/<name-1>/venv/bin/python" in result.stdout  # where torch ran is still readable
    assert run_cli("check", "--from", _write(tmp_path / "r.md", result.stdout)).exit_code in (0, 1)


def _write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_home_folder_keeps_the_names_tools_make_and_hides_the_users_own() -> None:
    homes = HomePathRedactor()
    assert homes.text("/home/bob/work/acme/.venv/lib/python3.12/site-packages/torch/lib/libamdhip64.so") == \
        "/home/<user>/<name-1>/<name-2>/.venv/lib/python3.12/site-packages/torch/lib/libamdhip64.so"
    assert homes.text(r"C:\Users\bob\acme\venv\Scripts\python.exe") == r"C:\Users\<user>\<name-2>\venv\Scripts\python.exe"
    assert homes.text('File "/home/bob/acme/train.py", line 3') == 'File "/home/<user>/<name-2>/<name-3>.py", line 3'
    assert homes.text("bob@box:~/acme$ ls /opt/rocm/lib") == "bob@box:~/<name-2>$ ls /opt/rocm/lib"


# -- the corpus: every field of every recorded machine, every real paste ------------------------------


@pytest.mark.parametrize("machine", MACHINES, ids=[m.name for m in MACHINES])
def test_secrets_planted_in_every_field_of_a_recorded_machine_never_reach_its_report(
        run_cli, machine: Path, tmp_path: Path) -> None:
    folder = tmp_path / machine.name
    shutil.copytree(machine, folder)
    planted = plant_machine(folder, random.Random(machine.name))
    unredacted = run_cli("report", "--machine", str(folder), "--no-redact")
    reached = survivors(unredacted.stdout, planted)
    assert len(reached) >= 10, "the planting must reach the report for the test to mean anything"
    result = run_cli("report", "--machine", str(folder))
    assert result.exit_code in (0, 1), result.stderr
    assert survivors(result.stdout, planted) == []
    assert scanner_findings(result.stdout) == []


def test_secrets_planted_in_a_recording_never_reach_the_recording_made_from_it(run_cli, tmp_path: Path) -> None:
    source = tmp_path / "source"
    shutil.copytree(TESTS / "machines" / "ubuntu2204-6700xt", source)
    planted = plant_machine(source, random.Random("recording"))
    again = tmp_path / "again"
    assert run_cli("facts", "--machine", str(source), "--record", str(again)).exit_code == 0
    texts = "\n".join(p.read_text(encoding="utf-8", errors="replace") + str(p) for p in again.rglob("*") if p.is_file())
    assert survivors(texts, planted) == []


_PASTES = pastes(PASTE_CORPORA)
_RULES: List[Any] = []


PASTE_SAMPLE = 60
"""CI plants secrets in about this many real pastes, spread evenly over the corpora in name order; ``--all-pastes``
plants them in every one. A fixed count, not a fixed share: every tenth paste was 70 pastes in session 50 and 123
in session 56 (21 CPU-s), and a grown corpus brings more of the same shapes, not new ones."""


def paste_step(count: int) -> int:
    """The n of every n-th paste: 10 while the corpora are small, then large enough that about :data:`PASTE_SAMPLE` are
    taken."""
    return max(10, -(-count // PASTE_SAMPLE))


def test_the_paste_corpora_are_there() -> None:
    assert len([name for name in _PASTES if not name[0].startswith("shared/")]) >= 50


def test_the_paste_sample_is_spread_over_every_corpus_and_stays_its_size() -> None:
    chosen = _PASTES[:: paste_step(len(_PASTES))]
    assert PASTE_SAMPLE // 2 <= len(chosen) <= PASTE_SAMPLE + 1
    assert paste_step(300) == 10 and paste_step(1300) == 22
    folders = {name.split("/")[0] for name, _ in _PASTES}
    assert {name.split("/")[0] for name, _ in chosen} == folders


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    # Each paste runs the whole pipeline and builds the report twice (a sixth of a second of CPU): CI plants secrets
    # in a fixed sample of every corpus (about PASTE_SAMPLE reports of every shape, each with every form planted);
    # `--all-pastes` plants in all.
    if metafunc.function.__name__ == "test_secrets_planted_in_a_real_paste_never_reach_its_report":
        chosen = _PASTES if metafunc.config.getoption("--all-pastes") else _PASTES[:: paste_step(len(_PASTES))]
        metafunc.parametrize("name,report", chosen, ids=[name for name, _ in chosen])


def test_secrets_planted_in_a_real_paste_never_reach_its_report(name: str, report: str, tmp_path: Path) -> None:
    # As ``report --from`` does it (the command itself is tested above), for each real paste.
    _RULES[:] = _RULES or load_rules([], use_env=False)
    text, planted = plant_paste(report, random.Random(name))
    path = tmp_path / "paste.txt"
    path.write_text(text, encoding="utf-8")
    facts = load_facts(FactsSource(from_file=str(path)))
    result = evaluate(_RULES, facts)
    assert survivors(build_report(result, "test"), planted), "the planting must reach the report to mean anything"
    redacted = build_report(result, "test", ReportRedactor.create(facts_redactor(facts)))
    assert survivors(redacted, planted) == []
    assert scanner_findings(redacted) == []


@pytest.mark.live_machine
def test_secrets_in_this_machines_environment_never_reach_its_report(run_cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_TOKEN", HF)
    monkeypatch.setenv("PYTORCH_HIP_ALLOC_CONF", "expandable_segments:True,ghp_" + "L1ve" * 9)
    monkeypatch.setenv("HSA_OVERRIDE_GFX_VERSION", "11.0.0")
    unredacted = run_cli("report", "--no-torch", "--no-redact").stdout
    assert "L1ve" * 9 in unredacted
    result = run_cli("report", "--no-torch")
    assert result.exit_code in (0, 1) and survivors(result.stdout, [HF[3:], "L1ve" * 9]) == []


def test_a_token_without_a_digit_found_under_a_secret_name_goes_from_every_other_place() -> None:
    # Found by the 10,000-example fuzz run: a 24-letter token has no digit about one time in seventy, and
    # the folder name a reader kept of it (a venv's name) survived.
    from rocm_doctor.redact_secrets import SecretRedactor

    redactor = SecretRedactor()
    redactor.learn({"prefix": "/home/u/export APP_SECRET=phWpKWJJGxmTgKYhcKissmoO,/venv"})
    assert "phWpKWJJ" not in redactor.text("env_name: phWpKWJJGxmTgKYhcKissmoO,")
    assert redactor.text("configurationfile and /usr/lib/python3") == "configurationfile and /usr/lib/python3"


def test_a_report_of_a_pasted_file_learns_its_secrets_in_their_own_words_first(tmp_path) -> None:
    # Found by the fuzz run: a reader kept a planted password as a GPU name, without the "password:" before it.
    from rocm_doctor.cli.inputs import FactsSource
    from rocm_doctor.cli.report_cmd import report_redactor
    from rocm_doctor.facts.model import Facts

    paste = tmp_path / "paste.txt"
    paste.write_text("name: AMD Radeon RX 9070 XT\npassword: eMpqN4QHVtzV0ZPn4nr4\n", encoding="utf-8")
    redactor = report_redactor(FactsSource(from_file=str(paste)), Facts())
    assert "eMpqN4QHVtzV" not in redactor.text('"name": "eMpqN4QHVtzV0ZPn4nr4#"')


@pytest.mark.parametrize(
    ("line", "kept"),
    [
        ("MODEL_ID=x8Q2mZ7kP4nL9wR3tY6vB5kP9s python app.py", "MODEL_ID=<secret> python app.py"),
        ("--session=Zr4Tq8LmW2xN7vB5kP9sD3fG6hJ1cY0a --listen", "--session=<secret> --listen"),
        ("https://host/api?id=Zr4Tq8LmW2xN7vB5kP9sD3fG6hJ1cY0a&x=1", "https://host/api?id=<secret>&x=1"),
    ],
)
def test_a_random_value_after_a_name_goes_and_the_name_stays(line: str, kept: str) -> None:
    assert SecretRedactor().text(line) == kept


def test_base64_padding_goes_with_the_random_run_it_ends() -> None:
    assert SecretRedactor().text("blob: aGVsbG8gd29ybGQgdGhpcyBpcyBiYXNlNjQgZW5jb2RlZA== end") == "blob: <secret> end"
