"""Speed, as ratios against a baseline measured in the same run (machines differ; ratios
travel). Run with `make bench`.

1. Rules search: the FTS5 trigram query against a plain LIKE scan of the same sections.
2. Re-scoring: the standings of a long Burraco match, derived from what was entered, against
   only reading those entries from the database (the floor every request pays anyway).
"""

import statistics
import tempfile
import timeit
from pathlib import Path

import store
from app import create_app
from rules_content import fold, fts_query, search_terms
from scoring.games import score

REPEAT, NUMBER = 7, 50


def best(statement) -> float:
    """Seconds per call, the median of several runs."""
    return statistics.median(timeit.repeat(statement, repeat=REPEAT, number=NUMBER)) / NUMBER


def main() -> None:
    app = create_app({"DATABASE": str(Path(tempfile.mkdtemp()) / "bench.sqlite"),
                      "SECRET_KEY": "bench"})
    with app.app_context():
        db = store.get_db()
        terms = search_terms("Stapel")
        fts = best(lambda: store.search_rules(db, fts_query(terms), "de"))
        like = best(lambda: list(db.query(
            "SELECT * FROM rule_sections WHERE folded_text LIKE ? ORDER BY lang != 'de'",
            [f"%{fold('Stapel')}%"])))

        match = store.create_match(db, "burraco", ["A", "B", "C", "D"], {"target": 10000})
        for seen in range(300):
            store.add_hand(db, match, {"sides": [{"total": 5}, {"total": 10}]}, seen)
        token = match.token
        read = best(lambda: store.get_match(db, token))
        rescore = best(lambda: score("burraco", store.get_match(db, token).options, 4,
                                     store.get_match(db, token).hands))

    print(f"{'measure':<44}{'ms':>10}{'× baseline':>12}")
    for name, seconds, baseline in (
            ("rules search 'Stapel' (FTS5 trigram)", fts, like),
            ("  baseline: LIKE scan of all sections", like, like),
            ("re-score a 300-hand Burraco match", rescore, read),
            ("  baseline: read its entries", read, read)):
        print(f"{name:<44}{seconds * 1000:>10.3f}{seconds / baseline:>12.2f}")


if __name__ == "__main__":
    main()
