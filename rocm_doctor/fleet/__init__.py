"""The aggregate view of many nodes (``rocm-doctor fleet DIR|FILES...``).

* :mod:`.load`: node documents (check, facts, bench JSON) -> small per-node summaries;
* :mod:`.aggregate`: stack drift, findings by rule, peer-relative benchmark outliers;
* :mod:`.render`: the ``rocm-doctor/fleet/1`` JSON document, console text, markdown.
"""
