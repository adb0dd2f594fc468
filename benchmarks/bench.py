"""Speed, as ratios against a baseline measured in the same run (machines differ; ratios
travel). Run with `make bench`.

1. Rules search: what a search costs (the terms with their synonyms, split words and typo
   corrections, the FTS5 trigram query, the snippets) against a plain LIKE scan of the same
   sections, for a plain word, a synonym, a two-digit number and a misspelt word.
2. Re-scoring: the standings of a long Burraco match, derived from what was entered, against
   only reading those entries from the database (the floor every request pays anyway).
"""

import statistics
import tempfile
import timeit
from pathlib import Path

import store
from app import create_app
from rules_content import fold
from scoring.games import score
from views import rule_search

REPEAT, NUMBER = 7, 50
SEARCHES = {"Stapel": "a word", "pozzetto": "a synonym", "31": "a number",
            "pozetto": "a typo"}


def best(statement) -> float:
    """Seconds per call, the median of several runs."""
    return statistics.median(timeit.repeat(statement, repeat=REPEAT, number=NUMBER)) / NUMBER


def main() -> None:
    app = create_app({"DATABASE": str(Path(tempfile.mkdtemp()) / "bench.sqlite"),
                      "SECRET_KEY": "bench"})
    with app.test_request_context():
        db = store.get_db()
        searches = {query: best(lambda query=query: rule_search.search(query, "de"))
                    for query in SEARCHES}
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
            *((f"rules search '{query}' ({kind})", searches[query], like)
              for query, kind in SEARCHES.items()),
            ("  baseline: LIKE scan of all sections", like, like),
            ("re-score a 300-hand Burraco match", rescore, read),
            ("  baseline: read its entries", read, read)):
        print(f"{name:<44}{seconds * 1000:>10.3f}{seconds / baseline:>12.2f}")


if __name__ == "__main__":
    main()
