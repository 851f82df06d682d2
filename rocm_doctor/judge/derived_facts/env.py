"""Derived facts about environment variables: allocator settings, myths, XNACK.

Every variable's meaning comes from ``rules/data/env_vars.yaml``, read through
:mod:`rocm_doctor.knowledge.env_vars`; the XNACK feature per gfx target from
``rules/data/xnack.yaml`` (LLVM AMDGPUUsage processor table).
"""

from __future__ import annotations

import re
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple, TypeVar

from packaging.version import Version

from rocm_doctor.facts.model import Facts, GpuAgent
from rocm_doctor.facts.value import Fact, absent, known, unknown
from rocm_doctor.judge.derived import Tables, machine_fact
from rocm_doctor.judge.derived_facts._support import list_fact
from rocm_doctor.judge.derived_facts.gpus import amd_agents
from rocm_doctor.knowledge.env_vars import env_var_table

T = TypeVar("T")

ALLOC_CONF_ORDER = ("PYTORCH_ALLOC_CONF", "PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_HIP_ALLOC_CONF")
"""Where the generic allocator keys (expandable_segments, max_split_size_mb ...) come from: the
first of these that is set (c10/core/AllocatorConfig.cpp,
https://github.com/pytorch/pytorch/blob/0ac716637f3258efcaf7fdfb851bdd520c9c1441/c10/core/AllocatorConfig.cpp).
The CUDA/HIP-specific keys (backend, release_lock_on_hipmalloc, pinned_*) are read CUDA, HIP, then the
generic name; either way the HIP spelling is read only when PYTORCH_CUDA_ALLOC_CONF is unset. Builds
older than the generic name read only the CUDA and HIP spellings."""

DEDICATED_RULES = {"HIP_DISABLE_IPC": "RD400"}
"""Unread variables with a rule of their own, left out of the generic unread-variable list."""

ENV_SOURCE = "env"
EXPANDABLE_SEGMENTS_MIN_ROCM = Version("7.0")
"""ROCm builds support expandable segments from ROCm 7.0.0: https://github.com/pytorch/pytorch/pull/179930
(which corrected the TORCH_HIP_VERSION >= 702 gate, i.e. HIP 7.2, of https://github.com/pytorch/pytorch/pull/179781)."""
NO_ALLOC_CONF = "no allocator configuration variable is set"


def env_vars(facts: Facts) -> Optional[Dict[str, str]]:
    """The set variables, ``{}`` when none is set, None when the environment was not read."""
    fact = facts.env.vars
    if fact.status == "known":
        return dict(fact.value or {})
    if fact.status == "absent":
        return {}
    return None


def env_unknown(facts: Facts) -> Fact:
    """The unknown fact to return when the environment was not read."""
    return unknown(facts.env.vars.reason or "the environment variables were not read")


def not_shown(facts: Facts, names: Iterable[str]) -> Optional[Fact]:
    """``unknown`` when one of ``names`` is neither set nor covered by the listing the facts hold.

    A pasted report shows some variables (an ``export`` line, an ``env | grep HSA`` listing):
    a variable it does not show is not known to be unset (``env.coverage``).
    """
    env = env_vars(facts)
    if env is None:
        return env_unknown(facts)
    hidden = [n for n in names if n not in env and not facts.env.covers(n)]
    if hidden:
        return unknown(f"{hidden[0]} is not shown in the report (run: env | grep -E 'HSA|HIP|ROCR|PYTORCH')")
    return None


def with_env(facts: Facts, compute: Callable[[Dict[str, str]], Fact], needs: Iterable[str] = ()) -> Fact:
    """``compute(set variables)`` (``{}`` when none is set), :func:`env_unknown` when the
    environment was not read, unknown when a variable in ``needs`` is not shown (a partial listing)."""
    env = env_vars(facts)
    if env is None:
        return env_unknown(facts)
    return not_shown(facts, needs) or compute(env)


SESSION, SAID = "session", "said"
"""The scopes of a setting that is no command's own: the session's (an ``export``, a listing, a file), which every
later command inherits; and one a sentence tells ("I use HIP_VISIBLE_DEVICES=1 for my script"), which the
report does not put in any one command's environment."""


OWN_ENVIRONMENT_INHERITS = {"compose": frozenset({"dockerfile"}), "docker-run": frozenset({"dockerfile"}), "systemd": frozenset()}
"""A command whose settings are a service's or a container's own environment (a compose service's ``environment:``,
``docker run -e``, a systemd unit's ``Environment=``) starts its program from the container runtime or from systemd,
not from the report's shell: the session's exports, ``set``/``setx`` lines, shell startup files and listings do not
reach it (Docker's run reference: a container gets the variables its ``-e``/``--env`` options and its image name;
systemd.exec(5): "processes started by the service manager" get the unit's Environment= and the manager's own
environment, not a login shell's). What each such origin does inherit of the session: a container its image's
``ENV`` (a Dockerfile), a systemd unit nothing the report's session shows."""


