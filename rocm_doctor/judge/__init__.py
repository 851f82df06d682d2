"""Judge facts against the rule database: conditions, derived facts, findings."""
