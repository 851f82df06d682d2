"""Decide each fix once: typed fixes -> exact steps for one machine, its shell and its interpreter.

Pure functions over findings and facts: :mod:`rocm_doctor.remedy.decide` is the one chooser,
:mod:`rocm_doctor.wheels.choice` picks the torch build, :mod:`rocm_doctor.shells` writes
commands for the user's shell, :mod:`rocm_doctor.model.remedy` holds the results.
"""