class _Scope:
    """Where one variable's value in ``env.vars`` comes from: the origins of the session settings giving it, whether
    a sentence tells it, and the commands whose own environment gives it."""

    __slots__ = ("session", "said", "commands")

    def __init__(self, session: frozenset, said: bool, commands: frozenset) -> None:
        self.session, self.said, self.commands = session, said, commands

    @property
    def kind(self) -> Any:
        """:data:`SESSION` when a session setting gives it, else :data:`SAID`, else the commands."""
        if self.session:
            return SESSION
        return SAID if self.said or not self.commands else self.commands


def _scope_of(facts: Facts, name: str, value: str) -> _Scope:
    """Where ``name`` gets its value in ``env.vars`` (:class:`_Scope`)."""
    settings = facts.env.settings.value if facts.env.settings.is_known else None
    commands = set()
    session = set()
    said = False
    for setting in settings or []:
        if setting.name != name or setting.value != value or setting.reaches is False or setting.for_error is False:
            continue
        if setting.command is not None:
            commands.add(setting.command)
        elif setting.origin == "prose":
            said = True
        else:
            session.add(setting.origin)
    if not (session or said or commands):
        session.add("")  # no setting read gives it: the session's, as env.vars is
    return _Scope(frozenset(session), said, frozenset(commands))


def _own_environment_origin(facts: Facts, command: str) -> Optional[str]:
    """The origin of ``command``'s settings when they are a service's or a container's own environment
    (:data:`OWN_ENVIRONMENT_INHERITS`), else None."""
    settings = facts.env.settings.value if facts.env.settings.is_known else None
    for setting in settings or []:
        if setting.command == command and setting.origin in OWN_ENVIRONMENT_INHERITS:
            return setting.origin
    return None


def _command_environments(facts: Facts) -> Optional[Tuple[List[Tuple[Dict[str, str], bool]], Dict[str, str]]]:
    """Each command's environment with whether it is a service's or a container's own (which no session setting but
    what it inherits reaches), and the session's with what sentences tell; None when the environment was not read."""
    env = env_vars(facts)
    if env is None:
        return None
    scopes = {name: _scope_of(facts, name, value) for name, value in env.items()}
    commands = sorted({c for scope in scopes.values() if scope.kind != SAID for c in scope.commands})
    rest = {n: v for n, v in env.items() if not isinstance(scopes[n].kind, frozenset)}
    out = []
    for command in commands:
        origin = _own_environment_origin(facts, command)
        inherits = OWN_ENVIRONMENT_INHERITS.get(origin) if origin is not None else None

        def reaches(scope: _Scope) -> bool:
            if scope.kind != SAID and command in scope.commands:
                return True
            return scope.kind == SESSION and (inherits is None or bool(scope.session & inherits))

        out.append(({n: v for n, v in env.items() if reaches(scopes[n])}, inherits is not None))
    return out, rest


def environments(facts: Facts) -> Optional[List[Dict[str, str]]]:
    """The environments one program ran under, each a dict of the set variables; None when the environment
    was not read.

    ``env.vars`` puts every setting a report shows together; a command's own prefix (``ROCR_VISIBLE_DEVICES=1
    ollama serve``) is that command's environment only (:attr:`rocm_doctor.facts.model.EnvSetting.command`).
    So: one environment for each such command (the session's settings and that command's prefix), and the
    session's with what sentences tell; a sentence's setting is not put together with a command's prefix. A rule that judges two variables together (ROCR_VISIBLE_DEVICES with HIP_VISIBLE_DEVICES,
    two allocator spellings) asks each of these, never two commands' prefixes at once: a report that runs
    ``ROCR_VISIBLE_DEVICES=1 ollama serve`` and ``HIP_VISIBLE_DEVICES=1 python x.py`` masks no device twice.
    A compose service's, a ``docker run -e`` container's or a systemd unit's own settings are not put together with
    the shell's exports either (:data:`OWN_ENVIRONMENT_INHERITS`): ``export HIP_VISIBLE_DEVICES=1`` in a terminal
    and a compose service's ``ROCR_VISIBLE_DEVICES=1`` mask no device twice.
    A report without a command prefix has the one environment ``env.vars``."""
    found = _command_environments(facts)
    if found is None:
        return None
    commands, rest = found
    if not commands:
        return [rest]
    return [own for own, _ in commands] + [rest]


