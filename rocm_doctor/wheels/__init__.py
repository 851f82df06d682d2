"""Which torch build fits a machine: the one chooser that ``fix`` and the derived facts share.

:mod:`rocm_doctor.wheels.choice` decides (pytorch.org, AMD's Windows wheels, TheRock) from the facts
and the kernel driver's derived values it is given; :mod:`rocm_doctor.wheels.wheeldata` is its narrow
view of the wheel tables; :mod:`rocm_doctor.wheels.platform` says which platforms a machine matches.
"""
