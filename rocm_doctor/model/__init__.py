"""The typed vocabulary every stage above facts shares: rules, findings, fixes, remedies.

:mod:`rocm_doctor.model.rules` (a rule of the database, a finding, an undecided rule, the
categories, severities and actions), :mod:`rocm_doctor.model.fixes` (the typed fixes a rule
declares) and :mod:`rocm_doctor.model.remedy` (what the decide stage makes of them: a finding's
remedy, the machine's plan). Pure data: this package imports nothing above the base modules,
so the judge, the chooser, the renderers and the paste readers all import it downward.
"""
