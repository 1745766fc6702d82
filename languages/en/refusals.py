"""English refusals written in words ('I reject the task.', 'I cannot do this'): model_text/refusals.py.

REFUSAL matches the first sentence of a reply (folded: lower case, one space, straight apostrophes) that refuses:
the model as subject refusing, or the task as subject that cannot be done, after an optional opener ('Sorry,').
"""

from __future__ import annotations

# Openers that may precede a refusal: 'Sorry,', 'Unfortunately'.
_LEAD = r"(?:(?:i'?m |i am |we'?re )?(?:sorry|afraid|unfortunately|apologies|regrettably)[,.!:]?\s*(?:but\s*)?)?"
# Verbs of doing the task: 'I cannot find the field pop, so I used population' (a report) does not qualify.
_DO = (
    r"(?:do|perform|complete|answer|fulfil+|carry out|help|assist|process|solve|execute|handle|accomplish|serve|"
    r"proceed|comply|compute|calculate|determine|provide|produce|create|generate|make|run|write)\b"
)
REFUSAL = (
    rf"^{_LEAD}(?:"
    r"i (?:must |have to |will |would |need to |hereby )?(?:reject|refuse|decline)\b"
    rf"|i (?:cannot|can ?not|can'?t|won'?t|will not|am unable to|'?m unable to|am not able to|'?m not able to) {_DO}"
    r"|(?:this|the|your) (?:task|request|question|query) (?:cannot|can'?t|can not|is impossible|is not possible|"
    r"is not feasible|must be rejected|is rejected|will be rejected)"
    r"|(?:it is|it'?s) (?:not possible|impossible) to (?:do|complete|answer|perform|fulfil+|serve) (?:this|that|the)"
    r"|unable to (?:do|complete|answer|perform|fulfil+|serve|process) (?:this|that|the|your)"
    r"|(?:task|request) (?:rejected|refused|declined)\b"
    r")"
)
# A bare apology before the first sentence ('Sorry.'), skipped; and what ends a sentence and an apology.
APOLOGIES = (r"(?:i'?m |i am |we'?re )?(?:so |very |really )?sorry", "apologies", "my apologies")
SENTENCE_ENDS = ".!?"
APOLOGY_ENDS = ".!"
