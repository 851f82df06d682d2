"""Which rule database is in use, and how a signed update of it is fetched, checked and installed.

The shipped database (``rules/`` in the repository, ``rocm_doctor/_rules`` in the wheel) is the
floor. ``rocm-doctor rules update`` may install a newer one, signed by the project's release key,
into the user's data folder; ``rules update --revert`` goes back to the one before. Nothing here
imports the judge, the facts or the renderers: the layers above ask which folder to read.
"""
