"""Rule cases: for every rule id of every game, a move the rule refuses and one it lets through
(or, for a rule that never refuses, the effect it has), kept in each game package's
``rule_cases.jsonl``; ``generate`` finds most of them in seeded random playouts."""
