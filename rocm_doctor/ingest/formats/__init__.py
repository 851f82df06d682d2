"""One parser module per kind of pasted text; each exposes ``parse(block) -> list[Piece]``."""