def program_environments(facts: Facts) -> Optional[List[Dict[str, str]]]:
    """:func:`environments` less the session's own when the report gives commands their own environments: the
    environments a report shows a program running under. A fact that a variable *hides* something (the iGPU
    masked by ``ROCR_VISIBLE_DEVICES=1 ollama serve``) must not be judged on the bare session, which may run
    nothing: judged there, a workaround the report applies to its program would be read as missing (unless the report
    starts a program with no prefix of its own, ``env.session_programs``: that program runs under the session's). A setting a
    sentence tells ("I use ROCR_VISIBLE_DEVICES=1") joins each program's here (its own prefix wins): for such a fact,
    an extra mask costs a finding, never a wrong one. A service's or a container's own environment takes the sentence's
    settings too, but not the shell's session (:data:`OWN_ENVIRONMENT_INHERITS`)."""
    found = _command_environments(facts)
    if found is None:
        return None
    commands, rest = found
    if not commands:
        return [rest]
    said = {n: v for n, v in rest.items() if _scope_of(facts, n, v).kind == SAID}
    own_environments = [{**(said if closed else rest), **own} for own, closed in commands]
    # drv61: a program the report starts with no prefix of its own (``python b.py`` beside ``ROCR_VISIBLE_DEVICES=1
    # python a.py``) runs under the session's settings: its environment is one of the programs' too
    bare = facts.env.session_programs
    if bare.is_known and bare.value and rest not in own_environments:
        own_environments.append(rest)
    return own_environments


def with_each_env(facts: Facts, compute: Callable[[Dict[str, str]], Fact], needs: Iterable[str] = (), programs: bool = False) -> Fact:
    """:func:`with_env` for a fact that judges variables together: ``compute`` over each of :func:`environments`,
    the first that holds (known and true, or a known value), else the session's answer. With ``programs``, over
    :func:`program_environments`: for a fact that one variable can stop (a mask, a per-node override, a second
    variable a launcher accepts), which the bare session would lack."""
    envs = program_environments(facts) if programs else environments(facts)
    if envs is None:
        return env_unknown(facts)
    hidden = not_shown(facts, needs)
    if hidden is not None:
        return hidden
    return first_holding(envs, compute, lambda result: result.is_known and bool(result.value))


def first_holding(envs: List[Optional[Dict[str, str]]], compute: Callable[[Any], T], holds: Callable[[T], bool]) -> T:
    """``compute`` over each environment in turn (:func:`environments`), the first result that ``holds``, else the
    last one's: a finding about one program's environment needs only that program."""
    result = compute(envs[0])
    for env in envs[1:]:
        if holds(result):
            break
        result = compute(env)
    return result


def _alloc_conf(env: Dict[str, str]) -> Tuple[Optional[str], Optional[str]]:
    """(variable, value) of the allocator configuration PyTorch uses, (None, None) when none is set."""
    for name in ALLOC_CONF_ORDER:
        if env.get(name):
            return name, env[name]
    return None, None


def _with_alloc_conf(facts: Facts, compute: Callable[[Optional[str], Optional[str], Dict[str, str]], Fact]) -> Fact:
    """``compute(variable, value, set variables)`` after :func:`_alloc_conf`, via :func:`with_env`."""
    return with_env(facts, lambda env: compute(*_alloc_conf(env), env), needs=ALLOC_CONF_ORDER)


@machine_fact(
    "alloc_conf_variable",
    "Which allocator variable PyTorch takes the generic keys (expandable_segments ...) from: "
    "PYTORCH_ALLOC_CONF, else PYTORCH_CUDA_ALLOC_CONF, else PYTORCH_HIP_ALLOC_CONF "
    "(c10/core/AllocatorConfig.cpp); absent when none is set.",
)
def alloc_conf_variable(facts: Facts, tables: Tables) -> Fact:
    return _with_alloc_conf(facts, lambda name, _, env: known(name, ENV_SOURCE) if name else absent(ENV_SOURCE, NO_ALLOC_CONF))


@machine_fact(
    "alloc_conf_effective",
    "The allocator configuration string PyTorch will use, after the precedence of "
    "derived.alloc_conf_variable; absent when none is set.",
)
def alloc_conf_effective(facts: Facts, tables: Tables) -> Fact:
    return _with_alloc_conf(facts, lambda name, value, _: known(value, f"env:{name}") if name else absent(ENV_SOURCE, NO_ALLOC_CONF))


