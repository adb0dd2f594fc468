"""What the store raises, one exception for each way a read or a write can fail."""


class StaleEntry(Exception):
    """The match changed since the form was shown (another phone entered, took back or
    corrected a hand)."""


class Unavailable(Exception):
    """The database cannot be used just now (a full disk, a read-only file, a file that is
    not Tablemate's): nothing was saved, and the next request tries afresh."""


class Damaged(Unavailable):
    """SQLite finds the database file malformed (cut short, a page overwritten): nothing is
    read from it or written into it until a backup is restored."""

    def __init__(self, path: str, problem: str):
        super().__init__(f"the database file {path} is damaged ({problem}): restore a backup "
                         "(flask restore)")


class ResultConfirmed(Exception):
    """The match's result was confirmed by both pairs (or the organiser) of a club night:
    its hands change only once the organiser reopened it."""


class MatchFull(Exception):
    """The match holds ``MAX_ENTRIES`` entries: no more can be added to it."""


class BadBackup(Exception):
    """A file offered for a restore is not a sound Tablemate database."""


class MatchDeleted(Exception):
    """The match behind the link was deleted; until ``restorable_until`` its edit link can
    restore it."""

    def __init__(self, match, read_only: bool, restorable_until: str):
        super().__init__(match.id)
        self.match, self.read_only, self.restorable_until = match, read_only, restorable_until
