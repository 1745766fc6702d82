"""German refusals written in words ('Ich lehne die Aufgabe ab.'), read by model_text/refusals.py (see en/)."""

from __future__ import annotations

# Openers that may precede a refusal: 'Leider', 'Entschuldigung'.
_LEAD = r"(?:(?:leider|entschuldigung|es tut mir leid|tut mir leid|bedauerlicherweise)[,.!:]?\s*)?"

_DO = (
    r"(?:ausführen|erledigen|durchführen|beantworten|lösen|berechnen|bearbeiten|erfüllen|erstellen|machen|tun|"
    r"helfen|umsetzen|leisten)"
)
_TASK = r"(?:das|dies|diese aufgabe|die aufgabe|diese anfrage|die anfrage|der auftrag|diese frage|die frage)"
_DONE = r"(?:ausgeführt|erledigt|gelöst|beantwortet|durchgeführt|bearbeitet|erfüllt|umgesetzt|berechnet|gemacht)"
REFUSAL = (
    rf"^{_LEAD}(?:"
    r"ich (?:muss |werde |möchte )?(?:lehne|weise)\b.*\b(?:ab|zurück)\b"
    r"|ich (?:muss|werde) (?:die|diese|den|diesen|das) \w+ (?:ablehnen|zurückweisen)"
    rf"|(?:ich kann|kann ich|ich werde|werde ich)\b[^.!?]*\bnicht\b[^.!?]*\b{_DO}\b"
    r"|(?:ich kann|kann ich) (?:das|dies|diese aufgabe|die aufgabe|diese anfrage|die anfrage|den auftrag) nicht"
    r"\s*(?:,|$)"
    r"|ich bin (?:leider )?nicht in der lage"
    rf"|{_TASK} (?:ist|wäre) (?:[^.!?]*\s)?(?:nicht möglich|unmöglich|nicht machbar|nicht lösbar)"
    rf"|{_TASK} (?:kann|lässt sich) (?:[^.!?]*\s)?nicht (?:\w+ )?{_DONE}"
    r"|(?:aufgabe|anfrage) (?:abgelehnt|zurückgewiesen)\b"
    r")"
)
# A bare apology before the first sentence ('Entschuldigung.'), skipped; and what ends a sentence and an apology.
APOLOGIES = ("entschuldigung", r"(?:es )?tut mir (?:sehr )?leid")
SENTENCE_ENDS = ".!?"
APOLOGY_ENDS = ".!"
