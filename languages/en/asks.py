"""English wording of what a request asks for, read by agent/checks.py and agent/coverage.py (regex alternatives).

A latin word brings its own word boundaries; every language's alternatives are joined into one pattern.
"""

from __future__ import annotations

# Any image word (a picture asked for, unless it names a layer).
IMAGE_WORDS = r"(?<![a-z])(?:png|jpe?g|image|picture)(?![a-z])"
# Words that always mean a picture, or an image asked *as* a result ('as an image').
PICTURE_WORDS = r"(?<![a-z])(?:png|jpe?g|picture|screenshot|(?:as|into|to) (?:an? )?image|an image|a image)(?![a-z])"
# Wording that lets the answer be 'nothing' ('are there any …', 'whether').
MAYBE_NONE_WORDS = r"(?<![a-z])(?:if any|whether|is there|are there|are any|is any|none)(?![a-z])"
# A share of a whole ('what percentage of the image …').
SHARE_QUESTION = (
    r"(?<![a-z])(?:what (?:percentage|percent|share|proportion|fraction) of|how much of|which share of)(?![a-z])"
)
# The request wants to see a map ('map it', 'show it on a map').
MAP_WORDS = (
    r"(?<![a-z])(?:map (?:it|them|this|that|these|those|the \w+)|(?:on|in|as|into) an? map|on the map|an? map of)"
    r"(?![a-z])"
)
# A question for a quantity ('how many hectares …?') and for a thing ('which district …?').
QUANTITY_QUESTION = (
    r"(?<![a-z])(?:how (?:many|much|far|long|large|big)|what (?:percentage|share|proportion|fraction|percent))"
    r"(?![a-z])"
)
WHICH_QUESTION = r"(?<![a-z])(?:which|what)(?![a-z])"
