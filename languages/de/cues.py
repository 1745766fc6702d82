"""German cues of open-ended (code) and conversational (chat) requests: regex alternatives per cue (reading/cues.py).

'greet' holds the words a greeting starts with, 'comparison' the words before a compared number.
"""

from __future__ import annotations

CUES = {
    "why": r"\bwarum\b|\bwieso\b|\bweshalb\b",
    "compare": r"\bvergleich\w*",
    "summarise": r"zusammenfass\w*|beschreib\w*",
    "explain": r"\berklär\w*|\bwas (?:ist|sind|bedeutet)\b|\bwie funktioniert\b",
    "greet": r"danke|hallo|tschüss|tschuss|perfekt\w*|gute nacht|super|toll",
    "analysis": r"statisti\w*|korrelat\w*|\bprognose\w*|\bgewichtet\w*|\beignung\w*|\bstandort\w*|\bverlauf\b|"
    r"\bpro kopf\b|\banalysier\w*",
    "product": r"\bwebseite\b|\bbericht\b",
    "chain": r"\banschließend\b|\banschliessend\b|\bdanach\b|\bdann\b",
    "meta": r"\bgeladen\b|\bprojiziert\b",
    "question": r"\?\s*$",
    "cleanup": r"\bdoppelt\w*|\bbereinig\w*|\bmodellier\w*|\bsimulier\w*|\bvorhersag\w*",
    "comparison": r"\bmehr als|\bweniger als|\büber|\bunter|\bmindestens|\bhöchstens|\bzwischen|\bab|\bbis|\bvor",
}
# Whole patterns of a comparison with a number beyond '<word> <number>' (none in German).
COMPARISON_PATTERNS: tuple[str, ...] = ()
# Characters the language writes numbers with besides 0-9 (none).
NUMERALS = ""