def expandable_segments_on(conf: str) -> bool:
    """True when an allocator configuration string turns expandable_segments on."""
    for part in conf.split(","):
        key, _, value = part.partition(":")
        if key.strip() == "expandable_segments" and value.strip().lower() == "true":
            return True
    return False


@machine_fact(
    "expandable_segments_requested",
    "The effective allocator configuration sets expandable_segments:True.",
)
def expandable_segments_requested(facts: Facts, tables: Tables) -> Fact:
    return _with_alloc_conf(
        facts,
        lambda name, value, _: known(bool(value) and expandable_segments_on(value or ""), f"env:{name}" if name else ENV_SOURCE),
    )


@machine_fact(
    "hip_alloc_conf_shadowed",
    "PYTORCH_HIP_ALLOC_CONF is set but ignored because PYTORCH_CUDA_ALLOC_CONF is set to something "
    "else: PyTorch reads the HIP spelling only when the CUDA one is unset, for every key "
    "(c10/cuda/CUDAAllocatorConfig.h, c10/core/AllocatorConfig.cpp). With only PYTORCH_ALLOC_CONF "
    "beside it the HIP variable is not ignored: its CUDA/HIP-specific keys still apply.",
)
def hip_alloc_conf_shadowed(facts: Facts, tables: Tables) -> Fact:
    def shadowed(env: Dict[str, str]) -> Fact:
        hip = env.get("PYTORCH_HIP_ALLOC_CONF")
        cuda = env.get("PYTORCH_CUDA_ALLOC_CONF")
        return known(bool(hip) and bool(cuda) and cuda != hip, ENV_SOURCE)

    return with_each_env(facts, shadowed)


def _release(text: Optional[str]) -> Optional[Version]:
    if not text:
        return None
    try:
        return Version(Version(str(text).split("+")[0]).base_version)
    except ValueError:  # InvalidVersion, or a number part too long for int() (over 4,300 digits)
        return None


@machine_fact(
    "expandable_segments_supported",
    "The installed ROCm build of PyTorch honours expandable_segments: false before torch 2.11 "
    "(it warns 'expandable_segments not supported on this platform' and ignores it) and on "
    "ROCm < 7.0; true for torch >= 2.12 built with ROCm >= 7.0.0 (pytorch#177974; the gate "
    "pytorch#179781 put at TORCH_HIP_VERSION >= 702, i.e. HIP 7.2, was corrected to ROCM_VERSION >= 70000 by pytorch#179930); "
    "unknown for 2.11 (AMD backported it to ROCm/pytorch release/2.11, ROCm/pytorch#3106) and for "
    "Windows builds from 2.12 on; absent for a build that is not ROCm.",
)
def expandable_segments_supported(facts: Facts, tables: Tables) -> Fact:
    torch = facts.torch
    if torch.flavour.status != "known":
        return unknown(torch.flavour.reason or "the PyTorch build is not known")
    if torch.flavour.value != "rocm":
        return absent(torch.flavour.source or "torch", "not a ROCm build of PyTorch")
    version = _release(torch.version.value if torch.version.is_known else None)
    if version is None:
        return unknown("the PyTorch version is not known")
    source = torch.version.source or "torch"
    if version < Version("2.11"):
        return known(False, source)
    if version < Version("2.12") or facts.host.os.value == "windows":
        return unknown(f"torch {torch.version.value}: support depends on the build (AMD backport, Windows)")
    rocm = _release(torch.rocm_version.value if torch.rocm_version.is_known else None)
    if rocm is None:
        return unknown("the ROCm version of the PyTorch build is not known")
    return known(rocm >= EXPANDABLE_SEGMENTS_MIN_ROCM, torch.rocm_version.source or source)


def _selected(facts: Facts, tables: Tables, none_reason: str, keep: Callable[[Dict[str, str], str], bool], **where: Any) -> Fact:
    """The set variables that rules/data/env_vars.yaml selects by ``where`` (``read_by="none"``)
    and ``keep(env, name)`` accepts, as a :func:`list_fact`."""

    def names(env: Dict[str, str]) -> Fact:
        chosen = [n for n in env_var_table(tables["env_vars"]).select(env, **where) if keep(env, n)]
        return list_fact(chosen, ENV_SOURCE, none_reason)

    return with_env(facts, names)


