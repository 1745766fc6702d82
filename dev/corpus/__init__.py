"""The router's labelled corpus: hand-written templates per tool and language, filled with realistic layer contexts."""
