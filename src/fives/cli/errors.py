"""Errors every command may raise."""


class UsageError(Exception):
    """Bad command-line input: printed as one ``error:`` line, exit status 2."""