@machine_fact(
    "unread_env_vars",
    "Set variables that nothing in ROCm or PyTorch reads (read_by: none in "
    "rules/data/env_vars.yaml, or a PyTorch variable whose read_by_torch range excludes the "
    "installed torch, e.g. DISABLE_ADDMM_HIP_LT with torch >= 2.5), except those with a rule of "
    "their own (HIP_DISABLE_IPC); absent when there are none.",
)
def unread_env_vars(facts: Facts, tables: Tables) -> Fact:
    table = env_var_table(tables["env_vars"])
    torch = _release(facts.torch.version.value) if facts.torch.version.is_known else None

    def names(env: Dict[str, str]) -> Fact:
        chosen: List[str] = []
        undecided: List[str] = []
        for name in sorted(env):
            row = table.lookup(name)
            if row is None or name in DEDICATED_RULES:
                continue
            if row.read_by == "none":
                chosen.append(name)
                continue
            verdict = row.unread_with_torch(torch)
            if verdict is True:
                chosen.append(name)
            elif verdict is None:
                undecided.append(name)
        if not chosen and undecided:
            return unknown(f"whether this torch reads {', '.join(undecided)} depends on its release, which is not known")
        return list_fact(chosen, ENV_SOURCE, "no variable that the runtime ignores is set")

    return with_env(facts, names)


@machine_fact(
    "build_time_env_vars",
    "Set variables that only matter when compiling PyTorch or extensions from source "
    "(read_by: build-time in rules/data/env_vars.yaml), e.g. PYTORCH_ROCM_ARCH; absent when none.",
)
def build_time_env_vars(facts: Facts, tables: Tables) -> Fact:
    return _selected(facts, tables, "no build-time variable is set", lambda env, n: True, read_by="build-time")


@machine_fact(
    "debug_env_vars",
    "Debugging aids that serialise or slow every run (debug: true in rules/data/env_vars.yaml, "
    "e.g. AMD_SERIALIZE_KERNEL, HIP_LAUNCH_BLOCKING) that are set to a value other than 0; "
    "absent when none.",
)
def debug_env_vars(facts: Facts, tables: Tables) -> Fact:
    return _selected(facts, tables, "no debugging variable is set", lambda env, n: env[n].strip() not in ("", "0"), debug=True)


def xnack_supported(gfx: str, tables: Tables) -> Optional[bool]:
    """Whether LLVM lists the xnack feature for ``gfx`` (rules/data/xnack.yaml); None if not listed."""
    for row in tables["xnack"]["targets"]:
        if re.fullmatch(row["gfx"], gfx):
            return bool(row["xnack"])
    return None


def _agent_label(agent: GpuAgent) -> str:
    name = agent.name.value if agent.name.is_known else f"GPU {agent.index}"
    return f"{name} ({agent.gfx.value})"


def _xnack_verdicts(facts: Facts, tables: Tables) -> Tuple[List[str], bool]:
    """(labels of AMD GPUs without XNACK, whether some AMD GPU could not be judged)."""
    lacking: List[str] = []
    undecided = False
    for agent in amd_agents(facts):
        verdict = xnack_supported(str(agent.gfx.value), tables) if agent.gfx.is_known else None
        if verdict is False:
            lacking.append(_agent_label(agent))
        elif verdict is None:
            undecided = True
    return lacking, undecided


@machine_fact(
    "xnack_unsupported_gpus",
    "AMD GPUs whose gfx target has no xnack feature in LLVM's processor table (RDNA2, RDNA3, "
    "RDNA3.5: rules/data/xnack.yaml), as 'name (gfx)'; absent when there are none.",
)
def xnack_unsupported_gpus(facts: Facts, tables: Tables) -> Fact:
    lacking, _ = _xnack_verdicts(facts, tables)
    return list_fact(lacking, "GPU discovery + rules/data/xnack.yaml", "every AMD GPU has XNACK or none was found")


@machine_fact(
    "xnack_env_on_rdna",
    "HSA_XNACK=1 is set while an AMD GPU without the xnack feature (RDNA2/3/3.5 per LLVM's "
    "AMDGPUUsage processor table) is present; unknown when a GPU's gfx is not in the table.",
)
def xnack_env_on_rdna(facts: Facts, tables: Tables) -> Fact:
    return with_env(facts, lambda env: _xnack_env_verdict(env, facts, tables), needs=("HSA_XNACK",))


def _xnack_env_verdict(env: Dict[str, str], facts: Facts, tables: Tables) -> Fact:
    if env.get("HSA_XNACK", "").strip() != "1":
        return known(False, ENV_SOURCE)
    lacking, undecided = _xnack_verdicts(facts, tables)
    if lacking:
        return known(True, "env:HSA_XNACK + rules/data/xnack.yaml")
    if undecided:
        return unknown("the XNACK support of a GPU's gfx target is not in rules/data/xnack.yaml")
    return known(False, "env:HSA_XNACK + rules/data/xnack.yaml")
