"""The one exception the rules raise: a stable code plus the values its message needs."""


class ScoringError(ValueError):
    """A rule refused the input; ``code`` names the rule, ``params`` fill its message."""

    def __init__(self, code: str, **params):
        super().__init__(code, params)
        self.code = code
        self.params = params

    def __str__(self) -> str:
        details = ", ".join(f"{key}={value!r}" for key, value in sorted(self.params.items()))
        return f"{self.code}({details})"


class CardError(ScoringError):
    """A card could not be read or does not belong to the deck in use."""


class SetupError(ScoringError):
    """The players or options of a new match break a rule."""


class HandError(ScoringError):
    """A hand's entry breaks a rule or comes at the wrong time."""


class MeldError(ScoringError):
    """The cards are no legal meld (or cannot be added to one)."""
