"""Renderers: turn results into text for people (console) or programs (JSON)."""
