"""Errors every command may raise."""


class UsageError(Exception):
    """Bad command-line input: printed as one ``error:`` line (in ``lang``), exit status 2."""

    def __init__(self, message: str, lang: str = "en") -> None:
        super().__init__(message)
        self.lang = lang
