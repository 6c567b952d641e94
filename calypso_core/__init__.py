"""Calypso, the four-trump partnership card game: rules engine and computer players."""

__version__ = "0.1.0"
