"""Pure, tolerant parsers of tool output and kernel files (no machine access here)."""
