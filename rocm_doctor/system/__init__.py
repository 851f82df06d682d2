"""Machine access: the System interface, the live machine and recorded machines."""

from rocm_doctor.system.base import CommandResult, Identity, PlatformInfo, Resources, System

__all__ = ["CommandResult", "Identity", "PlatformInfo", "Resources", "System"]
