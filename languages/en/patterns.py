"""English words of the readers' small patterns (regex alternatives; a latin word brings its own word boundaries).

Each reader joins every language's alternatives: a German request often carries English words, and the other way.
"""

from __future__ import annotations

# Joining the numbers of a list ('200, 400 and 600 m'): separators and words.
LIST_SEPARATORS = r",|;"
LIST_JOINERS = r"and|or"
# Per-feature wording ('for each district', 'separately').
EACH_WORDING = r"(?<![a-z])(?:each|every|per|individually|separately)(?![a-z])"
# Polite and generic openers skipped when two corpus rows are compared by their first content words.
OPENERS = r"please|pls|can|could|would|you|i|i'd|we|need|want|like|to|help|me|hi|hey|ok|now"
# 'use the districts to trim the roads': the layer after these words is the tool's second layer.
USE_VERBS = r"\buse"
USE_ARTICLES = r"the\s+"
# Words a 'do the same for …' request may hold beside the lexicon's fillers (none in English).
SAME_PARTS: tuple[str, ...] = ()
