"""German: the request reader's words and patterns (lexicon.py and one module per topic; see languages/__init__.py)."""
