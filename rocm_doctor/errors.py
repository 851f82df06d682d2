"""Errors that reach the user as one line and an exit code, never a traceback."""

from __future__ import annotations


class DoctorError(Exception):
    """Root of rocm-doctor's own errors."""

    exit_code = 3


class InputError(DoctorError):
    """Bad input from the user: a malformed rule file, facts file, machine folder or option.

    The message names the file, line and field where it can.
    """

    exit_code = 2
