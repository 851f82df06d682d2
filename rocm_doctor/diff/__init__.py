"""What changed between two states of a machine: pure functions over :class:`~rocm_doctor.facts.model.Facts`."""
