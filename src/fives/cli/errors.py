"""Errors every command may raise, and the one way they are printed."""

import sys


def print_error(message: str) -> None:
    """Print one error line. It always begins ``error:`` (RECORD.md: scripts and outside checks
    read that word, whatever the language); what follows is in the reader's language."""
    print(f"error: {message}", file=sys.stderr)


class UsageError(Exception):
    """Bad command-line input: printed as one ``error:`` line (in ``lang``), exit status 2."""

    def __init__(self, message: str, lang: str = "en") -> None:
        super().__init__(message)
        self.lang = lang
