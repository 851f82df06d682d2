"""Baselines: a machine's state remembered (redacted facts, findings, rule database), to compare with later.

``store`` keeps them in the user's data folder; ``capture`` builds one from facts and findings.
"""
